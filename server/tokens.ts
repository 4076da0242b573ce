// Signed tokens (HS256, jose): widget sessions for the browser and the hosted verification link of a customer.
import { jwtVerify, SignJWT } from 'jose';
import { newId } from './ids';

export interface WidgetSessionClaims {
  sessionId: string;
  partnerId: string;
  /** Null for an onboarding session, until it creates its customer. */
  customerId: string | null;
  allowedOrigins: string[];
  expiresAt: Date;
}

export class Tokens {
  private readonly key: Uint8Array;
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async signWidgetSession(c: Omit<WidgetSessionClaims, 'sessionId'>): Promise<string> {
    return new SignJWT({ typ: 'widget', cid: c.customerId, org: c.allowedOrigins })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(c.partnerId)
      .setJti(newId())
      .setIssuedAt()
      .setExpirationTime(Math.floor(c.expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** The claims of a valid, unexpired widget-session token; undefined for anything else. */
  async verifyWidgetSession(token: string): Promise<WidgetSessionClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (payload.typ !== 'widget' || !payload.sub || !payload.jti || !payload.exp) return undefined;
      return {
        sessionId: payload.jti,
        partnerId: payload.sub,
        customerId: typeof payload.cid === 'string' ? payload.cid : null,
        allowedOrigins: Array.isArray(payload.org) ? payload.org.filter((o): o is string => typeof o === 'string') : [],
        expiresAt: new Date(payload.exp * 1000),
      };
    } catch {
      return undefined;
    }
  }

  /** Deterministic (no iat, no expiry): a customer's link is the same every time it is read, and works at any time. */
  signVerificationLink(partnerId: string, customerId: string): Promise<string> {
    return new SignJWT({ typ: 'verify', pid: partnerId }).setProtectedHeader({ alg: 'HS256' }).setSubject(customerId).sign(this.key);
  }

  async verifyVerificationLink(token: string): Promise<{ partnerId: string; customerId: string } | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (payload.typ !== 'verify' || typeof payload.pid !== 'string' || !payload.sub) return undefined;
      return { partnerId: payload.pid, customerId: payload.sub };
    } catch {
      return undefined;
    }
  }
}

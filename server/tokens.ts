// Signed tokens: widget sessions for the browser (HS256 JWTs, jose), and customers' short-lived hosted verification links (an HMAC token of their own, with a key of its own);
// and the keys that keep working secrets encrypted at rest (stored idempotent answers, webhook signing secrets).
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { newId } from './ids';

export interface WidgetSessionClaims {
  sessionId: string;
  partnerId: string;
  /** Null for an onboarding session, until it creates its customer. */
  customerId: string | null;
  allowedOrigins: string[];
  expiresAt: Date;
  /**
   * The line the session belongs to: the onboarding session's id, kept by the session bound to the customer it created
   * (its upload budget is the line's); a session minted on its own starts its own line.
   */
  lineage: string;
  /** Begun by an anonymous visitor (POST /bff/public-session): a smaller upload budget. */
  anonymous: boolean;
  /** An onboarding session minted for the partner's user: the customer it creates carries this id. */
  externalUserId?: string;
}

/** What a verification-link token is for; a token with any other purpose (a widget session, say) is not a link. */
export const VERIFICATION_LINK_PURPOSE = 'verification_link';
/** The audience of the JWT links minted before the `v1` links (see `legacyLinkOf`). */
const LEGACY_LINK_AUDIENCE = 'ramp:verify';
/** A verification link's format: its token's first part, and the start of what its MAC covers. */
const LINK_VERSION = 'v1';
/** Longer is not a link (one is ~314 characters: its ids are UUIDs), and is refused before anything is decoded. */
const LINK_MAX_LENGTH = 2048;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Seconds a link's `iat` may lie ahead of this process's clock (minted by another process whose clock is a little ahead). */
const LINK_CLOCK_SKEW_S = 60;

/**
 * A signing key of its own per purpose, derived from the one configured secret (HKDF-SHA256), so a token made for one
 * purpose can never verify as another even if the claims were confused.
 */
export function deriveTokenKey(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'ramp-token-keys', purpose, 32));
}

/** The HKDF info labels of the at-rest keys: one key per kind of data, none shared with a token key. */
export const AT_REST_LABELS = { idempotencyAnswers: 'ramp idempotency answers v1', webhookSecrets: 'ramp webhook secrets v1' } as const;

/** What an encrypted value starts with: text without it was stored before encryption (plain) and is read as it is. */
export const SEALED_PREFIX = 'enc:v1:';

/**
 * AES-256-GCM for values stored at rest: `enc:v1:` + base64url(12-byte random IV, ciphertext, 16-byte tag). `context` is
 * the additional authenticated data (the row's identity), so a value copied into another row does not open.
 */
export class SealedBox {
  constructor(private readonly key: Uint8Array) {}

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /**
   * The plain text: a sealed value opened, or a value stored before encryption as it is. Undefined when a sealed value
   * does not open (another row's, another key's — the session secret changed — or altered).
   */
  open(stored: string, context: string): string | undefined {
    if (!stored.startsWith(SEALED_PREFIX)) return stored;
    const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
    if (raw.length < 28) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

export interface TokenOptions {
  /** How long a verification link works after it is read (minted). Default 24 hours. */
  verificationLinkTtlSeconds?: number;
}

export class Tokens {
  private readonly key: Uint8Array;
  private readonly linkKey: Uint8Array;
  readonly verificationLinkTtlSeconds: number;
  /** Stored idempotent answers (they may hold secrets: API keys, widget tokens, webhook secrets, links). */
  readonly idempotencyAnswers: SealedBox;
  /** Webhook endpoints' signing secrets. */
  readonly webhookSecrets: SealedBox;
  constructor(secret: string, opts: TokenOptions = {}) {
    this.key = new TextEncoder().encode(secret);
    this.linkKey = deriveTokenKey(secret, VERIFICATION_LINK_PURPOSE);
    this.idempotencyAnswers = new SealedBox(deriveTokenKey(secret, AT_REST_LABELS.idempotencyAnswers));
    this.webhookSecrets = new SealedBox(deriveTokenKey(secret, AT_REST_LABELS.webhookSecrets));
    this.verificationLinkTtlSeconds = opts.verificationLinkTtlSeconds ?? 24 * 3600;
  }

  async signWidgetSession(c: Omit<WidgetSessionClaims, 'sessionId' | 'lineage' | 'anonymous'> & Partial<Pick<WidgetSessionClaims, 'lineage' | 'anonymous'>>): Promise<string> {
    const jti = newId();
    const optional = { ...(c.lineage ? { lin: c.lineage } : {}), ...(c.anonymous ? { anon: true } : {}), ...(c.externalUserId ? { ext: c.externalUserId } : {}) };
    return new SignJWT({ typ: 'widget', cid: c.customerId, org: c.allowedOrigins, ...optional })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(c.partnerId)
      .setJti(jti)
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
        lineage: typeof payload.lin === 'string' ? payload.lin : payload.jti,
        anonymous: payload.anon === true,
        ...(typeof payload.ext === 'string' ? { externalUserId: payload.ext } : {}),
      };
    } catch {
      return undefined;
    }
  }

  /**
   * A fresh link token for one customer, minted on every read of the customer: its own key and purpose, a unique id and
   * an expiry (`verificationLinkTtlSeconds` after `issuedAt`). It is never stored; a leaked one stops working by itself.
   */
  async signVerificationLink(partnerId: string, customerId: string, opts: { issuedAt?: Date } = {}): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor((opts.issuedAt ?? new Date()).getTime() / 1000);
    return { token: this.verificationLinkToken(partnerId, customerId, iat), expiresAt: new Date((iat + this.verificationLinkTtlSeconds) * 1000) };
  }

  /**
   * `signVerificationLink`'s token, without the promise, for presenters (a fresh one on every customer read): the
   * version, the claims' JSON and an HMAC-SHA256 of both under the link key, each part base64url, joined by dots (the
   * docs/api.md's "Verification links"). Not a JWT: no header to choose an algorithm, one shape, one key. node:crypto's HMAC
   * is synchronous (WebCrypto's promise costs more than the HMAC); the whole token is made afresh each time.
   */
  verificationLinkToken(partnerId: string, customerId: string, iat = Math.floor(Date.now() / 1000)): string {
    const claims: LinkClaims = { purpose: VERIFICATION_LINK_PURPOSE, pid: partnerId, sub: customerId, jti: newId(), iat, exp: iat + this.verificationLinkTtlSeconds };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${LINK_VERSION}.${payload}.${this.linkMac(payload)}`;
  }

  /** The MAC of a link's payload: it covers the version too, so a later version's payload never verifies as this one. */
  private linkMac(payload: string): string {
    return createHmac('sha256', this.linkKey).update(`${LINK_VERSION}.${payload}`).digest('base64url');
  }

  /** The customer a valid, unexpired link names; undefined for anything else (another purpose, another key, expired, malformed). */
  async verifyVerificationLink(token: string): Promise<{ partnerId: string; customerId: string } | undefined> {
    if (typeof token !== 'string' || token.length > LINK_MAX_LENGTH) return undefined;
    return token.startsWith(`${LINK_VERSION}.`) ? this.linkOf(token, Math.floor(Date.now() / 1000)) : this.legacyLinkOf(token);
  }

  /** A `v1` link's customer. Every check is on the token's own text before anything is decoded, and the MAC before the claims are read. */
  private linkOf(token: string, now: number): { partnerId: string; customerId: string } | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [, payload, mac] = parts as [string, string, string];
    if (!BASE64URL.test(payload) || !BASE64URL.test(mac)) return undefined;
    // The MAC's own text, compared in constant time: one text per MAC (decoding would let the last character's unused
    // bits vary), and no early exit that tells a guesser how many characters were right.
    const expected = Buffer.from(this.linkMac(payload), 'latin1');
    const given = Buffer.from(mac, 'latin1');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!isLinkClaims(claims) || claims.purpose !== VERIFICATION_LINK_PURPOSE) return undefined;
    if (claims.exp <= now || claims.exp <= claims.iat || claims.iat > now + LINK_CLOCK_SKEW_S) return undefined;
    return { partnerId: claims.pid, customerId: claims.sub };
  }

  /**
   * A link minted before the `v1` tokens (an HS256 JWT under the same link key, checked by jose): accepted for one
   * release, so that links already sent to customers keep working until they expire (at most
   * RAMP_VERIFICATION_LINK_TTL_HOURS, 30 days, after the upgrade); remove it in the release after.
   */
  private async legacyLinkOf(token: string): Promise<{ partnerId: string; customerId: string } | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.linkKey, { algorithms: ['HS256'], audience: LEGACY_LINK_AUDIENCE, requiredClaims: ['exp', 'iat', 'jti'] });
      if (payload.purpose !== VERIFICATION_LINK_PURPOSE || typeof payload.pid !== 'string' || !payload.sub) return undefined;
      return { partnerId: payload.pid, customerId: payload.sub };
    } catch {
      return undefined;
    }
  }
}

/** What a `v1` link says: its purpose, partner, customer, a unique id, and when it was made and stops working (seconds). */
interface LinkClaims {
  purpose: string;
  pid: string;
  sub: string;
  jti: string;
  iat: number;
  exp: number;
}

const isLinkClaims = (v: unknown): v is LinkClaims => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const c = v as Record<string, unknown>;
  return (
    typeof c.purpose === 'string' &&
    typeof c.pid === 'string' &&
    c.pid !== '' &&
    typeof c.sub === 'string' &&
    c.sub !== '' &&
    typeof c.jti === 'string' &&
    c.jti !== '' &&
    Number.isSafeInteger(c.iat) &&
    Number.isSafeInteger(c.exp)
  );
};

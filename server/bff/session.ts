// Widget-session auth and CORS for /bff: the token names the partner, the customer and the origins it may be used from.
import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../domain/errors';
import type { Logger } from '../logger';
import type { Tokens, WidgetSessionClaims } from '../tokens';

export interface BffEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    partnerId: string;
    session: WidgetSessionClaims;
  };
}

const ALLOW_HEADERS = 'authorization, content-type, idempotency-key, last-event-id, x-request-id';
const EXPOSE_HEADERS = 'x-request-id, idempotency-replayed, retry-after';

/** Preflights carry no token, so they are answered for any origin; the real request is then checked against the session. */
export const preflight: MiddlewareHandler<BffEnv> = async (c, next) => {
  const origin = c.req.header('origin');
  if (c.req.method !== 'OPTIONS' || !origin) return next();
  return c.body(null, 204, {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
    'access-control-allow-headers': ALLOW_HEADERS,
    'access-control-max-age': '600',
    vary: 'Origin',
  });
};

function originAllowed(c: Context<BffEnv>, origin: string, session: WidgetSessionClaims, publicOrigin: string): boolean {
  if (session.allowedOrigins.length > 0) return session.allowedOrigins.includes(origin);
  return origin === publicOrigin || origin === new URL(c.req.url).origin;
}

export interface SessionAuthOptions {
  tokens: Tokens;
  publicUrl: string;
  /**
   * The partner this BFF acts for (whose API key it holds). Every partner on one service shares the session secret, so a
   * valid signature is not enough: a session minted by another partner is refused, in process and in front of an upstream.
   */
  ownPartnerId: (requestId: string) => Promise<string>;
}

export function widgetSessionAuth(opts: SessionAuthOptions): MiddlewareHandler<BffEnv> {
  const publicOrigin = new URL(opts.publicUrl).origin;
  return async (c, next) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    const claims = m ? await opts.tokens.verifyWidgetSession(m[1]!) : undefined;
    // Another partner's session is no session here, whatever its origins say.
    const session = claims && claims.partnerId === (await opts.ownPartnerId(c.get('requestId'))) ? claims : undefined;
    const origin = c.req.header('origin');
    if (session && origin && !originAllowed(c, origin, session, publicOrigin)) {
      throw new AppError('FORBIDDEN', `This widget session may not be used from ${origin}.`);
    }
    // CORS headers go on every answer to an allowed origin, problems included, so the component can read them.
    if (origin && (!session || originAllowed(c, origin, session, publicOrigin))) {
      c.header('access-control-allow-origin', origin);
      c.header('access-control-expose-headers', EXPOSE_HEADERS);
      c.header('vary', 'Origin');
    }
    if (!session) {
      throw new AppError('UNAUTHENTICATED', 'The widget session is missing, invalid or expired. Ask the partner backend for a new one.');
    }
    c.set('session', session);
    c.set('partnerId', session.partnerId);
    await next();
  };
}

/**
 * A session token the upstream minted, signed again into a line of sessions: its lineage (whose upload budget it spends)
 * and whether the line began with an anonymous visitor. Same claims and expiry otherwise.
 */
export async function intoLine(tokens: Tokens, token: string, line: { lineage?: string; anonymous: boolean }): Promise<string> {
  const claims = await tokens.verifyWidgetSession(token);
  // The BFF reads every session with the same secret: one it cannot read is a configuration error, not the browser's.
  if (!claims) throw new Error('the upstream minted a widget session this BFF cannot verify (RAMP_SESSION_SECRET differs)');
  return tokens.signWidgetSession({ ...claims, lineage: line.lineage, anonymous: line.anonymous });
}


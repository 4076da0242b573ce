// POST /bff/public-session (opt-in, RAMP_PUBLIC_ONBOARDING): for partners without a backend, the BFF mints an onboarding
// session for an anonymous visitor of an allowlisted origin, rate-limited per address and origin. The session may only
// create one customer (as any onboarding session); the element asks for it with `session-url` (POST, credentials).
import { type Context, Hono } from 'hono';
import { AppError } from '../domain/errors';
import type { AppEnv } from '../http/env';
import { problemResponse } from '../http/problem';
import type { Tokens } from '../tokens';
import { intoLine } from './session';
import type { Upstream } from './upstream';

export interface PublicOnboardingOptions {
  /** Exact origins (`https://shop.example`) whose pages may get sessions. */
  origins: readonly string[];
  /** Counts one session for the visitor's address (as every limit reads it: RAMP_TRUST_PROXY, IPv6 /64) and `origin`. */
  limit: (c: Context, origin: string) => Promise<void>;
  /** Marks the session anonymous: its line of sessions gets the smaller upload budget. */
  tokens: Tokens;
}

/** `RAMP_PUBLIC_ONBOARDING=https://a.example,https://b.example` → the origins; blank entries dropped. */
export function parseOrigins(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

export function publicOnboardingApp(upstream: Upstream, options: PublicOnboardingOptions) {
  const allowed = new Set(options.origins);
  const app = new Hono<AppEnv>();
  const cors = (origin: string) => ({
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    vary: 'Origin',
    'cache-control': 'no-store',
  });

  app.options('/public-session', (c) => {
    const origin = c.req.header('origin') ?? '';
    if (!allowed.has(origin)) return c.body(null, 403);
    return c.body(null, 204, { ...cors(origin), 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'accept, content-type' });
  });

  app.post('/public-session', async (c) => {
    const origin = c.req.header('origin') ?? '';
    if (!allowed.has(origin)) return problemResponse(c, new AppError('FORBIDDEN', 'This origin may not get public onboarding sessions.'));
    for (const [k, v] of Object.entries(cors(origin))) c.header(k, v);
    try {
      await options.limit(c, origin);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return problemResponse(c, err);
    }
    const session = await upstream.createWidgetSession({ allowedOrigins: [origin] }, { requestId: c.get('requestId') });
    return c.json({ token: await intoLine(options.tokens, session.token, { anonymous: true }), expiresAt: session.expiresAt }, 201);
  });
  return app;
}

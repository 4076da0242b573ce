// POST /bff/public-session (opt-in, RAMP_PUBLIC_ONBOARDING): for partners without a backend, the BFF mints an onboarding
// session for an anonymous visitor of an allowlisted origin, rate-limited per address and origin. The session may only
// create one customer (as any onboarding session); the element asks for it with `session-url` (POST, credentials).
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../domain/errors';
import type { AppEnv } from '../http/env';
import { problemResponse } from '../http/problem';
import type { Upstream } from './upstream';

export interface PublicOnboardingOptions {
  /** Exact origins (`https://shop.example`) whose pages may get sessions. */
  origins: readonly string[];
  /** Sessions per visitor address and origin per minute. */
  perMinute?: number;
}

/** `RAMP_PUBLIC_ONBOARDING=https://a.example,https://b.example` → the origins; blank entries dropped. */
export function parseOrigins(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

function address(c: Parameters<typeof getConnInfo>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // app.request() in tests has no socket
  }
}

export function publicOnboardingApp(upstream: Upstream, options: PublicOnboardingOptions) {
  const allowed = new Set(options.origins);
  const limiter = new RateLimiterMemory({ points: options.perMinute ?? 10, duration: 60 });
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
      await limiter.consume(`${address(c)}|${origin}`);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      c.header('retry-after', String(Math.ceil(rejected.msBeforeNext / 1000)));
      return problemResponse(c, new AppError('RATE_LIMITED', 'Too many onboarding sessions from this address: try again in a minute.'));
    }
    const session = await upstream.createWidgetSession({ allowedOrigins: [origin] }, { requestId: c.get('requestId') });
    return c.json({ token: session.token, expiresAt: session.expiresAt }, 201);
  });
  return app;
}

// POST /demo/session (sandbox only): the demo page's stand-in for a partner backend, minting onboarding sessions for its own origin.
import { Hono, type MiddlewareHandler } from 'hono';
import type { Upstream } from '../bff/upstream';
import { AppError } from '../domain/errors';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Origins the demo page may call from: the public origin (RAMP_PUBLIC_URL), or the origin the request was served
 * from when that is a loopback host (`npm start` on localhost, the Vite dev server's proxy). Any other Host is not
 * trusted: a DNS-rebinding page would name its own.
 */
export function demoOriginAllowed(origin: string, publicUrl: string, requestUrl: string): boolean {
  if (origin === new URL(publicUrl).origin) return true;
  const own = new URL(requestUrl);
  return origin === own.origin && LOOPBACK.has(own.hostname);
}

export function demoSessionApp(upstream: Upstream, opts: { publicUrl: string; limit?: MiddlewareHandler }) {
  const app = new Hono<{ Variables: { requestId: string } }>();
  if (opts.limit) app.use('/demo/session', opts.limit);
  return app.post('/demo/session', async (c) => {
    // Browsers send Origin on every POST from script; a page elsewhere cannot mint sessions bound to itself.
    const origin = c.req.header('origin');
    if (!origin || !demoOriginAllowed(origin, opts.publicUrl, c.req.url)) {
      throw new AppError('FORBIDDEN', 'Demo sessions are minted only for the demo page served by this server.');
    }
    const session = await upstream.createWidgetSession({ allowedOrigins: [origin] }, { requestId: c.get('requestId') });
    return c.json(session, 201, { 'cache-control': 'no-store' });
  });
}

// POST /demo/session (sandbox only): the demo page's stand-in for a partner backend, minting onboarding sessions for its own origin.
import { Hono } from 'hono';
import type { Upstream } from '../bff/upstream';

export function demoSessionApp(upstream: Upstream) {
  return new Hono<{ Variables: { requestId: string } }>().post('/demo/session', async (c) => {
    const origin = c.req.header('origin') ?? new URL(c.req.url).origin;
    const session = await upstream.createWidgetSession({ allowedOrigins: [origin] }, { requestId: c.get('requestId') });
    return c.json(session, 201, { 'cache-control': 'no-store' });
  });
}

// /bff: what a widget session may do, for its own customer only, through the public /v2 contract.
import { Hono } from 'hono';
import type { CreateCustomerRequest } from '../../src/contract/customers';
import { AppError } from '../domain/errors';
import type { Tokens } from '../tokens';
import { type BffEnv, preflight, widgetSessionAuth } from './session';
import { type Upstream, UpstreamProblem } from './upstream';

export interface BffDeps {
  upstream: Upstream;
  tokens: Tokens;
  publicUrl: string;
  /** The partner whose key the upstream client holds, when known (in-process); tokens of other partners are refused. */
  partnerId?: string;
}

export function bffApp(deps: BffDeps) {
  const app = new Hono<BffEnv>();
  app.use('*', preflight);
  app.use('*', widgetSessionAuth(deps));

  app.get('/session', (c) => {
    const s = c.get('session');
    return c.json({ customerId: s.customerId, expiresAt: s.expiresAt.toISOString() });
  });

  app.get('/customer', async (c) => {
    const s = c.get('session');
    if (!s.customerId) throw new AppError('NOT_FOUND', 'This onboarding session has not created its customer yet.');
    return c.json(await deps.upstream.getCustomer(s.customerId, { requestId: c.get('requestId') }));
  });

  // An onboarding session creates at most one customer: the upstream Idempotency-Key is the session's own, so a
  // retry replays the same customer and any other body is refused.
  app.post('/customers', async (c) => {
    const s = c.get('session');
    if (s.customerId) throw new AppError('CONFLICT', 'This session already belongs to a customer.', { extra: { customerId: s.customerId } });
    const body = (await c.req.json().catch(() => ({}))) as CreateCustomerRequest;
    const requestId = c.get('requestId');
    let customer;
    try {
      customer = await deps.upstream.createCustomer(body, { idempotencyKey: `widget-session:${s.sessionId}:customer`, requestId });
    } catch (err) {
      if (err instanceof UpstreamProblem && err.body.code === 'IDEMPOTENCY_KEY_REUSED') {
        throw new AppError('CONFLICT', 'This onboarding session already created a customer. Ask the partner backend for a session bound to it.');
      }
      throw err;
    }
    const remaining = Math.max(60, Math.floor((s.expiresAt.getTime() - Date.now()) / 1000));
    const session = await deps.upstream.createWidgetSession(
      { customerId: customer.id, allowedOrigins: s.allowedOrigins.length ? s.allowedOrigins : undefined, expiresIn: Math.min(remaining, 3600) },
      { requestId },
    );
    return c.json({ customer, session }, 201);
  });

  return app;
}

/** Problems from /v2 reach the browser as they are (status and body), with this request's id. */
export function upstreamProblemResponse(err: UpstreamProblem, requestId: string): Response {
  return new Response(JSON.stringify({ ...err.body, requestId }), {
    status: err.status,
    headers: { 'content-type': 'application/problem+json' },
  });
}

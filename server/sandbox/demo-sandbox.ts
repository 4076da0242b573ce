// POST /demo/sandbox/fund and /demo/sandbox/clock (sandbox only): the demo page's controls for what a partner does with
// its API key in sandbox, funding the session's customer's wallet and moving the partner's clock, for the customer the
// widget session is bound to. The service answers as /v2/sandbox/* would, problems included.
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { AppError, invalid } from '../domain/errors';
import type { BffEnv } from '../bff/session';
import type { Upstream } from '../bff/upstream';
import { issuesOf } from '../http/problem';

const FundBody = z.object({ blockchain: z.string().max(20), stablecoin: z.string().max(10), amount: z.string().max(40) }).strict();
const ClockBody = z.object({ seconds: z.number().int().min(1).max(31 * 86400) }).strict();

async function bodyOf<T>(c: { req: { json(): Promise<unknown> } }, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await c.req.json().catch(() => undefined));
  if (!parsed.success) throw invalid(issuesOf(parsed.error));
  return parsed.data;
}

export function demoSandboxApp(upstream: Upstream, opts: { auth: MiddlewareHandler<BffEnv> }) {
  const app = new Hono<BffEnv>();
  app.use('/demo/sandbox/*', opts.auth);
  app.post('/demo/sandbox/fund', async (c) => {
    const customerId = c.get('session').customerId;
    if (!customerId) throw new AppError('INVALID_STATE', 'This session has no customer yet: finish the first onboarding step, then fund the wallet.');
    const body = await bodyOf(c, FundBody);
    return c.json(await upstream.sandboxFund({ customerId, ...body }, { requestId: c.get('requestId') }), 200, { 'cache-control': 'no-store' });
  });
  app.post('/demo/sandbox/clock', async (c) => {
    const { seconds } = await bodyOf(c, ClockBody);
    return c.json(await upstream.sandboxAdvanceClock(seconds, { requestId: c.get('requestId') }), 200, { 'cache-control': 'no-store' });
  });
  return app;
}

// /bff/transactions/transfer: the session's customer sends stablecoin from its own wallet to an outside address.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { TransferRequest } from '../../src/contract/transactions';
import { invalid } from '../domain/errors';
import { isUuid } from '../ids';
import type { BffEnv } from './session';
import type { Upstream } from './upstream';

/** What the BFF's other routes already do for every call: who the session acts for, the upstream context, the body. */
export interface TransferHelpers {
  boundCustomer(c: Context<BffEnv>): string;
  ctx(c: Context<BffEnv>): { requestId: string; idempotencyKey?: string };
  jsonBody<T>(c: Context<BffEnv>): Promise<T>;
}

export function transferRoutes(upstream: Upstream, h: TransferHelpers) {
  const app = new Hono<BffEnv>();
  app.post('/transactions/transfer', async (c) => {
    const body = await h.jsonBody<Record<string, unknown>>(c);
    // The paying customer is the session's: a browser never names it (nor a partner fee).
    const named = ['from', 'customerId', 'partnerFeeId'].filter((k) => k in body);
    if (named.length) throw invalid(named.map((path) => ({ path, message: 'is not accepted here: the session decides who pays', code: 'NOT_ALLOWED' as const })));
    // A widget withdraws to an address; sending by customer id would let a browser probe which ids are customers.
    if (typeof body.to === 'string' && isUuid(body.to.trim())) throw invalid([{ path: 'to', message: 'must be a wallet address', code: 'INVALID_FORMAT' }]);
    // Money leaves the wallet: a retry must replay the first attempt, never send twice.
    if (!c.req.header('idempotency-key')) throw invalid([{ path: 'header.Idempotency-Key', message: 'is required: send one key per withdrawal and repeat it on retries', code: 'REQUIRED' }]);
    const request = { ...body, from: h.boundCustomer(c) } as TransferRequest;
    return c.json(await upstream.createTransfer(request, h.ctx(c)), 201);
  });
  return app;
}

// /bff: what a widget session may do, for its own customer only, through the public /v2 contract.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { CreateCustomerRequest } from '../../src/contract/customers';
import type { BffQuoteRequest } from '../../src/contract/exchange-rates';
import type { AdditionalInformation, CreateAssociatedParty } from '../../src/contract/kyc';
import { AppError } from '../domain/errors';
import type { Tokens } from '../tokens';
import { type BffEnv, preflight, widgetSessionAuth } from './session';
import { type Upstream, UpstreamProblem } from './upstream';

export interface BffDeps {
  upstream: Upstream;
  tokens: Tokens;
  publicUrl: string;
  sandbox: boolean;
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

  app.get('/customer', async (c) => c.json(await deps.upstream.getCustomer(boundCustomer(c), ctx(c))));

  app.patch('/customer/additional-information', async (c) =>
    c.json(await deps.upstream.updateAdditionalInformation(boundCustomer(c), await jsonBody<AdditionalInformation>(c), ctx(c))),
  );

  app.get('/customer/documents', async (c) => c.json(await deps.upstream.listDocuments(boundCustomer(c), ctx(c))));

  app.post('/customer/documents', async (c) => {
    const upload = { body: c.req.raw.body, contentType: c.req.header('content-type'), contentLength: c.req.header('content-length') };
    return c.json(await deps.upstream.uploadDocument(boundCustomer(c), upload, ctx(c)), 201);
  });

  app.get('/customer/associated-parties', async (c) => c.json(await deps.upstream.listAssociatedParties(boundCustomer(c), ctx(c))));

  app.post('/customer/associated-parties', async (c) =>
    c.json(await deps.upstream.createAssociatedParty(boundCustomer(c), await jsonBody<CreateAssociatedParty>(c), ctx(c)), 201),
  );

  app.get('/customer/verifications', async (c) => c.json(await deps.upstream.listVerifications(boundCustomer(c), ctx(c))));

  app.post('/customer/verifications', async (c) => c.json(await deps.upstream.startVerification(boundCustomer(c), ctx(c)), 201));

  // Quotes for the session's customer; a partner fee is the partner backend's business, not the browser's.
  app.post('/exchange-rates', async (c) => {
    const body = await jsonBody<BffQuoteRequest & { customerId?: unknown; partnerFeeId?: unknown }>(c);
    if (body && typeof body === 'object' && ('customerId' in body || 'partnerFeeId' in body)) {
      throw new AppError('VALIDATION_FAILED', 'The session decides the customer and the partner fee.', {
        errors: ['customerId', 'partnerFeeId'].filter((k) => k in body).map((path) => ({ path, message: 'is not accepted here' })),
      });
    }
    return c.json(await deps.upstream.quote({ ...(body as BffQuoteRequest), customerId: boundCustomer(c) }, ctx(c)));
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

  // Transactions and bank accounts of the session's customer only: ids from the browser are checked against it, and a
  // foreign id answers 404 exactly like a missing one.
  const ownTransaction = async (c: Context<BffEnv>, id: string) => {
    const t = await deps.upstream.getTransaction(id, ctx(c)).catch(notFoundAs404);
    if (t.customerId !== boundCustomer(c)) throw new AppError('NOT_FOUND', 'Transaction not found');
    return t;
  };
  const ownAccount = async (c: Context<BffEnv>, id: string) => {
    const a = await deps.upstream.getBankAccount(id, ctx(c)).catch(notFoundAs404);
    if (a.customerId !== boundCustomer(c)) throw new AppError('NOT_FOUND', 'Bank account not found');
    return a;
  };
  const page = (c: Context<BffEnv>) => ({ customerId: boundCustomer(c), size: c.req.query('size'), cursor: c.req.query('cursor') });
  const noPartnerFee = (body: Record<string, unknown>) => {
    for (const k of ['customerId', 'partnerFeeId']) {
      if (k in body) throw new AppError('VALIDATION_FAILED', 'The session decides the customer and the partner fee.', { errors: [{ path: k, message: 'is not accepted here' }] });
    }
  };

  app.post('/transactions/on-ramp', async (c) => {
    const body = await jsonBody<Record<string, unknown>>(c);
    noPartnerFee(body);
    return c.json(await deps.upstream.createOnRamp({ ...(body as object), customerId: boundCustomer(c) } as never, ctx(c)), 201);
  });
  app.post('/transactions/off-ramp', async (c) => {
    const body = await jsonBody<Record<string, unknown>>(c);
    noPartnerFee(body);
    if (typeof body.bankAccountId === 'string') await ownAccount(c, body.bankAccountId);
    return c.json(await deps.upstream.createOffRamp(body as never, ctx(c)), 201);
  });
  app.get('/transactions', async (c) => c.json(await deps.upstream.listTransactions(page(c), ctx(c))));
  app.get('/transactions/:id', async (c) => c.json(await ownTransaction(c, c.req.param('id'))));
  app.get('/bank-accounts', async (c) => c.json(await deps.upstream.listBankAccounts(page(c), ctx(c))));
  app.post('/bank-accounts', async (c) => {
    const body = await jsonBody<Record<string, unknown>>(c);
    noPartnerFee(body);
    return c.json(await deps.upstream.createBankAccount({ ...(body as object), customerId: boundCustomer(c) } as never, ctx(c)), 201);
  });
  app.delete('/bank-accounts/:id', async (c) => {
    await ownAccount(c, c.req.param('id'));
    await deps.upstream.deleteBankAccount(c.req.param('id'), ctx(c));
    return c.body(null, 204);
  });
  if (deps.sandbox) {
    app.post('/sandbox/transactions/:id/pay', async (c) => {
      await ownTransaction(c, c.req.param('id'));
      return c.json(await deps.upstream.sandboxPay(c.req.param('id'), ctx(c)));
    });
  }

  return app;
}

/** A malformed id from the browser is simply not found here. */
function notFoundAs404(err: unknown): never {
  if (err instanceof UpstreamProblem && (err.status === 400 || err.status === 404)) throw new AppError('NOT_FOUND', 'Not found');
  throw err;
}

/** The customer the session is bound to; an onboarding session that has not created one yet has nothing to act on. */
function boundCustomer(c: Context<BffEnv>): string {
  const id = c.get('session').customerId;
  if (!id) throw new AppError('NOT_FOUND', 'This onboarding session has not created its customer yet.');
  return id;
}

/** Upstream call context: the request id, and the browser's Idempotency-Key scoped to its customer. */
function ctx(c: Context<BffEnv>) {
  const key = c.req.header('idempotency-key');
  const scope = c.get('session').customerId ?? c.get('session').sessionId;
  return { requestId: c.get('requestId'), idempotencyKey: key ? `bff:${scope}:${key}` : undefined };
}

async function jsonBody<T>(c: Context<BffEnv>): Promise<T> {
  return (await c.req.json().catch(() => ({}))) as T;
}

/** Problems from /v2 reach the browser as they are (status and body), with this request's id. */
export function upstreamProblemResponse(err: UpstreamProblem, requestId: string): Response {
  return new Response(JSON.stringify({ ...err.body, requestId }), {
    status: err.status,
    headers: { 'content-type': 'application/problem+json' },
  });
}

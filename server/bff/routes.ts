// /bff: what a widget session may do, for its own customer only, through the public /v2 contract.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { CreateCustomerRequest, Customer } from '../../src/contract/customers';
import type { BffQuoteRequest } from '../../src/contract/exchange-rates';
import type { AdditionalInformation, CreateAssociatedParty, UpdateAssociatedParty } from '../../src/contract/kyc';
import { AppError, invalid } from '../domain/errors';
import type { Tokens, WidgetSessionClaims } from '../tokens';
import { MAX_DOCUMENT_BYTES } from '../../src/contract/documents';
import { MULTIPART_OVERHEAD } from '../http/multipart';
import { eventsStream } from './events-stream';
import { type BffEnv, intoLine, preflight, widgetSessionAuth } from './session';
import { rateLimited } from '../http/rate-limit';
import { type Upstream, UpstreamProblem } from './upstream';
import { transferRoutes } from './transfers';

export interface BffDeps {
  upstream: Upstream;
  tokens: Tokens;
  publicUrl: string;
  sandbox: boolean;
  /** The partner whose key the upstream client holds; widget sessions of any other partner are refused. */
  ownPartnerId: (requestId: string) => Promise<string>;
  /** Counts one request against the widget session's budget (throws RATE_LIMITED when spent). */
  limitSession?: (sessionId: string) => Promise<void>;
  /** The session's budget of tax-id conflicts: `blockedFor` > 0 refuses a creation before it is tried. */
  conflicts?: { blockedFor(sessionId: string): Promise<number>; spend(sessionId: string): Promise<void> };
  /** The upload budget of the session's line: reserved before an upload is forwarded; the answer gives it back if refused. */
  uploads?: { reserve(session: WidgetSessionClaims, declared: number | undefined, largest: number): Promise<{ reserved: number; giveBack(bytes: number): Promise<void> }> };
  /** Tuning of /bff/events (tests shorten it). */
  events?: { pollMs?: number; heartbeatMs?: number };
}

export function bffApp(deps: BffDeps) {
  const app = new Hono<BffEnv>();
  app.use('*', preflight);
  app.use('*', widgetSessionAuth(deps));
  app.use('*', async (c, next) => {
    await deps.limitSession?.(c.get('session').sessionId);
    await next();
  });

  app.get('/session', (c) => {
    const s = c.get('session');
    return c.json({ customerId: s.customerId, expiresAt: s.expiresAt.toISOString() });
  });

  // Live updates: one long request per session (counted once by the limit above).
  app.get('/events', eventsStream({ upstream: deps.upstream, ...deps.events }));

  // `?include=limits,balances`: the quote panel checks an amount against what the customer may still do before locking.
  app.get('/customer', async (c) => {
    const include = new Set((c.req.query('include') ?? '').split(','));
    const query = { includeTransactionLimits: include.has('limits'), includeBalances: include.has('balances') };
    return c.json(forBrowser(await deps.upstream.getCustomer(boundCustomer(c), ctx(c), query)));
  });

  app.patch('/customer/additional-information', async (c) =>
    c.json(forBrowser(await deps.upstream.updateAdditionalInformation(boundCustomer(c), await jsonBody<AdditionalInformation>(c), ctx(c)))),
  );

  app.get('/customer/documents', async (c) => c.json(await deps.upstream.listDocuments(boundCustomer(c), ctx(c))));

  app.post('/customer/documents', async (c) => {
    // Anything but multipart was already read by the body middleware, so there is nothing left to forward.
    if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Upload documents as multipart/form-data with the fields file, type, side and country.');
    }
    const customerId = boundCustomer(c);
    const declared = Number(c.req.header('content-length') ?? Number.NaN);
    // The line's budget pays for what the body declares (a body without a length: at most the largest upload), the bytes
    // are counted as they pass, and what the upload did not use, or all of it when refused, is given back.
    const largest = MAX_DOCUMENT_BYTES + MULTIPART_OVERHEAD;
    const budget = await deps.uploads?.reserve(c.get('session'), Number.isFinite(declared) && declared >= 0 ? declared : undefined, largest);
    let counted = 0;
    let overBudget = false;
    const counting = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        counted += chunk.byteLength;
        // Past what the line had left (the largest upload is bounded by the parser's own 413 instead).
        if (budget && counted > budget.reserved && budget.reserved < largest) {
          overBudget = true;
          out.error(new Error('the body is longer than the upload budget reserved for it'));
        } else out.enqueue(chunk);
      },
    });
    const upload = { body: budget ? c.req.raw.body?.pipeThrough(counting) ?? null : c.req.raw.body, contentType: c.req.header('content-type'), contentLength: c.req.header('content-length') };
    try {
      const document = await deps.upstream.uploadDocument(customerId, upload, ctx(c));
      await budget?.giveBack(Math.max(budget.reserved - counted, 0));
      return c.json(document, 201);
    } catch (err) {
      await budget?.giveBack(budget.reserved);
      if (overBudget) throw new AppError('DOCUMENT_QUOTA_EXCEEDED', 'This upload is larger than what this widget session has left of its upload budget. Ask the partner to continue.', { extra: { scope: 'session' } });
      throw err;
    }
  });

  app.get('/customer/associated-parties', async (c) => c.json(await deps.upstream.listAssociatedParties(boundCustomer(c), ctx(c))));

  app.post('/customer/associated-parties', async (c) =>
    c.json(await deps.upstream.createAssociatedParty(boundCustomer(c), await jsonBody<CreateAssociatedParty>(c), ctx(c)), 201),
  );

  // The party is looked up under the session's customer upstream: another customer's party id is a 404.
  app.patch('/customer/associated-parties/:partyId', async (c) =>
    c.json(await deps.upstream.updateAssociatedParty(boundCustomer(c), c.req.param('partyId'), await jsonBody<UpdateAssociatedParty>(c), ctx(c))),
  );

  app.delete('/customer/associated-parties/:partyId', async (c) => {
    await deps.upstream.deleteAssociatedParty(boundCustomer(c), c.req.param('partyId'), ctx(c));
    return c.body(null, 204);
  });

  app.get('/customer/verifications', async (c) => c.json(await deps.upstream.listVerifications(boundCustomer(c), ctx(c))));

  app.post('/customer/verifications', async (c) => c.json(await deps.upstream.startVerification(boundCustomer(c), ctx(c)), 201));

  // Quotes for the session's customer; a partner fee is the partner backend's business, not the browser's.
  app.post('/exchange-rates', async (c) => {
    const body = await jsonBody<BffQuoteRequest & { customerId?: unknown; partnerFeeId?: unknown }>(c);
    if (body && typeof body === 'object' && ('customerId' in body || 'partnerFeeId' in body)) {
      throw new AppError('VALIDATION_FAILED', 'The session decides the customer and the partner fee.', {
        errors: ['customerId', 'partnerFeeId'].filter((k) => k in body).map((path) => ({ path, message: 'is not accepted here', code: 'NOT_ALLOWED' as const })),
      });
    }
    return c.json(await deps.upstream.quote({ ...(body as BffQuoteRequest), customerId: boundCustomer(c) }, ctx(c)));
  });

  // An onboarding session creates at most one customer: the upstream Idempotency-Key is the session's own, so a
  // retry replays the same customer and any other body is refused. A session minted for the partner's user creates the
  // customer with the user's id; when another session of that user created it first, this one is bound to it.
  app.post('/customers', async (c) => {
    const s = c.get('session');
    if (s.customerId) throw new AppError('CONFLICT', 'This session already belongs to a customer.', { extra: { customerId: s.customerId } });
    const body = await jsonBody<CreateCustomerRequest>(c);
    // The partner's own notes on its customer and its id for the user: its backend writes them, never the browser.
    for (const path of ['metadata', 'externalUserId']) {
      if (body && typeof body === 'object' && path in body) throw invalid([{ path, message: 'is not accepted here: the partner backend sets it', code: 'NOT_ALLOWED' }]);
    }
    const blocked = await deps.conflicts?.blockedFor(s.sessionId);
    if (blocked) throw rateLimited(blocked, 'tax ids already registered, for this widget session');
    const requestId = c.get('requestId');
    let customer;
    try {
      const forUser = s.externalUserId ? { ...body, externalUserId: s.externalUserId } : body;
      customer = await deps.upstream.createCustomer(forUser, { idempotencyKey: `widget-session:${s.sessionId}:customer`, requestId });
    } catch (err) {
      if (err instanceof UpstreamProblem && err.body.code === 'IDEMPOTENCY_KEY_REUSED') {
        throw new AppError('CONFLICT', 'This onboarding session already created a customer. Ask the partner backend for a session bound to it.');
      }
      const usersOwn = s.externalUserId ? usersCustomer(err) : undefined;
      if (usersOwn) customer = await deps.upstream.getCustomer(usersOwn, { requestId });
      // A tax id already registered: said, without whose customer it is (that would make this an oracle of who is a
      // customer), and counted against the session.
      else if (isConflict(err)) {
        await deps.conflicts?.spend(s.sessionId);
        throw new AppError('CONFLICT', 'An account with this tax id already exists. Sign in through the partner instead of creating another.', {
          errors: [{ path: 'taxId', message: 'is already registered', code: 'NOT_UNIQUE' }],
        });
      } else throw err;
    }
    const remaining = Math.max(60, Math.floor((s.expiresAt.getTime() - Date.now()) / 1000));
    const session = await deps.upstream.createWidgetSession(
      { customerId: customer.id, allowedOrigins: s.allowedOrigins.length ? s.allowedOrigins : undefined, expiresIn: Math.min(remaining, 3600) },
      { requestId },
    );
    // The new session continues this one's line: the upload budget is the line's, not renewed by creating a customer.
    const token = await intoLine(deps.tokens, session.token, { lineage: s.lineage, anonymous: s.anonymous });
    return c.json({ customer: forBrowser(customer), session: { ...session, token } }, 201);
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
      if (k in body) throw new AppError('VALIDATION_FAILED', 'The session decides the customer and the partner fee.', { errors: [{ path: k, message: 'is not accepted here', code: 'NOT_ALLOWED' }] });
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
  app.route('/', transferRoutes(deps.upstream, { boundCustomer, ctx, jsonBody }));
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

/** The customer as the browser may see it: `metadata` and `externalUserId` are the partner's (its own ids, notes) and stay on its side. */
function forBrowser(customer: Customer): Omit<Customer, 'metadata' | 'externalUserId'> {
  const { metadata: _partnerOnly, externalUserId: _partnersId, ...visible } = customer;
  return visible;
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

/** The JSON object the browser sent (the body middleware has checked it parses); empty is `{}`, anything but an object a 400. */
async function jsonBody<T>(c: Context<BffEnv>): Promise<T> {
  const text = await c.req.text();
  if (!text.trim()) return {} as T;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid([{ path: '(body)', message: 'is not valid JSON', code: 'INVALID_BODY' }]);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid([{ path: '(body)', message: 'must be a JSON object', code: 'INVALID_BODY' }]);
  return body as T;
}

/** Problems from /v2 reach the browser as they are (status and body), with this request's id. */
export function upstreamProblemResponse(err: UpstreamProblem, requestId: string): Response {
  return new Response(JSON.stringify({ ...err.body, requestId }), {
    status: err.status,
    headers: { 'content-type': 'application/problem+json' },
  });
}

/** The customer a 409 says already has the session's externalUserId (created by another session of the same user). */
function usersCustomer(err: unknown): string | undefined {
  const problem = err instanceof UpstreamProblem ? err.body : err instanceof AppError ? { ...err.extra, errors: err.errors } : undefined;
  if (!isConflict(err) || !problem) return undefined;
  const onUser = Array.isArray(problem.errors) && problem.errors.some((e: { path?: unknown }) => e.path === 'externalUserId');
  return onUser && typeof problem.existingCustomerId === 'string' ? problem.existingCustomerId : undefined;
}

/** The service's 409 for a tax id that already has a customer, whether it came over HTTP or in process. */
function isConflict(err: unknown): boolean {
  if (err instanceof UpstreamProblem) return err.status === 409 && err.body.code === 'CONFLICT';
  return err instanceof AppError && err.code === 'CONFLICT';
}

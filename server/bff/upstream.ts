// The BFF's typed client of the public /v2 contract (ky): in process by default (hot reads straight to the flows, the rest
// through app.fetch), the network when RAMP_UPSTREAM_URL is set.
import ky, { type KyInstance } from 'ky';
import type { Customer, CreateCustomerRequest } from '../../src/contract/customers';
import { type Quote, type QuoteRequest, QuoteRequestSchema } from '../../src/contract/exchange-rates';
import type { BankAccount, CreateBankAccount } from '../../src/contract/bank-accounts';
import type { Pagination } from '../../src/contract/common';
import type { RampEvent } from '../../src/contract/events';
import type { OffRampRequest, OnRampRequest, Transaction, TransferRequest } from '../../src/contract/transactions';
import type { AdditionalInformation, AssociatedParty, CreateAssociatedParty, Document, UpdateAssociatedParty, Verification } from '../../src/contract/kyc';
import type { Partner } from '../../src/contract/partner';
import type { WidgetSession } from '../../src/contract/widget-sessions';
import { AppError, invalid, notFound } from '../domain/errors';
import { quote } from '../flows/quotes';
import type { ApiKeyCache } from '../http/auth';
import type { Db, Deps } from '../deps';
import { presentTransaction, readCustomer } from '../presenters';
import { issuesOf } from '../http/problem';
import { isUuid } from '../ids';
import { partnerClockOffsetMs } from '../flows/partners';
import { readTransaction } from '../flows/transactions';

/** A problem answered by /v2, carried unchanged to the browser. */
export class UpstreamProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`upstream answered ${status}`);
  }
}

/** Per call: the browser request's id (for logs on both sides) and, on writes, an Idempotency-Key scoped to the session. */
export interface Ctx {
  requestId: string;
  idempotencyKey?: string;
}

const headersOf = (ctx: Ctx): Record<string, string | undefined> => ({ 'x-request-id': ctx.requestId, 'idempotency-key': ctx.idempotencyKey });

const query = (q: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '')).toString();

export interface UpstreamOptions {
  apiKey: string;
  /** Origin of another Ramp instance; when absent, `inProcess` answers. */
  upstreamUrl?: string;
  inProcess: (request: Request) => Response | Promise<Response>;
}

export class Upstream {
  private readonly http: KyInstance;
  private ownPartner: Promise<string> | undefined;
  protected readonly apiKey: string;

  constructor(opts: UpstreamOptions) {
    this.apiKey = opts.apiKey;
    this.http = ky.create({
      prefixUrl: `${opts.upstreamUrl ?? 'http://in-process.ramp'}/v2`,
      fetch: opts.upstreamUrl ? globalThis.fetch : async (input, init) => opts.inProcess(new Request(input, init)),
      headers: { authorization: `Bearer ${opts.apiKey}` },
      retry: 0,
      timeout: 30_000,
      throwHttpErrors: false,
    });
  }

  private async call<T>(
    method: 'get' | 'post' | 'patch' | 'delete',
    path: string,
    opts: { json?: unknown; body?: ReadableStream<Uint8Array> | null; headers?: Record<string, string | undefined> } = {},
  ): Promise<T> {
    let res: Response;
    const headers = Object.fromEntries(Object.entries(opts.headers ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
    try {
      res = await this.http(path, { method, json: opts.json, body: opts.body ?? undefined, headers });
    } catch (err) {
      throw new AppError('UPSTREAM_UNAVAILABLE', `The Ramp service could not be reached (${(err as Error).name}).`);
    }
    const body = res.status === 204 ? {} : ((await res.json().catch(() => ({}))) as Record<string, unknown>);
    if (!res.ok) throw new UpstreamProblem(res.status, body);
    return body as T;
  }

  getPartner(ctx: { requestId: string }): Promise<Partner> {
    return this.call('get', 'partner', { headers: { 'x-request-id': ctx.requestId } });
  }

  /**
   * The id of the partner whose API key this client holds, asked of the upstream once and then remembered (a partner's
   * id never changes). A failed ask is not remembered, so the next request tries again.
   */
  partnerId(ctx: { requestId: string }): Promise<string> {
    this.ownPartner ??= this.getPartner(ctx).then(
      (p) => p.id,
      (err: unknown) => {
        this.ownPartner = undefined;
        throw err instanceof UpstreamProblem ? new AppError('UPSTREAM_UNAVAILABLE', `The Ramp service did not say whose API key this BFF holds (${err.status}).`) : err;
      },
    );
    return this.ownPartner;
  }

  createCustomer(body: CreateCustomerRequest, ctx: { idempotencyKey: string; requestId: string }): Promise<Customer> {
    return this.call('post', 'customers', { json: body, headers: { 'idempotency-key': ctx.idempotencyKey, 'x-request-id': ctx.requestId } });
  }

  getCustomer(id: string, ctx: { requestId: string }, query: { includeTransactionLimits?: boolean; includeBalances?: boolean } = {}): Promise<Customer> {
    const params = new URLSearchParams();
    if (query.includeTransactionLimits) params.set('includeTransactionLimits', 'true');
    if (query.includeBalances) params.set('includeBalances', 'true');
    const search = params.size ? `?${params}` : '';
    return this.call('get', `customers/${encodeURIComponent(id)}${search}`, { headers: { 'x-request-id': ctx.requestId } });
  }

  updateAdditionalInformation(customerId: string, body: AdditionalInformation, ctx: Ctx): Promise<Customer> {
    return this.call('patch', `customers/${encodeURIComponent(customerId)}/additional-information`, { json: body, headers: headersOf(ctx) });
  }

  listDocuments(customerId: string, ctx: Ctx): Promise<{ data: Document[] }> {
    return this.call('get', `customers/${encodeURIComponent(customerId)}/documents`, { headers: headersOf(ctx) });
  }

  /** Streams the browser's multipart body through unchanged (never buffered); the service enforces type and size. */
  uploadDocument(customerId: string, upload: { body: ReadableStream<Uint8Array> | null; contentType?: string; contentLength?: string }, ctx: Ctx): Promise<Document> {
    return this.call('post', `customers/${encodeURIComponent(customerId)}/documents`, {
      body: upload.body,
      headers: { ...headersOf(ctx), 'content-type': upload.contentType, 'content-length': upload.contentLength },
    });
  }

  listAssociatedParties(customerId: string, ctx: Ctx): Promise<{ data: AssociatedParty[] }> {
    return this.call('get', `customers/${encodeURIComponent(customerId)}/associated-parties`, { headers: headersOf(ctx) });
  }

  createAssociatedParty(customerId: string, body: CreateAssociatedParty, ctx: Ctx): Promise<AssociatedParty> {
    return this.call('post', `customers/${encodeURIComponent(customerId)}/associated-parties`, { json: body, headers: headersOf(ctx) });
  }

  updateAssociatedParty(customerId: string, partyId: string, body: UpdateAssociatedParty, ctx: Ctx): Promise<AssociatedParty> {
    return this.call('patch', `customers/${encodeURIComponent(customerId)}/associated-parties/${encodeURIComponent(partyId)}`, { json: body, headers: headersOf(ctx) });
  }

  deleteAssociatedParty(customerId: string, partyId: string, ctx: Ctx): Promise<void> {
    return this.call('delete', `customers/${encodeURIComponent(customerId)}/associated-parties/${encodeURIComponent(partyId)}`, { headers: headersOf(ctx) });
  }

  startVerification(customerId: string, ctx: Ctx): Promise<Verification> {
    return this.call('post', `customers/${encodeURIComponent(customerId)}/verifications`, { headers: headersOf(ctx) });
  }

  listVerifications(customerId: string, ctx: Ctx): Promise<{ data: Verification[] }> {
    return this.call('get', `customers/${encodeURIComponent(customerId)}/verifications`, { headers: headersOf(ctx) });
  }

  quote(body: QuoteRequest, ctx: Ctx): Promise<Quote> {
    return this.call('post', 'exchange-rates', { json: body, headers: headersOf(ctx) });
  }

  createOnRamp(body: OnRampRequest, ctx: Ctx): Promise<Transaction> {
    return this.call('post', 'transactions/on-ramp', { json: body, headers: headersOf(ctx) });
  }

  createOffRamp(body: OffRampRequest, ctx: Ctx): Promise<Transaction> {
    return this.call('post', 'transactions/off-ramp', { json: body, headers: headersOf(ctx) });
  }

  createTransfer(body: TransferRequest, ctx: Ctx): Promise<Transaction> {
    return this.call('post', 'transactions/transfer', { json: body, headers: headersOf(ctx) });
  }

  getTransaction(id: string, ctx: Ctx): Promise<Transaction> {
    return this.call('get', `transactions/${encodeURIComponent(id)}`, { headers: headersOf(ctx) });
  }

  /** The partner's events, newest first; one customer's with `customerId`. */
  listEvents(q: { customerId?: string; size?: string; cursor?: string }, ctx: Ctx): Promise<{ data: RampEvent[]; pagination: Pagination }> {
    return this.call('get', `events?${query(q)}`, { headers: headersOf(ctx) });
  }

  listTransactions(q: { customerId: string; size?: string; cursor?: string }, ctx: Ctx): Promise<{ data: Transaction[]; pagination: Pagination }> {
    return this.call('get', `transactions?${query(q)}`, { headers: headersOf(ctx) });
  }

  listBankAccounts(q: { customerId: string; size?: string; cursor?: string }, ctx: Ctx): Promise<{ data: BankAccount[]; pagination: Pagination }> {
    return this.call('get', `bank-accounts?${query(q)}`, { headers: headersOf(ctx) });
  }

  getBankAccount(id: string, ctx: Ctx): Promise<BankAccount> {
    return this.call('get', `bank-accounts/${encodeURIComponent(id)}`, { headers: headersOf(ctx) });
  }

  createBankAccount(body: CreateBankAccount, ctx: Ctx): Promise<BankAccount> {
    return this.call('post', 'bank-accounts', { json: body, headers: headersOf(ctx) });
  }

  deleteBankAccount(id: string, ctx: Ctx): Promise<void> {
    return this.call('delete', `bank-accounts/${encodeURIComponent(id)}`, { headers: headersOf(ctx) });
  }

  sandboxPay(id: string, ctx: Ctx): Promise<Transaction> {
    return this.call('post', `sandbox/transactions/${encodeURIComponent(id)}/pay`, { headers: headersOf(ctx) });
  }

  sandboxFund(body: { customerId: string; blockchain: string; stablecoin: string; amount: string }, ctx: Ctx): Promise<{ balance: string }> {
    return this.call('post', 'sandbox/wallets/fund', { json: body, headers: headersOf(ctx) });
  }

  sandboxAdvanceClock(seconds: number, ctx: Ctx): Promise<{ now: string }> {
    return this.call('post', 'sandbox/clock/advance', { json: { seconds }, headers: headersOf(ctx) });
  }

  createWidgetSession(
    body: { customerId?: string; allowedOrigins?: string[]; expiresIn?: number },
    ctx: { requestId: string },
  ): Promise<WidgetSession> {
    return this.call('post', 'widget-sessions', { json: body, headers: { 'x-request-id': ctx.requestId } });
  }
}

/** What the BFF needs to answer its hot reads in process: the store, the presenters' dependencies, and the /v2 key cache. */
export interface InProcessDeps {
  db: Db;
  deps: Pick<Deps, 'tokens' | 'config' | 'clock' | 'rates' | 'chains' | 'settlement'>;
  keys: ApiKeyCache;
}

/**
 * The BFF's client when it runs beside the service (no RAMP_UPSTREAM_URL): the customer read, floating quotes and the
 * transaction read call the flows directly instead of re-entering /v2 through a Request (auth, logging and routing twice).
 * The semantics are /v2's: the partner is the one the held API key names now (through /v2's own key cache, so a revoked
 * key stops here too), the request body passes the same schema with the same problems, time is the partner's clock,
 * and a resource of another partner is 404. Every write still goes through /v2 (idempotency, its one transaction).
 */
export class InProcessUpstream extends Upstream {
  constructor(
    opts: UpstreamOptions,
    private readonly local: InProcessDeps,
  ) {
    super(opts);
  }

  /** Runs `fn` as /v2 would for the held key: its partner, on its partner's clock. */
  private async asPartner<T>(fn: (partnerId: string) => Promise<T>): Promise<T> {
    const partnerId = await this.local.keys.partnerFor(this.local.db, this.apiKey);
    if (!partnerId) throw new AppError('UNAUTHENTICATED', 'The API key is not valid or was revoked.');
    const offset = this.local.deps.config.sandbox ? await partnerClockOffsetMs(this.local.db, partnerId) : 0;
    return this.local.deps.clock.within(offset, () => fn(partnerId));
  }

  override getCustomer(id: string, ctx: { requestId: string }, query: { includeTransactionLimits?: boolean; includeBalances?: boolean } = {}): Promise<Customer> {
    return this.asPartner(async (partnerId) => {
      const customer = isUuid(id) ? await readCustomer(this.local.db, this.local.deps, partnerId, id, query) : undefined;
      if (!customer) throw notFound('Customer');
      return customer;
    });
  }

  override quote(body: QuoteRequest, ctx: Ctx): Promise<Quote> {
    // A LOCKED quote is stored: a write, so through /v2 with its idempotency.
    if ((body as { type?: unknown }).type !== 'FLOATING' || ctx.idempotencyKey) return super.quote(body, ctx);
    const parsed = QuoteRequestSchema.safeParse(body);
    if (!parsed.success) throw invalid(issuesOf(parsed.error, 'json'));
    return this.asPartner((partnerId) => quote(this.local.db, this.local.deps, partnerId, parsed.data));
  }

  override getTransaction(id: string, ctx: Ctx): Promise<Transaction> {
    return this.asPartner(async (partnerId) => {
      if (!isUuid(id)) throw notFound('Transaction');
      return presentTransaction(await readTransaction(this.local.db, partnerId, id)) as Transaction;
    });
  }
}

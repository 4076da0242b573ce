// A small typed client for the widget-facing `/bff` routes: session bearer token, Idempotency-Key on writes, typed failures.
import { createHttp, HttpStatusError, HttpTimeoutError, type RequestOptions } from './http';
import type { CreateCustomerRequest } from '../contract/customers';
import type { BffCustomerCreated } from '../contract/widget-sessions';
import type { BffQuoteRequest, Quote } from '../contract/exchange-rates';
import type { Customer } from '../contract/customers';
import type { AdditionalInformation, AssociatedParty, CreateAssociatedParty, Document, UpdateAssociatedParty, Verification } from '../contract/kyc';
import { NetworkError, ProblemError } from './problem';
import type { Pagination } from '../contract/common';
import type { BankAccount, CreateBankAccount } from '../contract/bank-accounts';
import type { BffOffRampRequest, BffOnRampRequest, BffTransferRequest, Transaction } from '../contract/transactions';

export { NetworkError, ProblemError, type FieldProblem } from './problem';

export interface BffClientOptions {
  /** Absolute or page-relative URL of the BFF, e.g. `https://ramp.example/bff`. */
  apiBase: string;
  /** The widget-session token, read at each call so a component can switch sessions between calls. */
  session: () => string | undefined;
  /** Milliseconds before a call gives up with a `NetworkError('timeout')`. */
  timeout?: number;
  /** How often a call that got no answer (or a 502/503/504/429) is repeated; writes carry an Idempotency-Key, so this is safe. */
  retries?: number;
  fetch?: typeof globalThis.fetch;
  /**
   * Called when the server answers 401 (the session expired or was revoked): resolve true once `session()` returns a
   * fresh token, and the request is sent once more with it; false (or no hook) makes the call fail with UNAUTHENTICATED.
   * `refused` is the token the refused request carried: when it is no longer the session, renewal already happened.
   */
  renewSession?: (refused: string | undefined) => Promise<boolean>;
}

export interface WriteOptions {
  /** Same key for every retry of the same request; see `IdempotencyKeys`. */
  idempotencyKey: string;
  signal?: AbortSignal;
}

export interface ReadOptions {
  signal?: AbortSignal;
}

/** One page of a list, newest first, with the cursors of the pages around it. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/** `size` 1–100; `cursor` is a `nextCursor` or `previousCursor` from an earlier page. */
export interface PageQuery {
  size?: number;
  cursor?: string | undefined;
}

/** What the browser sends to /bff/bank-accounts: the session decides the customer. */
export type BffCreateBankAccount = Omit<CreateBankAccount, 'customerId'>;

export interface BffClient {
  createCustomer(body: CreateCustomerRequest, options: WriteOptions): Promise<BffCustomerCreated>;
  /**
   * A quote for the session's customer: FLOATING (indicative, not stored) or LOCKED (stored, single use until `expiresAt`).
   * Give a lock an Idempotency-Key, so a retried lock leaves one quote; a floating quote needs none.
   */
  createQuote(body: BffQuoteRequest, options?: Partial<WriteOptions>): Promise<Quote>;
  // KYC / KYB of the session's customer (also the hosted verification page's API, with its link token as the session).
  /** Which customer the session is bound to (`null`: an onboarding session that has not created one yet). */
  getSession(options?: ReadOptions): Promise<{ customerId: string | null; expiresAt: string }>;
  /** `include`: `limits` adds `transactionLimits`, `balances` adds each wallet's `balances`. */
  getCustomer(options?: ReadOptions & { include?: readonly ('limits' | 'balances')[] }): Promise<Customer>;
  updateAdditionalInformation(body: AdditionalInformation, options: WriteOptions): Promise<Customer>;
  listDocuments(options?: ReadOptions): Promise<{ data: Document[] }>;
  listAssociatedParties(options?: ReadOptions): Promise<{ data: AssociatedParty[] }>;
  createAssociatedParty(body: CreateAssociatedParty, options: WriteOptions): Promise<AssociatedParty>;
  /** A correction while verification has not started (409 INVALID_STATE afterwards). */
  updateAssociatedParty(id: string, body: UpdateAssociatedParty, options?: ReadOptions): Promise<AssociatedParty>;
  deleteAssociatedParty(id: string, options?: ReadOptions): Promise<void>;
  startVerification(options: WriteOptions): Promise<Verification>;
  listVerifications(options?: ReadOptions): Promise<{ data: Verification[] }>;
  /** Sandbox only, hosted page: completes liveness as a real selfie would. */
  simulateLiveness(options: WriteOptions): Promise<Customer>;
  // Money of the session's customer: transactions (on-ramp by PIX, off-ramp to a bank account) and payout bank accounts.
  /** 201 with `state.status = AWAITING_FUNDS` and, for PIX, `state.payment = {rail, brCode, expiresAt}`. */
  createOnRamp(body: BffOnRampRequest, options: WriteOptions): Promise<Transaction>;
  /** 201 with `state.status = TRANSFERRING_STABLECOIN`: the stablecoin leaves the customer's wallet at once. */
  createOffRamp(body: BffOffRampRequest, options: WriteOptions): Promise<Transaction>;
  /** 201 with `state.status = TRANSFERRING_STABLECOIN`: a withdrawal from the session customer's wallet to an outside address. */
  createTransfer(body: BffTransferRequest, options: WriteOptions): Promise<Transaction>;
  getTransaction(id: string, options?: ReadOptions): Promise<Transaction>;
  listTransactions(query?: PageQuery, options?: ReadOptions): Promise<Page<Transaction>>;
  listBankAccounts(query?: PageQuery, options?: ReadOptions): Promise<Page<BankAccount>>;
  createBankAccount(body: BffCreateBankAccount, options: WriteOptions): Promise<BankAccount>;
  deleteBankAccount(id: string, options?: ReadOptions): Promise<void>;
  /** Sandbox only: pays an AWAITING_FUNDS PIX on-ramp as the payer's bank would. */
  simulatePayment(transactionId: string, options: WriteOptions): Promise<Transaction>;
}

export function createBffClient(options: BffClientOptions): BffClient {
  const request = createHttp({
    prefixUrl: options.apiBase,
    timeout: options.timeout ?? 15_000,
    retries: options.retries ?? 2,
    backoffLimit: 3_000,
    headers: () => {
      const token = options.session();
      return { accept: 'application/json, application/problem+json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    },
    onUnauthorized: options.renewSession && ((authorization) => options.renewSession!(authorization?.replace(/^Bearer /, ''))),
    fetch: options.fetch,
  });
  const http = {
    get: (path: string, init?: RequestOptions) => call(() => request('GET', path, init)),
    post: (path: string, init?: RequestOptions) => call(() => request('POST', path, init)),
    patch: (path: string, init?: RequestOptions) => call(() => request('PATCH', path, init)),
    delete: (path: string, init?: RequestOptions) => call(() => request('DELETE', path, init)),
  };
  const party = (id: string) => `customer/associated-parties/${encodeURIComponent(id)}`;
  /** The body read inside `call` too: a connection dropped mid-body is a NetworkError like any other. */
  const json = <T>(response: Promise<Response>) => call(() => response.then((r) => r.json() as Promise<T>));

  return {
    createCustomer: (body, { idempotencyKey, signal }) =>
      json<BffCustomerCreated>(http.post('customers', { json: body, headers: { 'idempotency-key': idempotencyKey }, signal })),
    createQuote: (body, { idempotencyKey, signal } = {}) =>
      json<Quote>(http.post('exchange-rates', { json: body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}, signal })),
    getSession: ({ signal } = {}) => json<{ customerId: string | null; expiresAt: string }>(http.get('session', { signal })),
    getCustomer: ({ signal, include } = {}) => json<Customer>(http.get(include ? `customer?include=${include}` : 'customer', { signal })),
    updateAdditionalInformation: (body, { idempotencyKey, signal }) =>
      json<Customer>(http.patch('customer/additional-information', { json: body, headers: { 'idempotency-key': idempotencyKey }, signal })),
    listDocuments: ({ signal } = {}) => json<{ data: Document[] }>(http.get('customer/documents', { signal })),
    listAssociatedParties: ({ signal } = {}) => json<{ data: AssociatedParty[] }>(http.get('customer/associated-parties', { signal })),
    updateAssociatedParty: (id, body, { signal } = {}) => json<AssociatedParty>(http.patch(party(id), { json: body, signal })),
    deleteAssociatedParty: (id, { signal } = {}) => http.delete(party(id), { signal }).then(() => undefined),
    createAssociatedParty: (body, { idempotencyKey, signal }) =>
      json<AssociatedParty>(http.post('customer/associated-parties', { json: body, headers: { 'idempotency-key': idempotencyKey }, signal })),
    startVerification: ({ idempotencyKey, signal }) =>
      json<Verification>(http.post('customer/verifications', { headers: { 'idempotency-key': idempotencyKey }, signal })),
    listVerifications: ({ signal } = {}) => json<{ data: Verification[] }>(http.get('customer/verifications', { signal })),
    simulateLiveness: ({ idempotencyKey, signal }) =>
      json<Customer>(http.post('customer/liveness/simulate', { headers: { 'idempotency-key': idempotencyKey }, signal })),
    createOnRamp: (body, { idempotencyKey, signal }) =>
      json<Transaction>(http.post('transactions/on-ramp', { json: body, headers: { 'idempotency-key': idempotencyKey }, signal })),
    createOffRamp: (body, { idempotencyKey, signal }) =>
      json<Transaction>(http.post('transactions/off-ramp', { json: body, headers: { 'idempotency-key': idempotencyKey }, signal })),
    createTransfer: (body, { idempotencyKey, signal }) =>
      json<Transaction>(http.post('transactions/transfer', { json: body, headers: { 'idempotency-key': idempotencyKey }, signal })),
    getTransaction: (id, { signal } = {}) => json<Transaction>(http.get(`transactions/${encodeURIComponent(id)}`, { signal })),
    listTransactions: (query = {}, { signal } = {}) =>
      json<Page<Transaction>>(http.get('transactions', { searchParams: pageParams(query), signal })),
    listBankAccounts: (query = {}, { signal } = {}) =>
      json<Page<BankAccount>>(http.get('bank-accounts', { searchParams: pageParams(query), signal })),
    createBankAccount: (body, { idempotencyKey, signal }) =>
      json<BankAccount>(http.post('bank-accounts', { json: body, headers: { 'idempotency-key': idempotencyKey }, signal })),
    deleteBankAccount: (id, { signal } = {}) =>
      http.delete(`bank-accounts/${encodeURIComponent(id)}`, { signal }).then(() => undefined),
    simulatePayment: (transactionId, { idempotencyKey, signal }) =>
      json<Transaction>(http.post(`sandbox/transactions/${encodeURIComponent(transactionId)}/pay`, { headers: { 'idempotency-key': idempotencyKey }, signal })),
  };
}

/** Only the parameters given: an absent cursor must not travel as `cursor=undefined`. */
function pageParams(query: PageQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.size !== undefined) params.set('size', String(query.size));
  if (query.cursor) params.set('cursor', query.cursor);
  return params;
}

/** Runs a request and turns its failures into `ProblemError` / `NetworkError`; an abort stays an `AbortError`. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpStatusError) throw new ProblemError(error.response.status, await readBody(error.response), error.response.statusText);
    if (error instanceof HttpTimeoutError) throw new NetworkError('timeout', error);
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    if (error instanceof TypeError) throw new NetworkError('unreachable', error);
    throw error;
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (!/\bjson\b/i.test(response.headers.get('content-type') ?? '')) return undefined;
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

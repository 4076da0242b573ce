// msw scenarios for the /bff routes (success, problem, conflict, session, network, slow): the component tests use them, the demo can too.
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { Problem } from '../../../src/contract/common';
import type { FieldErrorCode } from '../../../src/contract/field-codes';
import type { CreateCustomerRequest, Customer } from '../../../src/contract/customers';
import type { BffCustomerCreated } from '../../../src/contract/widget-sessions';
import type { BffQuoteRequest, Quote } from '../../../src/contract/exchange-rates';
import { AppError } from '../../../server/domain/errors';
import { defaultFeeSchedule, type FeeSchedule, timeLockSeconds } from '../../../server/domain/fee-schedule';
import { type PricedQuote, priceQuote, validatePair } from '../../../server/domain/pricing';

export const mockIds = {
  customer: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d',
  existingCustomer: '01936f2a-0000-7000-8000-00000000e815',
} as const;

/** What a request looked like when it reached the mock, for tests to assert on (headers lower-cased). */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export class RequestLog {
  readonly entries: RecordedRequest[] = [];

  async record(request: Request): Promise<void> {
    const text = await request.clone().text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    this.entries.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body });
  }

  get last(): RecordedRequest | undefined {
    return this.entries.at(-1);
  }
}

export interface ScenarioOptions {
  /** URL pattern of the BFF; default any origin's `/bff`. */
  base?: string;
  /** Where to record what arrived. */
  log?: RequestLog;
  /** Wait this long before answering (the "slow" network). */
  delayMs?: number;
}

const customersUrl = (o: ScenarioOptions) => `${o.base ?? '*/bff'}/customers`;

/** A customer as the API would answer for this request body. */
export function fakeCustomer(body: CreateCustomerRequest, id: string = mockIds.customer, now = new Date()): Customer {
  const at = now.toISOString();
  const person = body.type === 'INDIVIDUAL' ? { name: body.name, birthDate: body.birthDate } : { legalName: body.legalName, incorporationDate: body.incorporationDate };
  return {
    id,
    type: body.type,
    ...person,
    taxId: body.taxId.toUpperCase().replace(/[^0-9A-Z]/g, ''),
    // As the server: an individual without a country was checked as Brazilian, and is recorded so.
    ...(body.country ? { country: body.country } : body.type === 'INDIVIDUAL' ? { country: 'BRA' } : {}),
    ...(body.email ? { email: body.email } : {}),
    metadata: {},
    wallets: [],
    verification: { status: 'NOT_STARTED', level: 'STANDARD', link: `https://ramp.example/verify/${id}` },
    requirements: [{ name: 'ADDITIONAL_INFORMATION', status: 'NOT_SENT' }],
    createdAt: at,
    updatedAt: at,
  };
}

/** An `errors[]` entry as a scenario writes it: the code may be left out (or be one the client does not know); the pointer follows the path. */
export interface MockFieldError {
  path: string;
  message: string;
  code?: string;
  pointer?: string;
}

export function problemResponse(
  status: number,
  code: string,
  detail: string,
  { errors, ...extra }: Omit<Partial<Problem>, 'errors'> & { errors?: MockFieldError[] } & Record<string, unknown> = {},
): Response {
  const body = {
    type: `https://docs.ramp.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title: code.charAt(0) + code.slice(1).toLowerCase().replace(/_/g, ' '),
    status,
    detail,
    code,
    requestId: 'req_mock',
    ...extra,
    ...(errors ? { errors: errors.map((e) => ({ pointer: e.path === '(body)' ? '' : `/${e.path.split('.').join('/')}`, ...e })) } : {}),
  };
  return HttpResponse.json(body, { status, headers: { 'content-type': 'application/problem+json' } });
}

async function arrive(request: Request, o: ScenarioOptions): Promise<void> {
  await o.log?.record(request);
  if (o.delayMs) await delay(o.delayMs);
}

/** 201 with the customer and a session bound to it; the same Idempotency-Key replays the first answer, as the server does. */
export function createCustomerSucceeds(o: ScenarioOptions = {}): HttpHandler {
  const answered = new Map<string, BffCustomerCreated>();
  return http.post(customersUrl(o), async ({ request }) => {
    await arrive(request, o);
    const key = request.headers.get('idempotency-key') ?? '';
    const replay = answered.get(key);
    if (replay) return HttpResponse.json(replay, { status: 201, headers: { 'idempotency-replayed': 'true' } });
    const body = (await request.json()) as CreateCustomerRequest;
    const customer = fakeCustomer(body);
    const created: BffCustomerCreated = {
      customer,
      session: { token: `mock-bound-session.${customer.id}`, expiresAt: new Date(Date.now() + 900_000).toISOString(), customerId: customer.id },
    };
    if (key) answered.set(key, created);
    return HttpResponse.json(created, { status: 201 });
  });
}

/** 400 VALIDATION_FAILED naming fields, worded like the server's rules (`fieldErrorMessages`). */
export function createCustomerInvalid(errors: MockFieldError[] = [{ path: 'taxId', message: 'is not a valid CPF (11 digits with valid check digits)' }], o: ScenarioOptions = {}): HttpHandler {
  return http.post(customersUrl(o), async ({ request }) => {
    await arrive(request, o);
    return problemResponse(400, 'VALIDATION_FAILED', (errors ?? []).map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
  });
}

/** 409 CONFLICT: the partner already has a customer with this tax id (the BFF never says whose). */
export function createCustomerDuplicate(o: ScenarioOptions = {}): HttpHandler {
  return http.post(customersUrl(o), async ({ request }) => {
    await arrive(request, o);
    return problemResponse(409, 'CONFLICT', 'An account with this tax id already exists. Sign in through the partner instead of creating another.', {
      errors: [{ path: 'taxId', message: 'is already registered' }],
    });
  });
}

/** 401 / 403 / 404 with the server's codes. */
export function createCustomerRefused(status: 401 | 403 | 404, o: ScenarioOptions = {}): HttpHandler {
  const code = { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[status];
  return http.post(customersUrl(o), async ({ request }) => {
    await arrive(request, o);
    return problemResponse(status, code, 'The widget session is missing, invalid or expired.');
  });
}

/** No answer at all (offline, DNS, CORS): the first `times` requests fail, later ones fall through to the next handler. */
export function networkFails(times = Number.POSITIVE_INFINITY, o: ScenarioOptions = {}): HttpHandler {
  let failed = 0;
  return http.post(customersUrl(o), async ({ request }) => {
    if (failed >= times) return undefined;
    failed++;
    await arrive(request, o);
    return HttpResponse.error();
  });
}

/** The scenarios by name, each a list of handlers for `worker.use(...)`. */
export const bffScenarios = {
  success: (o: ScenarioOptions = {}) => [createCustomerSucceeds(o)],
  slow: (o: ScenarioOptions = {}) => [createCustomerSucceeds({ delayMs: 800, ...o })],
  problem: (o: ScenarioOptions = {}) => [createCustomerInvalid(undefined, o)],
  conflict: (o: ScenarioOptions = {}) => [createCustomerDuplicate(o)],
  expiredSession: (o: ScenarioOptions = {}) => [createCustomerRefused(401, o)],
  offline: (o: ScenarioOptions = {}) => [networkFails(Number.POSITIVE_INFINITY, o)],
  /** Offline for the first `times` requests, then the success scenario: for retries. */
  flaky: (times: number, o: ScenarioOptions = {}) => [networkFails(times, o), createCustomerSucceeds(o)],
} satisfies Record<string, (...args: never[]) => HttpHandler[]>;

// ── quotes: POST /bff/exchange-rates ──

/** Terms the quote mocks price with, shaped like the server's defaults (fee schedule, lock premiums, default chain). */
export interface QuoteTerms {
  /** Target per source for each `SOURCE>TARGET` pair, 8 decimals at most. */
  rates: Record<string, string>;
  /** Service fee by direction (`onRamp` fiat → stablecoin, `offRamp` the reverse) and rail: basis points and a flat amount in the target currency. */
  service: Record<'onRamp' | 'offRamp', Partial<Record<Quote['rail'], { rate: string; flatAmount: string }>>>;
  /** The partner fee on every quote (the session's partner fee); zero when absent. */
  partner: { rate: string; flatAmount: string };
  /** Extra service basis points by lock window. */
  lockPremiumBps: Record<'30s' | '1m' | '5m', string>;
  /** The chain a quote uses when the request names none. */
  defaultBlockchain: Quote['blockchain'];
}

export const defaultQuoteTerms: QuoteTerms = {
  rates: {
    'BRL>USDC': '0.2', 'BRL>USDT': '0.2', 'USDC>BRL': '5', 'USDT>BRL': '5',
    'EUR>USDC': '1.08', 'EUR>USDT': '1.08', 'USDC>EUR': '0.92', 'USDT>EUR': '0.92',
    'USD>USDC': '1', 'USD>USDT': '1', 'USDC>USD': '0.999', 'USDT>USD': '0.999',
  },
  service: {
    onRamp: { PIX: { rate: '50', flatAmount: '0' }, SEPA: { rate: '50', flatAmount: '0' }, SWIFT: { rate: '60', flatAmount: '10' } },
    offRamp: { PIX: { rate: '60', flatAmount: '0.50' }, SEPA: { rate: '60', flatAmount: '0.50' }, SWIFT: { rate: '80', flatAmount: '20' } },
  },
  partner: { rate: '25', flatAmount: '0' },
  lockPremiumBps: { '30s': '0', '1m': '10', '5m': '30' },
  defaultBlockchain: 'ETHEREUM',
};

export interface QuoteScenarioOptions extends ScenarioOptions {
  terms?: Partial<QuoteTerms>;
  /** The server's clock, for `createdAt` / `expiresAt`. */
  now?: () => Date;
  /** Answer only this quote type and let the other fall through to the next handler. */
  only?: 'FLOATING' | 'LOCKED';
}

const exchangeRatesUrl = (o: ScenarioOptions) => `${o.base ?? '*/bff'}/exchange-rates`;
let lockedQuoteCount = 0;

/** Ids of the locked quotes the mocks hand out, in order: `mockLockedQuoteId(1)` is the first. */
export const mockLockedQuoteId = (n: number) => `01936f2a-7c1e-7aa8-9d4b-${n.toString(16).padStart(12, '0')}`;

/**
 * Prices a quote request with the server's own pricing (server/domain/pricing.ts), on the mock terms: the figures,
 * the rounding and the problems (with their `errors[].code`) are the server's. Returns the quote, or the problem.
 */
export function priceMockQuote(body: BffQuoteRequest, terms: QuoteTerms = defaultQuoteTerms, now = new Date()): Quote | Response {
  const { sourceCurrency: source, targetCurrency: target, rail } = body;
  const schedule: FeeSchedule = {
    service: {
      onRamp: { ...defaultFeeSchedule.service.onRamp, ...terms.service.onRamp },
      offRamp: { ...defaultFeeSchedule.service.offRamp, ...terms.service.offRamp },
    },
    lockPremiumBps: { '1m': terms.lockPremiumBps['1m'], '5m': terms.lockPremiumBps['5m'] },
  };
  const lock = body.type === 'LOCKED' ? (body.timeLock ?? '30s') : '30s';
  const amount = body.type === 'LOCKED' && body.targetAmount !== undefined ? { targetAmount: body.targetAmount } : { sourceAmount: body.sourceAmount };
  let priced: PricedQuote;
  try {
    const rate = terms.rates[`${source}>${target}`];
    // The pair rules first (a 400 or 422 as the server says it); a supported pair the terms give no rate for is a 422 too.
    validatePair(source, target, rail);
    if (!rate) throw new AppError('UNSUPPORTED_PAIR', `${source} → ${target} over ${rail} is not supported`, { errors: [{ path: 'targetCurrency', message: 'not supported', code: 'NOT_ALLOWED' }] });
    priced = priceQuote({ sourceCurrency: source, targetCurrency: target, rail, ...amount, timeLock: lock, partnerFee: terms.partner, rate, schedule });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const status = error.code === 'UNSUPPORTED_PAIR' ? 422 : 400;
    return problemResponse(status, error.code, error.detail, { ...(error.errors ? { errors: error.errors } : {}), ...error.extra });
  }
  const quote: Quote = {
    type: body.type,
    customerId: mockIds.customer,
    rail,
    blockchain: body.blockchain ?? terms.defaultBlockchain,
    sourceCurrency: source,
    sourceAmount: priced.sourceAmount,
    targetCurrency: target,
    baseTargetAmount: priced.baseTargetAmount,
    baseExchangeRate: priced.baseExchangeRate,
    fees: priced.fees,
    finalTargetAmount: priced.finalTargetAmount,
    finalExchangeRate: priced.finalExchangeRate,
    createdAt: now.toISOString(),
  };
  if (body.type === 'LOCKED') {
    quote.id = mockLockedQuoteId(++lockedQuoteCount);
    quote.timeLock = lock;
    quote.expiresAt = new Date(now.getTime() + timeLockSeconds(lock) * 1000).toISOString();
    quote.partnerFeeId = null;
  }
  return quote;
}

/** 200 with a priced quote, FLOATING and LOCKED (or only `o.only`); a LOCKED retry with the same Idempotency-Key replays the first answer. */
export function quoteSucceeds(o: QuoteScenarioOptions = {}): HttpHandler {
  const terms = { ...defaultQuoteTerms, ...o.terms };
  const answered = new Map<string, Quote>();
  return http.post(exchangeRatesUrl(o), async ({ request }) => {
    const body = (await request.clone().json()) as BffQuoteRequest;
    if (o.only && body.type !== o.only) return undefined;
    await arrive(request, o);
    const key = request.headers.get('idempotency-key') ?? '';
    const replay = body.type === 'LOCKED' ? answered.get(key) : undefined;
    if (replay) return HttpResponse.json(replay, { headers: { 'idempotency-replayed': 'true' } });
    const priced = priceMockQuote(body, terms, o.now?.() ?? new Date());
    if (priced instanceof Response) return priced;
    if (key && body.type === 'LOCKED') answered.set(key, priced);
    return HttpResponse.json(priced);
  });
}

/** 400 VALIDATION_FAILED on an amount; by default "too small to cover fees" with `minimumSourceAmount`, as the server words it. */
export function quoteAmountInvalid(
  error: { path: 'sourceAmount' | 'targetAmount'; message: string; code?: FieldErrorCode; minimumSourceAmount?: string } = {
    path: 'sourceAmount',
    message: 'amount too small to cover fees: the smallest BRL amount that delivers any USDC is 0.02',
    code: 'BELOW_MINIMUM',
    minimumSourceAmount: '0.02',
  },
  o: QuoteScenarioOptions = {},
): HttpHandler {
  return http.post(exchangeRatesUrl(o), async ({ request }) => {
    const body = (await request.clone().json()) as BffQuoteRequest;
    if (o.only && body.type !== o.only) return undefined;
    await arrive(request, o);
    const { minimumSourceAmount, ...fieldError } = error;
    return problemResponse(400, 'VALIDATION_FAILED', `${error.path}: ${error.message}`, {
      errors: [fieldError],
      ...(minimumSourceAmount ? { minimumSourceAmount } : {}),
    });
  });
}

/** 422 UNSUPPORTED_PAIR, e.g. a chain that does not carry the stablecoin. */
export function quotePairUnsupported(o: QuoteScenarioOptions = {}): HttpHandler {
  return http.post(exchangeRatesUrl(o), async ({ request }) => {
    await arrive(request, o);
    return problemResponse(422, 'UNSUPPORTED_PAIR', 'USDT is not offered on BASE', { errors: [{ path: 'blockchain', message: 'USDT is not offered on BASE' }] });
  });
}

/** 401 / 403 with the server's codes. */
export function quoteRefused(status: 401 | 403, o: QuoteScenarioOptions = {}): HttpHandler {
  const code = status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN';
  return http.post(exchangeRatesUrl(o), async ({ request }) => {
    await arrive(request, o);
    return problemResponse(status, code, 'The widget session is missing, invalid or expired.');
  });
}

/** No answer at all for the first `times` quote requests; later ones fall through to the next handler. */
export function quoteNetworkFails(times = Number.POSITIVE_INFINITY, o: QuoteScenarioOptions = {}): HttpHandler {
  let failed = 0;
  return http.post(exchangeRatesUrl(o), async ({ request }) => {
    const body = (await request.clone().json()) as BffQuoteRequest;
    if (failed >= times || (o.only && body.type !== o.only)) return undefined;
    failed++;
    await arrive(request, o);
    return HttpResponse.error();
  });
}

/** The quote scenarios by name, each a list of handlers for `worker.use(...)`. */
export const quoteScenarios = {
  /** Floating and locked quotes priced from `defaultQuoteTerms`. */
  success: (o: QuoteScenarioOptions = {}) => [quoteSucceeds(o)],
  floating: (o: QuoteScenarioOptions = {}) => [quoteSucceeds({ ...o, only: 'FLOATING' })],
  locked: (o: QuoteScenarioOptions = {}) => [quoteSucceeds({ ...o, only: 'LOCKED' })],
  /** Every answer after `delayMs` (default 800 ms): for pending states and out-of-order answers. */
  slow: (o: QuoteScenarioOptions = {}) => [quoteSucceeds({ delayMs: 800, ...o })],
  amountTooSmall: (o: QuoteScenarioOptions = {}) => [quoteAmountInvalid(undefined, o)],
  unsupportedPair: (o: QuoteScenarioOptions = {}) => [quotePairUnsupported(o)],
  expiredSession: (o: QuoteScenarioOptions = {}) => [quoteRefused(401, o)],
  offline: (o: QuoteScenarioOptions = {}) => [quoteNetworkFails(Number.POSITIVE_INFINITY, o)],
} satisfies Record<string, (...args: never[]) => HttpHandler[]>;

// ── KYC / KYB: a stateful fake of the customer's verification routes (kyc-scenarios.ts), here so every scenario has one entry point ──
export * from './kyc-scenarios';
// ── Money: a stateful fake of transactions, bank accounts and the sandbox pay route (money-scenarios.ts) ──
export * from './money-scenarios';

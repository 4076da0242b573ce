// msw scenarios for the /bff routes (success, problem, conflict, session, network, slow): the component tests use them, the demo can too.
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { Problem } from '../contract/common';
import type { CreateCustomerRequest, Customer } from '../contract/customers';
import type { BffCustomerCreated } from '../contract/widget-sessions';

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
    ...(body.country ? { country: body.country } : {}),
    ...(body.email ? { email: body.email } : {}),
    metadata: {},
    wallets: [],
    verification: { status: 'NOT_STARTED', level: 'STANDARD', link: `https://ramp.example/verify/${id}` },
    requirements: [{ name: 'ADDITIONAL_INFORMATION', status: 'NOT_SENT' }],
    createdAt: at,
    updatedAt: at,
  };
}

export function problemResponse(status: number, code: string, detail: string, extra: Partial<Problem> & Record<string, unknown> = {}): Response {
  const body: Problem = {
    type: `https://docs.ramp.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title: code.charAt(0) + code.slice(1).toLowerCase().replace(/_/g, ' '),
    status,
    detail,
    code,
    requestId: 'req_mock',
    ...extra,
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
export function createCustomerInvalid(errors: Problem['errors'] = [{ path: 'taxId', message: 'is not a valid CPF (11 digits with valid check digits)' }], o: ScenarioOptions = {}): HttpHandler {
  return http.post(customersUrl(o), async ({ request }) => {
    await arrive(request, o);
    return problemResponse(400, 'VALIDATION_FAILED', (errors ?? []).map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
  });
}

/** 409 CONFLICT: the partner already has a customer with this tax id. */
export function createCustomerDuplicate(o: ScenarioOptions = {}): HttpHandler {
  return http.post(customersUrl(o), async ({ request }) => {
    await arrive(request, o);
    return problemResponse(409, 'CONFLICT', `A customer with this taxId already exists: ${mockIds.existingCustomer}.`, {
      errors: [{ path: 'taxId', message: `already belongs to customer ${mockIds.existingCustomer}` }],
      existingCustomerId: mockIds.existingCustomer,
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

// A small typed client for the widget-facing `/bff` routes: session bearer token, Idempotency-Key on writes, typed failures.
import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import type { CreateCustomerRequest } from '../contract/customers';
import type { BffCustomerCreated } from '../contract/widget-sessions';
import { NetworkError, ProblemError } from './problem';

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
}

export interface WriteOptions {
  /** Same key for every retry of the same request; see `IdempotencyKeys`. */
  idempotencyKey: string;
  signal?: AbortSignal;
}

export interface BffClient {
  createCustomer(body: CreateCustomerRequest, options: WriteOptions): Promise<BffCustomerCreated>;
}

export function createBffClient(options: BffClientOptions): BffClient {
  const http: KyInstance = ky.create({
    prefixUrl: options.apiBase,
    timeout: options.timeout ?? 15_000,
    retry: {
      limit: options.retries ?? 2,
      methods: ['get', 'post', 'put', 'patch', 'delete'],
      statusCodes: [408, 429, 502, 503, 504],
      backoffLimit: 3_000,
    },
    headers: { accept: 'application/json, application/problem+json' },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    hooks: {
      beforeRequest: [
        (request) => {
          const token = options.session();
          if (token) request.headers.set('authorization', `Bearer ${token}`);
        },
      ],
    },
  });

  return {
    createCustomer: (body, { idempotencyKey, signal }) =>
      call(() => http.post('customers', { json: body, headers: { 'idempotency-key': idempotencyKey }, signal }).json<BffCustomerCreated>()),
  };
}

/** Runs a ky call and turns its failures into `ProblemError` / `NetworkError`; an abort stays an `AbortError`. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HTTPError) throw new ProblemError(error.response.status, await readBody(error.response), error.response.statusText);
    if (error instanceof TimeoutError) throw new NetworkError('timeout', error);
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

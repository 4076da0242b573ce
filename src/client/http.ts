// The BFF client's HTTP, on ky: a base URL, a timeout per attempt, retries with backoff for lost answers and
// 408/429/502/503/504 (writes carry an Idempotency-Key, so repeating them is safe; a `Retry-After` is honoured up to the
// backoff limit), and one replay after a 401 once the session was renewed.
import ky, { HTTPError, type KyInstance, TimeoutError } from 'ky';

/** The server answered with a status outside 2xx (after retries): ky's error, whose `response` is the answer. */
export { HTTPError as HttpStatusError, TimeoutError as HttpTimeoutError };

export interface HttpOptions {
  /** Where relative paths resolve: `https://ramp.example/bff` (a trailing slash is added). */
  prefixUrl: string;
  /** Milliseconds one attempt may take. */
  timeout: number;
  /** Extra attempts after a lost answer or a retryable status. */
  retries: number;
  /** Longest wait between attempts, in milliseconds. */
  backoffLimit: number;
  /** Headers computed per attempt (the session token may change between attempts). */
  headers: () => Record<string, string>;
  /**
   * Called on a 401 with the Authorization header the refused attempt carried: resolves true when the session was
   * renewed (maybe already, by another request) and the request may be sent once more.
   */
  onUnauthorized?: ((refusedAuthorization: string | undefined) => Promise<boolean>) | undefined;
  fetch?: typeof globalThis.fetch | undefined;
}

export interface RequestOptions {
  json?: unknown;
  headers?: Record<string, string>;
  searchParams?: URLSearchParams;
  signal?: AbortSignal | undefined;
}

const RETRY_STATUSES = [408, 429, 502, 503, 504];

export function createHttp(options: HttpOptions): (method: string, path: string, init?: RequestOptions) => Promise<Response> {
  const base = options.prefixUrl.endsWith('/') ? options.prefixUrl : `${options.prefixUrl}/`;
  const retry = {
    // The replay after a renewal is a forced retry and counts against ky's limit: one more, and `shouldRetry` (per
    // call, below) keeps lost answers and retryable statuses to `retries`.
    limit: options.retries + (options.onUnauthorized ? 1 : 0),
    methods: ['get', 'post', 'patch', 'put', 'delete'],
    statusCodes: RETRY_STATUSES,
    afterStatusCodes: RETRY_STATUSES,
    maxRetryAfter: options.backoffLimit,
    backoffLimit: options.backoffLimit,
    retryOnTimeout: true,
  };
  const api: KyInstance = ky.create({
    timeout: options.timeout,
    retry,
    hooks: {
      // Per attempt: a retry after a renewal carries the new session.
      beforeRequest: [
        (request) => {
          for (const [name, value] of Object.entries(options.headers())) request.headers.set(name, value);
        },
      ],
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  return (method, path, init = {}) => {
    // A page-relative base (`/bff`) resolves against the page, as fetch would.
    const url = new URL(path, new URL(base, globalThis.document?.baseURI ?? globalThis.location?.href));
    // One renewal per call: a second 401 is an answer, not another renewal.
    let renewed = false;
    const onUnauthorized = options.onUnauthorized;
    return api(url, {
      retry: { ...retry, shouldRetry: ({ retryCount }) => (retryCount - (renewed ? 1 : 0) > options.retries ? false : undefined) },
      hooks: {
        afterResponse: [
          async (request, _options, response) => {
            if (response.status !== 401 || renewed || !onUnauthorized) return response;
            renewed = true;
            // The replay goes through beforeRequest again, which sets the renewed session's header.
            return (await onUnauthorized(request.headers.get('authorization') ?? undefined)) ? ky.retry({ delay: 0 }) : response;
          },
        ],
      },
      method,
      ...(init.json !== undefined ? { json: init.json } : {}),
      ...(init.headers ? { headers: init.headers } : {}),
      ...(init.searchParams ? { searchParams: init.searchParams } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  };
}

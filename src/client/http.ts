// The few things the BFF client needs from HTTP, on plain fetch: a base URL, a timeout per attempt, retries with backoff
// for lost answers and 408/429/502/503/504 (writes carry an Idempotency-Key, so repeating them is safe), and one replay
// after a 401 once the session was renewed. (ky did this for 4 kB gzip more than the whole first onboarding step allowed.)

/** The server answered with a status outside 2xx (after retries). */
export class HttpStatusError extends Error {
  override name = 'HttpStatusError';
  constructor(readonly response: Response) {
    super(`${response.status} ${response.statusText}`);
  }
}

/** No answer within the timeout. */
export class HttpTimeoutError extends Error {
  override name = 'HttpTimeoutError';
}

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

const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** ky's schedule: 0.3 s, 0.6 s, 1.2 s…, capped; a `Retry-After` in seconds wins when the server sends one. */
function delayFor(attempt: number, limit: number, response?: Response): number {
  const retryAfter = Number(response?.headers.get('retry-after'));
  const ms = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 300 * 2 ** (attempt - 1);
  return Math.min(ms, limit);
}

export function createHttp(options: HttpOptions) {
  const base = options.prefixUrl.endsWith('/') ? options.prefixUrl : `${options.prefixUrl}/`;

  /** One fetch with its own timeout; the caller's abort stays an AbortError. */
  async function attempt(url: string, method: string, init: RequestOptions, headers: Record<string, string>): Promise<Response> {
    const timeout = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), timeout.abort()), options.timeout);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    try {
      return await (options.fetch ?? globalThis.fetch)(url, {
        method,
        headers,
        signal,
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      });
    } catch (error) {
      if (timedOut && !init.signal?.aborted) throw new HttpTimeoutError(`No answer within ${options.timeout} ms`);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  return async function request(method: string, path: string, init: RequestOptions = {}): Promise<Response> {
    // A page-relative base (`/bff`) resolves against the page, as fetch would.
    const url = new URL(path, new URL(base, globalThis.document?.baseURI ?? globalThis.location?.href));
    if (init.searchParams) for (const [k, v] of init.searchParams) url.searchParams.append(k, v);
    let renewed = false;
    for (let attemptNo = 1; ; attemptNo++) {
      let response: Response;
      const headers: Record<string, string> = { ...options.headers(), ...init.headers };
      try {
        response = await attempt(url.href, method.toUpperCase(), init, headers);
      } catch (error) {
        const lost = error instanceof TypeError || error instanceof HttpTimeoutError;
        if (!lost || attemptNo > options.retries) throw error;
        await sleep(delayFor(attemptNo, options.backoffLimit), init.signal);
        continue;
      }
      if (response.ok) return response;
      if (response.status === 401 && !renewed && options.onUnauthorized) {
        renewed = true;
        if (await options.onUnauthorized(headers.authorization)) {
          attemptNo--; // a replay with the new session is not a retry
          continue;
        }
      }
      if (!RETRY_STATUSES.has(response.status) || attemptNo > options.retries) throw new HttpStatusError(response);
      await sleep(delayFor(attemptNo, options.backoffLimit, response), init.signal);
    }
  };
}

// Rate limits (rate-limiter-flexible): per API key, widget session, verification link and client address; counters in
// memory or in PostgreSQL (spent in leases, see rate-limit-lease.ts).
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler, Next } from 'hono';
import type pg from 'pg';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config';
import { AppError } from '../domain/errors';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import type { Deps } from '../deps';
import { LeasedLimiter } from './rate-limit-lease';

/**
 * What each limit counts (points per window, from the configuration):
 * - `apiKey`: /v2 requests per API key (the BFF's in-process calls are counted per widget session instead);
 * - `session`: /bff requests per widget session;
 * - `link`: /verify/api requests per verification link (per customer it names);
 * - `authFailures`: refused credentials (API key, widget session, link) per client address; over it, the refused
 *   requests from that address answer 429 until the window ends (valid credentials are never held back by it);
 * - `publicSession`: anonymous onboarding sessions minted per client address and origin;
 * - `demoSession`: sandbox demo sessions minted per client address;
 * - `conflicts`: tax ids already taken that one widget session met (a cap on probing whose id is registered).
 */
export type LimitName = 'apiKey' | 'session' | 'link' | 'authFailures' | 'publicSession' | 'demoSession' | 'conflicts';

/** Set as a binding on the requests the BFF sends to /v2 in-process: they were already counted per widget session. */
export const IN_PROCESS = Symbol('ramp.in-process');

const settings = (config: Config): Record<LimitName, { points: number; seconds: number }> => ({
  apiKey: config.RAMP_RATE_LIMIT_API_KEY,
  session: config.RAMP_RATE_LIMIT_SESSION,
  link: config.RAMP_RATE_LIMIT_LINK,
  authFailures: config.RAMP_RATE_LIMIT_AUTH_FAILURES,
  publicSession: config.RAMP_RATE_LIMIT_PUBLIC_SESSION,
  demoSession: config.RAMP_RATE_LIMIT_DEMO_SESSION,
  conflicts: config.RAMP_RATE_LIMIT_CONFLICTS,
});

/** Keys that are credentials are stored hashed: the counters table must not become a list of live keys. */
export const hashKey = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** An IPv6 client is limited per /64 (one subscriber's allocation); an IPv4-mapped address as IPv4. */
export function addressKey(address: string): string {
  const a = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').replace(/%.*$/, '');
  if (!a.includes(':')) return a;
  const [head = '', tail] = a.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * The client's address: the socket's peer, or with `RAMP_TRUST_PROXY=n` the address the n-th proxy from us saw
 * (X-Forwarded-For read from the right, so a client cannot choose its own). Undefined for in-process requests.
 */
export function clientAddress(c: Context, trustProxy: number): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } }; server?: { incoming?: { socket?: { remoteAddress?: string } } } } | undefined;
  const socket = (env?.incoming ?? env?.server?.incoming)?.socket?.remoteAddress;
  if (trustProxy > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    if (hops.length) return hops[Math.max(0, hops.length - trustProxy)];
  }
  return socket;
}

const inProcess = (c: Context) => Boolean((c.env as Record<symbol, unknown> | undefined)?.[IN_PROCESS]);

export const rateLimited = (msBeforeNext: number, what: string) => {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('RATE_LIMITED', `Too many requests ${what}. Retry after ${retryAfter} s.`, { extra: { retryAfter } });
};

/** One limit as the middleware sees it: in memory, each call counts; in PostgreSQL, through a lease. */
interface Limit {
  /** One point; on the request path (leased in PostgreSQL). */
  consume(key: string): Promise<void>;
  /** One point counted in the store at once (refused credentials: rare, and counted exactly across processes). */
  consumeExact(key: string): Promise<void>;
  blockedFor(key: string): Promise<number>;
  /** A point taken at once when one is at hand (a live lease), without a promise; false: `consume` decides. */
  tryConsume?(key: string): boolean;
  /** `blockedFor`'s answer when known without asking the store; undefined: ask. */
  knownBlockedFor?(key: string): number | undefined;
}

function memoryLimit(limiter: RateLimiterAbstract): Limit {
  const consume = async (key: string) => {
    await limiter.consume(key);
  };
  return {
    consume,
    consumeExact: consume,
    async blockedFor(key) {
      const res = await limiter.get(key);
      return res && res.consumedPoints > limiter.points ? Math.max(res.msBeforeNext, 1) : 0;
    },
  };
}

function leasedLimit(limiter: RateLimiterAbstract): Limit {
  const leased = new LeasedLimiter(limiter);
  return {
    consume: (key) => leased.consume(key),
    consumeExact: (key) => leased.consumeExact(key),
    blockedFor: (key) => leased.blockedFor(key),
    tryConsume: (key) => leased.tryConsume(key),
    knownBlockedFor: (key) => leased.knownBlockedFor(key),
  };
}

export class RateLimits {
  /** Where the counters live: PostgreSQL is the default on PostgreSQL; the embedded database serves one process, so memory. */
  readonly store: 'memory' | 'postgres' | 'off';
  private readonly limiters: Partial<Record<LimitName, Limit>> = {};
  private readonly trustProxy: number;

  constructor(
    config: Config,
    store: Deps['store'],
    private readonly logger?: Logger,
    /** Counts each 429 decided here by its budget (`ramp_rate_limited_total`). */
    private readonly metrics?: Pick<Metrics, 'rateLimited'>,
  ) {
    const wanted = config.RAMP_RATE_LIMIT_STORE ?? (store.kind === 'postgres' ? 'postgres' : 'memory');
    this.store = wanted === 'postgres' && store.kind !== 'postgres' ? 'memory' : wanted;
    if (wanted !== this.store) logger?.warn({ wanted, using: this.store }, 'RAMP_RATE_LIMIT_STORE=postgres needs DATABASE_URL: rate limits kept in memory');
    this.trustProxy = config.RAMP_TRUST_PROXY;
    if (this.store === 'off') return;
    // drizzle's node-postgres driver keeps its pg.Pool as `$client`; RateLimiterPostgres takes a Pool as it is.
    const pool = this.store === 'postgres' ? (store.db as unknown as { $client: pg.Pool }).$client : undefined;
    for (const [name, { points, seconds }] of Object.entries(settings(config)) as [LimitName, { points: number; seconds: number }][]) {
      const base = { keyPrefix: name, points, duration: seconds };
      // In PostgreSQL each process spends leases of the budget (one upsert per twentieth of it) and remembers a key it
      // found over its budget until the window ends: a flood costs no queries.
      this.limiters[name] = pool
        ? leasedLimit(
            new RateLimiterPostgres({
              ...base,
              storeClient: pool,
              storeType: 'pool',
              tableName: 'rate_limits',
              // The table comes with the migrations (UNLOGGED), so no process races to create it.
              tableCreated: true,
              // While the database is away each process limits on its own rather than failing the request.
              insuranceLimiter: new RateLimiterMemory(base),
            }),
          )
        : memoryLimit(new RateLimiterMemory(base));
    }
  }

  /** Counts one request for `key`; throws RATE_LIMITED (429 with Retry-After) when the window's budget is spent. */
  async consume(name: LimitName, key: string, what = 'for this client', exact = false): Promise<void> {
    const limiter = this.limiters[name];
    if (!limiter) return;
    try {
      await (exact ? limiter.consumeExact(key) : limiter.consume(key));
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        this.metrics?.rateLimited.inc({ budget: name });
        throw rateLimited(err.msBeforeNext, what);
      }
      // The store failed and so did its insurance: let the request through rather than fail it for a counter.
      this.logger?.warn({ limit: name, err: (err as Error).name }, 'rate limiter unavailable');
    }
  }

  /**
   * Milliseconds until `key` may try again, 0 when it is under its budget (no point is spent). Its callers refuse the
   * request when it is above 0 (the BFF's tax-id conflicts), so that answer counts as a 429 of `name`'s budget.
   */
  async blockedFor(name: LimitName, key: string): Promise<number> {
    const wait = await this.waitFor(name, key);
    if (wait > 0) this.metrics?.rateLimited.inc({ budget: name });
    return wait;
  }

  private async waitFor(name: LimitName, key: string): Promise<number> {
    const limiter = this.limiters[name];
    if (!limiter) return 0;
    try {
      return await limiter.blockedFor(key);
    } catch {
      return 0;
    }
  }

  private address(c: Context): string {
    const a = clientAddress(c, this.trustProxy);
    return a ? addressKey(a) : 'unknown';
  }

  /**
   * Around a route that takes credentials: each refusal (401, or one of `failureStatuses`) of a request that presented a
   * credential spends one point of its client address's budget, and once the budget is spent those refused requests
   * answer 429 instead. Only the failing requests are held back: a valid credential from the same address (a shared
   * office or carrier NAT, a visitor whose page was made to load junk links) always goes through, and a request that
   * presented nothing spends nothing.
   */
  authFailures(opts: { failureStatuses?: number[]; presented?: (c: Context) => boolean } = {}): MiddlewareHandler {
    const failures = new Set([401, ...(opts.failureStatuses ?? [])]);
    const presented = opts.presented ?? ((c: Context) => c.req.header('authorization') !== undefined);
    const what = 'with refused credentials from this address';
    return async (c, next) => {
      await next();
      if (!this.limiters.authFailures || !failures.has(c.res.status) || inProcess(c) || !presented(c)) return;
      // Thrown after the answer was made: the error handler's 429 keeps the headers it set (CORS for the widget).
      await this.consume('authFailures', this.address(c), what, true);
    };
  }

  /** /v2, after bearer auth: one point of the API key's budget (the BFF's in-process calls are not counted twice). */
  perApiKey(): MiddlewareHandler {
    // Only keys that passed auth get here: a few per partner, so their hashes are remembered rather than made per request.
    const hashes = new Map<string, string>();
    return (c, next) => {
      const limit = this.limiters.apiKey;
      if (!limit || inProcess(c)) return next();
      const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
      if (!token) return next();
      let hashed = hashes.get(token);
      if (!hashed) {
        if (hashes.size >= 10_000) hashes.clear();
        hashes.set(token, (hashed = hashKey(token)));
      }
      // A point of a live lease is taken without a promise (most requests); otherwise through the store.
      if (limit.tryConsume?.(hashed)) return next();
      return this.consume('apiKey', hashed, 'for this API key').then(() => next());
    };
  }

  /** One point of the client address's budget for `name`, per `scope` (an origin) when given. */
  async perAddress(name: 'publicSession' | 'demoSession', c: Context, scope = ''): Promise<void> {
    if (!inProcess(c)) await this.consume(name, scope ? `${this.address(c)}|${scope}` : this.address(c), 'from this address');
  }

  /** `perAddress` as a middleware. */
  addressLimit(name: 'publicSession' | 'demoSession'): MiddlewareHandler {
    return async (c, next) => {
      await this.perAddress(name, c);
      await next();
    };
  }
}

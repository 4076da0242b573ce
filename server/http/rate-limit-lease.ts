// Rate limits shared through the database without a round trip per request: each process takes a lease of a key's
// window budget (one upsert) and spends it locally.
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** Share of a window's budget one lease takes: a key costs at most this many upserts per window and process. */
export const LEASE_SHARE = 20;

interface Lease {
  /** Points of this lease not yet spent. */
  left: number;
  /** When the window the lease was taken in ends (epoch ms). */
  until: number;
  /** The database said the window's budget is spent: once `left` is 0, refuse until `until` without asking again. */
  spent: boolean;
}

/** What the database said when asked for a key's state: blocked until (epoch ms), 0 when not blocked; and until when to trust it. */
interface Known {
  blockedUntil: number;
  until: number;
}

/**
 * A limiter whose counters live in a shared store (PostgreSQL), spent in leases.
 *
 * `consume` takes `ceil(points / LEASE_SHARE)` points from the store at once and hands them out one per request from
 * memory until they are gone or the window ends; concurrent requests that find no lease wait on one upsert. A lease is
 * only granted as far as the window's budget reaches (a partial one when the store is nearly spent), so N processes
 * together never admit more than the budget: the limit is never exceeded. The price is the other way: points leased by
 * a process that does not spend them are lost to the others for that window, so a key spread over N processes may be
 * refused up to (N − 1) × (lease − 1) requests before its budget (5 % of it per other process at the most), and a
 * budget under LEASE_SHARE points is counted one point per upsert, exactly as before.
 *
 * `blockedFor` (the refused-credentials check every request makes) remembers the store's answer for a lease's share of
 * the window (at most a second): failures are still counted one upsert each, exactly; a block set by another process
 * is seen here within that time, one set by this process at once.
 */
export class LeasedLimiter {
  private readonly leases = new Map<string, Lease>();
  private readonly taking = new Map<string, Promise<'leased' | 'open'>>();
  private readonly known = new Map<string, Known>();
  readonly leaseSize: number;
  private readonly knownMs: number;

  constructor(private readonly limiter: RateLimiterAbstract) {
    this.leaseSize = Math.max(1, Math.ceil(limiter.points / LEASE_SHARE));
    this.knownMs = Math.min(1000, Math.ceil((limiter.duration * 1000) / LEASE_SHARE));
  }

  get points(): number {
    return this.limiter.points;
  }

  /** One point from `key`'s live lease, without a promise: false when `consume` must decide (no lease, spent, or expired). */
  tryConsume(key: string): boolean {
    const lease = this.leases.get(key);
    if (!lease || lease.until <= Date.now() || lease.left <= 0) return false;
    lease.left--;
    return true;
  }

  /** One point for `key`; rejects with a RateLimiterRes (its `msBeforeNext` set) when the window's budget is spent. */
  async consume(key: string): Promise<void> {
    for (;;) {
      const now = Date.now();
      const lease = this.leases.get(key);
      if (lease && lease.until > now) {
        if (lease.left > 0) {
          lease.left--;
          return;
        }
        if (lease.spent) throw refusal(lease.until - now, this.limiter.points);
      }
      let taking = this.taking.get(key);
      if (!taking) {
        taking = this.take(key).finally(() => this.taking.delete(key));
        this.taking.set(key, taking);
      }
      // The store and its insurance both failed: let the request through rather than fail it for a counter.
      if ((await taking) === 'open') return;
    }
  }

  private async take(key: string): Promise<'leased' | 'open'> {
    const size = this.leaseSize;
    const points = this.limiter.points;
    if (this.leases.size > 100_000) this.dropExpired();
    try {
      const res = await this.limiter.consume(key, size);
      this.leases.set(key, { left: size, until: Date.now() + res.msBeforeNext, spent: res.consumedPoints >= points });
      return 'leased';
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) return 'open';
      // Over the budget with this lease: what was left of the budget before it is this process's, the rest is refused.
      const granted = Math.max(0, Math.min(size, points - (err.consumedPoints - size)));
      this.leases.set(key, { left: granted, until: Date.now() + Math.max(err.msBeforeNext, 1), spent: true });
      this.known.set(key, { blockedUntil: Date.now() + Math.max(err.msBeforeNext, 1), until: Date.now() + Math.max(err.msBeforeNext, 1) });
      return 'leased';
    }
  }

  /** Counts one point for `key` in the store at once (no lease: refused credentials are counted exactly). */
  async consumeExact(key: string): Promise<void> {
    try {
      const res = await this.limiter.consume(key);
      this.remember(key, res);
    } catch (err) {
      if (err instanceof RateLimiterRes) this.remember(key, err);
      throw err;
    }
  }

  /** `blockedFor`'s answer while it is known without asking the store (no promise); undefined when it would ask. */
  knownBlockedFor(key: string): number | undefined {
    const now = Date.now();
    const known = this.known.get(key);
    if (!known || known.until <= now) return undefined;
    return known.blockedUntil > now ? known.blockedUntil - now : 0;
  }

  /** Milliseconds until `key` may try again, 0 while it is under its budget; the store is asked at most once per `knownMs`. */
  async blockedFor(key: string): Promise<number> {
    const now = Date.now();
    const known = this.known.get(key);
    if (known && known.until > now) return known.blockedUntil > now ? known.blockedUntil - now : 0;
    const res = await this.limiter.get(key);
    if (this.known.size > 100_000) this.dropExpired();
    this.remember(key, res);
    return res && res.consumedPoints > this.limiter.points ? Math.max(res.msBeforeNext, 1) : 0;
  }

  private remember(key: string, res: RateLimiterRes | null): void {
    const now = Date.now();
    const blocked = Boolean(res && res.consumedPoints > this.limiter.points);
    const blockedUntil = blocked ? now + Math.max(res!.msBeforeNext, 1) : 0;
    this.known.set(key, { blockedUntil, until: blocked ? blockedUntil : now + this.knownMs });
  }

  private dropExpired(): void {
    const now = Date.now();
    for (const [k, l] of this.leases) if (l.until <= now) this.leases.delete(k);
    for (const [k, v] of this.known) if (v.until <= now) this.known.delete(k);
  }
}

function refusal(msBeforeNext: number, points: number): RateLimiterRes {
  return new RateLimiterRes(0, Math.max(msBeforeNext, 1), points + 1);
}

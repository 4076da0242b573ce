// Bearer API-key auth for /v2: the key names the partner; a missing or unknown key is a 401 problem with WWW-Authenticate.
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../domain/errors';
import type { Db } from '../store/db';
import { partnerIdForKey } from '../store/queries/partners';
import type { AppEnv } from './env';

/**
 * Key → partner, remembered for a short time so that a request does not cost a database round trip for its key.
 * Only known keys are remembered (an unknown one is looked up every time: a key created meanwhile works at once).
 * A key revoked in the database stops working here within `ttlMs` at most; this process evicts at once with `evict`.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { partnerId: string; until: number }>();
  constructor(
    readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async partnerFor(db: Db, key: string): Promise<string | undefined> {
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) return hit.partnerId;
    this.entries.delete(key);
    const partnerId = await partnerIdForKey(db, key);
    if (partnerId && this.ttlMs > 0) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { partnerId, until: this.now() + this.ttlMs });
    }
    return partnerId;
  }

  /** Forgets one key (rotation, revocation), or every key of a partner, or all. */
  evict(filter: { key?: string; partnerId?: string } = {}): void {
    if (filter.key !== undefined) this.entries.delete(filter.key);
    else if (filter.partnerId !== undefined) {
      for (const [k, v] of this.entries) if (v.partnerId === filter.partnerId) this.entries.delete(k);
    } else this.entries.clear();
  }
}

export function bearerAuth(db: Db, cache: ApiKeyCache = new ApiKeyCache()): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m) throw new AppError('UNAUTHENTICATED', 'Send your API key as `Authorization: Bearer sk_…`.');
    const partnerId = await cache.partnerFor(db, m[1]!);
    if (!partnerId) throw new AppError('UNAUTHENTICATED', 'The API key is not valid or was revoked.');
    c.set('partnerId', partnerId);
    await next();
  };
}

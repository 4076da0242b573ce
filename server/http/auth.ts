// Bearer API-key auth for /v2: the key names the partner; a missing or unknown key is a 401 problem with WWW-Authenticate.
import type { Context, MiddlewareHandler, Next } from 'hono';
import { AppError } from '../domain/errors';
import type { Db } from '../deps';
import { partnerForApiKey } from '../flows/partners';
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

  /** The partner of a key remembered and not expired, without a promise; undefined when `partnerFor` would ask the database. */
  known(key: string): string | undefined {
    const hit = this.entries.get(key);
    return hit && hit.until > this.now() ? hit.partnerId : undefined;
  }

  async partnerFor(db: Db, key: string): Promise<string | undefined> {
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) return hit.partnerId;
    this.entries.delete(key);
    const partnerId = await partnerForApiKey(db, key);
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
  const admit = (c: Context<AppEnv>, next: Next, partnerId: string | undefined) => {
    if (!partnerId) throw new AppError('UNAUTHENTICATED', 'The API key is not valid or was revoked.');
    c.set('partnerId', partnerId);
    return next();
  };
  return (c, next) => {
    const header = c.req.header('authorization');
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m) throw new AppError('UNAUTHENTICATED', 'Send your API key as `Authorization: Bearer sk_…`.');
    // A remembered key goes on without a promise of its own; another is looked up.
    const known = cache.known(m[1]!);
    return known !== undefined ? admit(c, next, known) : cache.partnerFor(db, m[1]!).then((partnerId) => admit(c, next, partnerId));
  };
}

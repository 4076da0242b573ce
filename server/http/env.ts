// The Hono environment shared by every route: what middleware puts on the context.
import type { Db } from '../deps';
import type { Logger } from '../logger';

export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    /** Set by Bearer auth on /v2. */
    partnerId: string;
    /**
     * The database a /v2 route hands to its flows (set by the idempotency middleware): with an Idempotency-Key, the key's
     * transaction, so the request's writes and its stored answer commit together.
     */
    db: Db;
    /** What a pinned older API version did by default that the latest asks for (set by the versions middleware). */
    versionDefaults?: VersionDefaults;
  };
}

/** Query options an older version turned on by default. */
export interface VersionDefaults {
  /** Before 2.2.0, GET /customers/{id} showed `transactionLimits` unasked. */
  customerTransactionLimits?: boolean;
}

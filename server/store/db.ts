// Opens the database: embedded PGlite in a data dir by default, PostgreSQL through `pg` when a URL is given; applies the migrations.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import type { PgDatabase, PgTransactionConfig } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index';

// biome-ignore lint: the query-result HKT differs per driver; callers only use the shared query builder.
export type Db = PgDatabase<any, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Store {
  /** The database. Open a transaction on it (or a savepoint in one) with `inTransaction`. */
  db: Db;
  kind: 'pglite' | 'postgres';
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Statements sent to the database so far by this store (each query, and BEGIN/COMMIT/ROLLBACK), whoever sent them
   * (drizzle, the rate limiter): tests count a request's round trips with it.
   */
  statements(): number;
  /** Transactions run again after PostgreSQL ended them as a deadlock or serialization failure (40P01, 40001). */
  retries(): number;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** postgres://… ; when absent, PGlite. */
  databaseUrl?: string;
  /** PGlite data dir; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  /** PostgreSQL schema to use (created if missing); tests isolate each run in its own. */
  schema?: string;
  /** PostgreSQL pool: connections, connect timeout, statement timeout. */
  poolSize?: number;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** Named prepared statements (default true); off behind a pooler that cannot keep them. */
  preparedStatements?: boolean;
  /** Told about connection errors that the pool survived (a terminated backend, a dropped socket). */
  onConnectionError?: (err: Error) => void;
}

/** Each store's database → how a transaction opens on it (PostgreSQL: retryingTransaction; PGlite: its own). */
const openers = new WeakMap<Db, Db['transaction']>();

/** A PostgreSQL transaction → the drizzle database of the one pooled connection it runs on (see retryingTransaction). */
const connectionOf = new WeakMap<object, Db>();

/** Marks `db` as a store's database, whose transactions open through `open` (else drizzle's own). */
export function storeDatabase(db: Db, open?: Db['transaction']): Db {
  openers.set(db, open ?? ((fn, config) => db.transaction(fn, config)));
  return db;
}

/**
 * Runs `fn` in a transaction of `db`. On a store's database it opens one (on PostgreSQL on a pooled connection of its
 * own, run again after a deadlock or a serialization failure); on a transaction it opens a savepoint inside it. Flows
 * take the database they are given and open their transactions here, so a caller's transaction (the idempotency key's)
 * holds whatever they do.
 */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> {
  const open = openers.get(db);
  if (open) return open(fn, config);
  // A savepoint runs on its transaction's connection: statements prepared for that connection serve it too.
  const home = connectionOf.get(db);
  const run = home
    ? (inner: Tx) => {
        connectionOf.set(inner, home);
        return fn(inner);
      }
    : fn;
  return db.transaction(run as never, config) as Promise<T>;
}

/**
 * `db` itself when it is a store's database, undefined when it is a transaction: what a named prepared statement must be
 * made on, since it stays bound to the session it was prepared with.
 */
export function baseOutsideTransaction(db: Db): Db | undefined {
  return openers.has(db) ? db : undefined;
}

/**
 * Where a statement can be prepared once and kept (`.prepare(name)`, which binds it to that database's session): a
 * store's database; in a PostgreSQL transaction or savepoint, the database of the connection it runs on, whose statements
 * run on that connection in order, inside the transaction. Undefined when there is none (any PGlite transaction, which
 * has a session of its own).
 */
export function preparedHome(db: Db): Db | undefined {
  return openers.has(db) ? db : connectionOf.get(db);
}

/**
 * Every connection of the pool was in use for the whole connect timeout: the database answers, this process is busy.
 * Not an outage (see `isConnectionError`): the answer is a short SERVICE_BUSY, and /readyz stays ready.
 */
export class PoolBusyError extends Error {
  readonly code = 'RAMP_POOL_BUSY';
  constructor(waitedMs: number) {
    super(`every database connection stayed in use for ${waitedMs} ms`);
    this.name = 'PoolBusyError';
  }
}

/** A PoolBusyError anywhere in the cause chain (drizzle wraps what a query met). */
export function isPoolBusy(err: unknown): boolean {
  for (let e = err as { cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) if (e instanceof PoolBusyError) return true;
  return false;
}

/**
 * A pool that tells waiting for a connection (all `max` in use: busy) from failing to open one (down): pg-pool reports
 * both as "timeout exceeded when trying to connect".
 */
function busyAwarePool(max: number, connectTimeoutMs: number) {
  const timedOut = (err: unknown) => err instanceof Error && /timeout exceeded when trying to connect/i.test(err.message);
  return class extends pg.Pool {
    // biome-ignore lint: pg-pool's connect has a promise form and a callback form (pool.query uses the callback one).
    override connect(cb?: any): any {
      const full = this.totalCount >= max && this.idleCount === 0;
      const classify = (err: Error) => (full && timedOut(err) ? new PoolBusyError(connectTimeoutMs) : err);
      if (cb) return super.connect((err, client, done) => cb(err ? classify(err) : err, client, done));
      return super.connect().catch((err: Error) => {
        throw classify(err);
      });
    }
  };
}

/** True for errors that mean "the database is not reachable right now" rather than "this query is wrong". */
export function isConnectionError(err: unknown): boolean {
  if (isPoolBusy(err)) return false;
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^08/.test(code) || ['57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|terminating connection|the database system is (starting up|shutting down)|Client was closed/i.test(message)) return true;
  }
  return false;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export async function openStore(opts: StoreOptions): Promise<Store> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts);
  // Loaded only here: a server on PostgreSQL never loads PGlite.
  const { openPglite } = await import('./pglite-store');
  return openPglite(opts.dataDir ?? './.ramp-data');
}

async function openPostgres(url: string, opts: StoreOptions): Promise<Store> {
  const searchSchema = opts.schema;
  if (searchSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(searchSchema)) throw new Error(`invalid schema name ${searchSchema}`);
  const options = searchSchema ? `-c search_path=${searchSchema}` : undefined;
  // Migrations run on one connection holding an advisory lock, so N processes starting together migrate once.
  const admin = new pg.Client({ connectionString: url, options, connectionTimeoutMillis: opts.connectTimeoutMs });
  admin.on('error', () => undefined); // a dropped connection fails the query that used it; that is reported
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext('ramp-migrations'))`);
    if (searchSchema) await admin.query(`CREATE SCHEMA IF NOT EXISTS ${searchSchema}`);
    await migratePg(drizzlePg(admin, { schema }), { migrationsFolder, migrationsSchema: searchSchema ?? 'drizzle' });
    await admin.query(`SELECT pg_advisory_unlock(hashtext('ramp-migrations'))`);
  } finally {
    await admin.end();
  }
  const counter = { n: 0, retries: 0 };
  const names = new StatementNames(opts.preparedStatements === false ? 0 : undefined);
  const max = opts.poolSize ?? 20;
  const connectTimeoutMs = opts.connectTimeoutMs ?? 5000;
  const pool = new (busyAwarePool(max, connectTimeoutMs))({
    connectionString: url,
    options,
    max,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: opts.statementTimeoutMs || undefined,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    Client: countingClient(counter, names),
  });
  // Without these a backend terminated under an idle or checked-out client is an unhandled 'error' event: the process
  // dies. An idle client that hears of its end is removed by the pool itself (pg-pool's idle listener, which then emits
  // the pool's 'error'), so the first requests after the database returns do not meet dead sockets.
  const report = (err: Error) => opts.onConnectionError?.(err);
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  // /readyz asks the database on a connection of its own: a pool with every client in use is busy, not down.
  const probe = healthProbe({ connectionString: url, options, connectionTimeoutMillis: connectTimeoutMs }, connectTimeoutMs);
  const db = storeDatabase(drizzlePg(pool, { schema }) as unknown as Db, retryingTransaction(pool, counter) as Db['transaction']);
  let closed: Promise<void> | undefined;
  return {
    db,
    kind: 'postgres',
    ping: () => probe.ping(),
    statements: () => counter.n,
    retries: () => counter.retries,
    close: () => (closed ??= Promise.all([pool.end(), probe.close()]).then(() => undefined)),
  };
}

/**
 * The pool's client class (pg-pool's `Client` option): it counts every statement of the pool (pool.query's too, which
 * run through a client's query) and gives each statement text a name (StatementNames), so that node-postgres prepares it
 * once per connection and PostgreSQL parses and plans it once.
 */
function countingClient(counter: { n: number }, names: StatementNames): typeof pg.Client {
  // Not named …Pool…: drizzle's transaction takes a client whose class name says Pool for a pool.
  return class RampClient extends pg.Client {
    // biome-ignore lint: pg's query has a dozen overloads; this passes every one through unchanged but the name.
    override query(...args: any[]): any {
      counter.n++;
      const config = args[0] as { text?: unknown; name?: string; submit?: unknown } | undefined;
      if (config && typeof config === 'object' && typeof config.text === 'string' && typeof config.submit !== 'function') {
        const name = names.nameOf(config.text, config.name);
        if (name !== config.name) args[0] = { ...config, name };
      }
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
  };
}

/**
 * drizzle's node-postgres transaction on a pool (0.45.4) sends BEGIN before its try block: when BEGIN fails (a
 * connection dropped while idle in the pool, a statement timeout) the client it checked out is never released, and
 * after `poolSize` such failures every request waits for a connection forever. So the client is checked out here and
 * drizzle's own transaction runs on it (a drizzle database of that one client, made once per client); the client goes
 * back on every path, and is destroyed when BEGIN, COMMIT or ROLLBACK failed or the connection broke (its session's
 * state is then unknown). A transaction PostgreSQL ended as a deadlock victim or a serialization failure did nothing:
 * it runs again, a few times, after a short random pause, so that a client never sees a 500 for two requests that met.
 */
function retryingTransaction(pool: pg.Pool, counter: { retries: number }) {
  const onClient = new WeakMap<pg.PoolClient, NodePgDatabase<typeof schema>>();
  const once = async <T>(fn: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> => {
    const client = await pool.connect();
    let db = onClient.get(client);
    if (!db) onClient.set(client, (db = drizzlePg(client, { schema })));
    let broken: Error | undefined;
    try {
      const home = db as unknown as Db;
      return await db.transaction(((tx: Tx) => {
        connectionOf.set(tx, home);
        return fn(tx);
      }) as never, config);
    } catch (err) {
      if (sessionStateUnknown(err)) broken = err as Error;
      throw err;
    } finally {
      client.release(broken);
    }
  };
  return async <T>(fn: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(fn, config);
      } catch (err) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(err)) throw err;
        counter.retries++;
        await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      }
    }
  };
}

/** The transaction's own statements failed (BEGIN, COMMIT, ROLLBACK), or the connection did: nobody knows what the session is in. */
function sessionStateUnknown(err: unknown): boolean {
  return (err instanceof DrizzleQueryError && /^\s*(begin|commit|rollback)\b/i.test(err.query)) || isConnectionError(err);
}

const TRANSACTION_ATTEMPTS = 4;

/** 40P01 deadlock_detected, 40001 serialization_failure, anywhere in the cause chain. */
function isRetryableConflict(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '40P01' || code === '40001') return true;
  }
  return false;
}

/**
 * Names for statements by their text, so that node-postgres prepares each once per connection and PostgreSQL parses and
 * plans it once (a customer read's six json_agg subqueries cost more to plan than to run). Only the first `max` distinct
 * texts of this process get a name (texts that vary, such as IN lists of any length, could otherwise fill each
 * connection with prepared statements); later ones run unnamed as before.
 */
class StatementNames {
  private readonly names = new Map<string, string | undefined>();
  constructor(private readonly max = 300) {}
  /** The name a statement runs under: none at all when names are off (behind a pooler), even one the caller gave. */
  nameOf(text: string, given: string | undefined): string | undefined {
    if (this.max === 0) return undefined;
    return given ?? this.nameFor(text);
  }
  nameFor(text: string): string | undefined {
    let name = this.names.get(text);
    if (name !== undefined || this.names.has(text)) return name;
    name = this.names.size < this.max ? `r${createHash('sha1').update(text).digest('base64url').slice(0, 20)}` : undefined;
    if (this.names.size < this.max * 4) this.names.set(text, name);
    return name;
  }
}

/** One connection outside the pool for health checks, opened when first asked and again after any failure. */
function healthProbe(config: pg.ClientConfig, timeoutMs: number) {
  let client: pg.Client | undefined;
  const drop = () => {
    const c = client;
    client = undefined;
    c?.end().catch(() => undefined);
  };
  return {
    async ping(): Promise<boolean> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('health check timed out')), timeoutMs);
      });
      try {
        if (!client) {
          const c = new pg.Client(config);
          c.on('error', () => (client === c ? drop() : undefined));
          client = c;
          await Promise.race([c.connect(), timeout]);
        }
        await Promise.race([client.query('select 1'), timeout]);
        return true;
      } catch {
        drop();
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => {
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}

export async function ping(db: Db, timeoutMs = 5000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      db.execute(sql`select 1`).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

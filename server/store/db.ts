// Opens the database: embedded PGlite in a data dir by default, PostgreSQL through `pg` when a URL is given; applies the migrations.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index';

// biome-ignore lint: the query-result HKT differs per driver; callers only use the shared query builder.
export type Db = PgDatabase<any, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Store {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** postgres://… ; when absent, PGlite. */
  databaseUrl?: string;
  /** PGlite data dir; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  /** PostgreSQL schema to use (created if missing); tests isolate each run in its own. */
  schema?: string;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export async function openStore(opts: StoreOptions): Promise<Store> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.schema);
  return openPglite(opts.dataDir ?? './.ramp-data');
}

async function openPglite(dataDir: string): Promise<Store> {
  const dir = dataDir.startsWith('memory://') ? dataDir : `${dataDir.replace(/\/+$/, '')}/pg`;
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    ping: () => ping(db),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, searchSchema?: string): Promise<Store> {
  if (searchSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(searchSchema)) throw new Error(`invalid schema name ${searchSchema}`);
  const options = searchSchema ? `-c search_path=${searchSchema}` : undefined;
  // Migrations run on one connection holding an advisory lock, so N processes starting together migrate once.
  const admin = new pg.Client({ connectionString: url, options });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext('ramp-migrations'))`);
    if (searchSchema) await admin.query(`CREATE SCHEMA IF NOT EXISTS ${searchSchema}`);
    await migratePg(drizzlePg(admin, { schema }), { migrationsFolder, migrationsSchema: searchSchema ?? 'drizzle' });
    await admin.query(`SELECT pg_advisory_unlock(hashtext('ramp-migrations'))`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: url, options, max: 20 });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

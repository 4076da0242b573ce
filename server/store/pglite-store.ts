// The embedded store: PGlite in this process, its data dir made by initdb in a child process (or from a migrated
// template), migrated, with its statements counted (and traced when tracing is on).
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { type Db, storeDatabase, migrationsFolder, ping, type Store } from './db';
import { tracedPglite } from './pglite-tracing';
import * as schema from './schema/index';

/** PGlite's shared buffers: PostgreSQL's default 128 MB is most of an embedded server's memory, and the demo's data fits in far less. */
const PGLITE_CONF = ['shared_buffers = 16MB'];

/**
 * initdb runs in a child process: the WebAssembly memory it grows (hundreds of MB) is never given back, so run here it
 * would stay in the server for good. The child makes a fresh data dir in memory and hands it back as a tarball; it is
 * loaded here (into memory, or into a new data dir on disk), migrated, and the migrated data dir is kept as a template
 * in the temp dir, named by PGlite's version and the migrations' contents: a later new database (every test's, every
 * test server's) loads the template and skips initdb and the migrations altogether (3–4 s cold, about 0.15 s from it).
 * A data dir on disk that is already initialised is opened as it is, and migrated.
 */
async function initdbInChild(): Promise<Blob> {
  const out = join(tmpdir(), `ramp-pglite-initdb-${pgliteVersion()}.${process.pid}.${randomBytes(4).toString('hex')}.tar`);
  const child = `
    const [url, out] = process.argv.slice(1);
    const { PGlite } = await import(url);
    const db = await PGlite.create('memory://');
    (await import('node:fs')).writeFileSync(out, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
    await db.close();`;
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', child, import.meta.resolve('@electric-sql/pglite'), out], (err, _stdout, stderr) =>
      err ? reject(new Error(`PGlite initdb failed: ${stderr || err.message}`)) : resolve(),
    ),
  );
  try {
    return new Blob([readFileSync(out)]);
  } finally {
    rmSync(out, { force: true });
  }
}

/** The migrated template's path: PGlite's version and a hash of every migration file (a new migration makes a new one). */
function templatePath(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, name.name);
      if (name.isDirectory()) walk(full);
      else hash.update(`${full.slice(migrationsFolder.length)}\0`).update(readFileSync(full));
    }
  };
  walk(migrationsFolder);
  return join(tmpdir(), `ramp-pglite-${pgliteVersion()}-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** The template when one is there and ours: made by this user and writable by nobody else (the temp dir is shared). */
function readTemplate(path: string): Blob | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) return undefined;
    return new Blob([readFileSync(path)]);
  } catch {
    return undefined;
  }
}

/** Keeps `client`'s freshly migrated data dir as the template (atomically: a concurrent opener reads a whole one or none). */
async function writeTemplate(client: PGlite, path: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(tmp, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()), { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true }); // a template is a saving, never a reason to fail the open
  }
}

let version: string | undefined;
function pgliteVersion(): string {
  version ??= (JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.resolve('@electric-sql/pglite'))), 'utf8')) as { version: string }).version;
  return version;
}

export async function openPglite(dataDir: string): Promise<Store> {
  const dir = dataDir.startsWith('memory://') ? dataDir : `${dataDir.replace(/\/+$/, '')}/pg`;
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const fresh = dir.startsWith('memory://') || !existsSync(join(dir, 'PG_VERSION'));
  const template = fresh ? templatePath() : undefined;
  const fromTemplate = template ? readTemplate(template) : undefined;
  const loadDataDir = fresh ? (fromTemplate ?? (await initdbInChild())) : undefined;
  const client = await PGlite.create(dir, { postgresqlconf: PGLITE_CONF, ...(loadDataDir ? { loadDataDir } : {}) });
  const counter = { n: 0 };
  const base = drizzlePglite(countingPglite(tracedPglite(client), counter), { schema }) as unknown as Db;
  await migratePglite(base as never, { migrationsFolder });
  if (template && !fromTemplate) await writeTemplate(client, template);
  // PGlite plans every parameterised statement (the unnamed statement; an SQL-level EXECUTE takes no bound parameters):
  // named statements are plain queries here, dearer than prepared ones (docs/performance.md); PGlite is the demo's store.
  const db = storeDatabase(base);
  return {
    db,
    kind: 'pglite',
    ping: () => ping(db),
    statements: () => counter.n,
    // One connection runs one transaction at a time: nothing to meet, nothing to retry.
    retries: () => 0,
    close: () => client.close(),
  };
}

/**
 * PGlite as drizzle is given it, counting its statements: its queries and execs, each transaction's BEGIN and
 * COMMIT/ROLLBACK, and the queries inside it. A view in front of PGlite's objects; they themselves are left as they are.
 */
function countingPglite<T extends object>(target: T, counter: { n: number }): T {
  return new Proxy(target, {
    get(t, prop) {
      const v = Reflect.get(t, prop, t) as unknown;
      if (typeof v !== 'function') return v;
      const fn = v as (...a: unknown[]) => unknown;
      if (prop === 'query' || prop === 'exec') {
        return (...a: unknown[]) => {
          counter.n++;
          return fn.apply(t, a);
        };
      }
      if (prop !== 'transaction') return fn.bind(t);
      // BEGIN and COMMIT/ROLLBACK; the body's transaction (`tx`) is counted the same way.
      return (body: (tx: object) => unknown) => {
        counter.n += 2;
        return fn.call(t, (tx: object) => body(countingPglite(tx, counter)));
      };
    },
  });
}

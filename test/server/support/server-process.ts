// The real server (`server/main.ts`) as child processes for the multi-process tests: each on its own port, its own data
// dir, and (on PostgreSQL) its own schema, all removed after the test; every process still running is killed after the file
// (test/support/server-child.ts).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { generateApiKey } from '../../../server/domain/api-keys';
import { spawnServer } from '../../support/server-child';

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** The last 20 kB the process printed. */
  tail(): string;
  /** SIGKILL, resolved once it is gone. */
  kill(): Promise<void>;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const s = spawnServer(env, { keep: 20_000 });
  const port = await s.port;
  return { child: s.child, base: `http://127.0.0.1:${port}`, tail: s.output, kill: () => s.kill() };
}

/**
 * The environment for server processes that share one database: PostgreSQL (a schema of this test's) when DATABASE_URL is
 * set, else PGlite in a data dir of this test's. Both go when the test ends.
 */
export function sharedServerEnv(t: TestContext, name: string): { env: Record<string, string>; apiKey: string; schema: string | undefined } {
  const url = process.env.DATABASE_URL;
  const schema = url ? `ramp_test_${name}_${process.pid}_${randomBytes(3).toString('hex')}` : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), `ramp-${name}-`));
  t.after(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (!url) return;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  });
  const apiKey = generateApiKey('sandbox');
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    RAMP_API_KEY: apiKey,
    RAMP_DATA_DIR: dataDir,
    RAMP_SESSION_SECRET: randomBytes(32).toString('hex'),
    ...(url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema! } : { DATABASE_URL: '' }),
  };
  return { env, apiKey, schema };
}

/** JSON calls with the API key to any of the processes. */
export const apiCaller =
  (apiKey: string) =>
  async (base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

// The real server (`server/main.ts`) as child processes for the multi-process tests: each on its own port, its own data
// dir, and (on PostgreSQL) its own schema, all removed after the test; every process still running is killed after the file
// (test/support/server-child.ts).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { generateApiKey } from '../../../server/domain/api-keys';
import { scaledMs, spawnServer } from '../../support/server-child';
import { individual, taxIdEndingIn } from '../harness';
import { individualInfo, JPG, PDF, PNG } from '../kyc-helpers';

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

export type Call = ReturnType<typeof apiCaller>;

/** An APPROVED customer made through a process's API, as a partner would: its id, name, tax id and wallet on `blockchain`. */
/** An individual's documents over HTTP: both sides of an ID card and a bank statement. */
export async function uploadIdentity(base: string, apiKey: string, customerId: string): Promise<void> {
  for (const [fields, bytes] of [
    [{ type: 'ID_CARD', side: 'FRONT_SIDE', country: 'BRA' }, JPG],
    [{ type: 'ID_CARD', side: 'BACK_SIDE', country: 'BRA' }, PNG],
    [{ type: 'BANK_STATEMENT' }, PDF],
  ] as const) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('file', new Blob([new Uint8Array(bytes)]), 'doc');
    const res = await fetch(`${base}/v2/customers/${customerId}/documents`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
    assert.equal(res.status, 201, await res.text());
  }
}

export async function approvedCustomer(call: Call, apiKey: string, base: string, blockchain = 'BASE'): Promise<{ id: string; name: string; taxId: string; wallet: string }> {
  const { body: c } = await call(base, 'POST', '/v2/customers', individual({ taxId: taxIdEndingIn('cpf', 0) }));
  assert.equal((await call(base, 'PATCH', `/v2/customers/${c.id}/additional-information`, individualInfo())).status, 200);
  await uploadIdentity(base, apiKey, c.id);
  assert.equal((await call(base, 'POST', `/v2/sandbox/customers/${c.id}/liveness`)).status, 200);
  assert.equal((await call(base, 'POST', `/v2/sandbox/customers/${c.id}/review`, { outcome: 'APPROVED' })).status, 200);
  const { body } = await call(base, 'GET', `/v2/customers/${c.id}`);
  return { id: c.id, name: c.name, taxId: c.taxId, wallet: body.wallets.find((w: { blockchain: string }) => w.blockchain === blockchain).address };
}

/** Probes every 200 ms until it answers something, or fails after `ms` (scaled on a slow machine) with the process's last output. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined | false>, proc?: ServerProcess, ms = 60_000): Promise<T> {
  const end = Date.now() + scaledMs(ms);
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}\n${proc?.tail().slice(-3000) ?? ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The signal that ended the process (null when it exited by itself), once it has ended. */
export const killedBySignal = (p: ServerProcess) =>
  new Promise<string | null>((resolve) => (p.child.exitCode !== null || p.child.signalCode !== null ? resolve(p.child.signalCode) : p.child.once('exit', (_c, s) => resolve(s))));

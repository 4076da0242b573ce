// Issue 9 "Done when" 4: three server processes on one PostgreSQL database under steady keyed writes. One is
// SIGKILLed, every backend is terminated, the database stops for three seconds and starts again (a private instance
// of the test's own; where none can run, a TCP proxy in front of DATABASE_URL is cut and restored). No process exits
// on its own, every acknowledged write is there, the ledger sums to zero, no idempotency key has two effects,
// requests during the outage get 503 and succeed after it.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { scaledMs } from '../support/server-child';
import pg from 'pg';
import { generateApiKey } from '../../server/domain/api-keys';
import { individual, taxIdEndingIn } from './harness';
import { individualInfo, JPG, PDF, PNG } from './kyc-helpers';
import { startPrivatePostgres } from './support/private-postgres';
import { startTcpProxy, viaProxy } from './support/tcp-proxy';

const url = process.env.DATABASE_URL;
const skip = !url ? 'CHAOS TEST SKIPPED: needs PostgreSQL (DATABASE_URL); PGlite is one in-process database, not shared by processes' : false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  child: ChildProcess;
  base: string;
  killed: boolean;
  exitedOnItsOwn: boolean;
  tail: string;
  /** Lines where the process's last resort caught an error: each would have been a crash. */
  lastResort: string[];
}

const procs: Proc[] = [];
const killAll = () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
};

/** The database the processes share, and how it goes away and comes back. */
interface Database {
  url: string;
  outage: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function openDatabase(t: TestContext): Promise<Database> {
  const own = await startPrivatePostgres();
  if (!('unavailable' in own)) return { ...own, outage: 'a private instance stopped and started' };
  t.diagnostic(`no private PostgreSQL (${own.unavailable}): the outage is a TCP proxy cut in front of DATABASE_URL, not a stop and start`);
  const u = new URL(url!);
  const proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
  return {
    url: viaProxy(url!, proxy.port),
    outage: 'a TCP proxy cut and restored',
    stop: async () => proxy.cut(),
    start: async () => proxy.restore(),
    close: () => proxy.close(),
  };
}

/** One statement on a connection of its own: the test's connections die with the database too. */
async function adminQuery(connectionString: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

async function startProc(env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc: Proc = { child, base: '', killed: false, exitedOnItsOwn: false, tail: '', lastResort: [] };
  procs.push(proc);
  // Always drained: a full pipe would block the server.
  const keep = (d: Buffer) => {
    proc.tail = (proc.tail + d).slice(-20_000);
    for (const line of String(d).split('\n')) if (/the process keeps serving/.test(line)) proc.lastResort.push(line.slice(0, 1000));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', () => {
    if (!proc.killed) proc.exitedOnItsOwn = true;
  });
  for (const deadline = Date.now() + scaledMs(120_000); Date.now() < deadline && !proc.base; ) {
    const m = /"port":(\d+)/.exec(proc.tail);
    if (m) proc.base = `http://127.0.0.1:${m[1]}`;
    else if (child.exitCode !== null) throw new Error(`server exited during start: ${proc.tail}`);
    else await sleep(100);
  }
  if (!proc.base) throw new Error(`server did not start: ${proc.tail}`);
  return proc;
}

test('three processes, SIGKILL, terminated backends and a database outage: no lost, doubled or unbalanced write', { skip, timeout: 90_000 }, async (t) => {
  const schema = `ramp_chaos_${process.pid}_${randomBytes(3).toString('hex')}`;
  const appName = `ramp_chaos_${process.pid}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ramp-chaos-'));
  const db = await openDatabase(t);
  const adminUrl = new URL(db.url);
  adminUrl.searchParams.set('options', `-c search_path=${schema}`);
  const admin = (text: string, params?: unknown[]) => adminQuery(adminUrl.toString(), text, params);
  t.after(async () => {
    killAll();
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const serverUrl = new URL(db.url);
  serverUrl.searchParams.set('application_name', appName);

  const apiKey = generateApiKey('sandbox');
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    RAMP_API_KEY: apiKey,
    RAMP_SESSION_SECRET: randomBytes(32).toString('hex'),
    RAMP_WALLET_SEED: randomBytes(32).toString('hex'),
    RAMP_DATA_DIR: dataDir,
    RAMP_LOG_LEVEL: 'info',
    DATABASE_URL: serverUrl.toString(),
    DATABASE_SCHEMA: schema,
    RAMP_DB_CONNECT_TIMEOUT_MS: '1000',
    RAMP_DB_POOL_SIZE: '5',
    RAMP_SANDBOX_STEP_MS: '200',
    // The test decides the review itself: the sandbox's own one could come first on a busy machine.
    RAMP_SANDBOX_REVIEW_MS: '600000',
    // Writes as fast as the processes answer, well over 100 a second on an idle machine: the limit is not what is tested.
    RAMP_RATE_LIMIT_API_KEY: '100000/1',
  };
  await Promise.all([startProc(env), startProc(env), startProc(env)]);
  const auth = { authorization: `Bearer ${apiKey}` };
  const call = async (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...auth, ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
  };

  // A customer with wallets and 10,000 USDT on BASE, through the first process.
  const a = procs[0]!.base;
  // A CPF ending in 1 would never start review in sandbox; the test approves it itself.
  const id = (await call(a, 'POST', '/v2/customers', individual({ taxId: taxIdEndingIn('cpf', 0) }))).body.id as string;
  assert.equal((await call(a, 'PATCH', `/v2/customers/${id}/additional-information`, individualInfo())).status, 200);
  for (const [fields, bytes] of [
    [{ type: 'ID_CARD', side: 'FRONT_SIDE', country: 'BRA' }, JPG],
    [{ type: 'ID_CARD', side: 'BACK_SIDE', country: 'BRA' }, PNG],
    [{ type: 'BANK_STATEMENT' }, PDF],
  ] as const) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('file', new Blob([new Uint8Array(bytes)]), 'doc');
    const up = await call(a, 'POST', `/v2/customers/${id}/documents`, form);
    assert.equal(up.status, 201, up.text);
  }
  for (const [path, body] of [
    [`/v2/sandbox/customers/${id}/liveness`, undefined],
    [`/v2/sandbox/customers/${id}/review`, { outcome: 'APPROVED' }],
    ['/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'BASE', stablecoin: 'USDT', amount: '10000' }],
  ] as const) {
    const res = await call(a, 'POST', path, body);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
  }

  // Steady writes: each writer sends keyed transfers to its process, retrying a key (on any live process) until it is acknowledged.
  const acked = new Map<string, string>();
  const unexpected: string[] = [];
  const duringOutage: number[] = [];
  const afterOutage: number[] = [];
  let cut = false;
  let restoredAt = 0;
  let stop = false;
  const transfer = { currency: 'USDT', from: id, to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '1', blockchain: 'BASE' };
  const deliver = async (key: string, w: number) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const live = procs.filter((p) => !p.killed);
      const p = live[(w + attempt) % live.length]!;
      const cutAtStart = cut;
      let status = 0;
      let text = '';
      try {
        const res = await call(p.base, 'POST', '/v2/transactions/transfer', transfer, { 'idempotency-key': key });
        ({ status, text } = res);
        if (status === 201) acked.set(key, res.body.id);
      } catch (err) {
        text = String(err);
      }
      if (cutAtStart && cut) duringOutage.push(status);
      if (restoredAt && !cutAtStart && Date.now() > restoredAt) afterOutage.push(status);
      if (status === 201) return;
      const retryable = status === 503 || (status === 0 && p.killed) || (status === 409 && /IDEMPOTENCY_IN_PROGRESS/.test(text));
      if (!retryable) unexpected.push(`${key} via ${p.base}: ${status} ${text.slice(0, 300)}`);
      await sleep(100);
    }
    unexpected.push(`${key}: never acknowledged`);
  };
  const writers = [0, 1, 2].map(async (w) => {
    for (let n = 0; !stop; n++) await deliver(`chaos-${w}-${n}`, w);
  });

  await sleep(1500);
  // 1. SIGKILL one process (its requests in flight are retried elsewhere with the same key).
  procs[2]!.killed = true;
  procs[2]!.child.kill('SIGKILL');
  await sleep(1500);
  // 2. Terminate every backend of the service.
  const terminated = await admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [appName]);
  assert.ok(terminated.rows.length > 0);
  await sleep(1500);
  // 3. The database goes away for three seconds, then comes back. Only requests made while it is surely away count
  // as during the outage: from when the stop has finished to when the start begins.
  await db.stop();
  cut = true;
  await sleep(3000);
  const readyDuring = await call(procs[0]!.base, 'GET', '/readyz');
  cut = false;
  await db.start();
  restoredAt = Date.now();
  await sleep(3000);
  stop = true;
  await Promise.all(writers);

  t.diagnostic(`outage: ${db.outage}; acknowledged ${acked.size}; during the outage ${duringOutage.length} answers (${[...new Set(duringOutage)]}); after it ${afterOutage.length}; backends terminated ${terminated.rows.length}`);
  // No process exited on its own; the two left drain and exit 0 on SIGTERM.
  for (const p of procs) assert.equal(p.exitedOnItsOwn, false, `a process exited on its own: ${p.tail.slice(-2000)}`);
  assert.deepEqual(procs.flatMap((p) => p.lastResort), [], 'no error reached the last resort');
  const logged = procs.flatMap((p) => p.tail.split('\n').filter((line) => /"level":50/.test(line)));
  assert.deepEqual(unexpected, [], `the servers' errors:\n${logged.join('\n').slice(-6000)}`);
  assert.equal(readyDuring.status, 503);
  assert.ok(duringOutage.length > 0, 'requests were made during the outage');
  assert.deepEqual([...new Set(duringOutage)], [503], 'every request during the outage answered 503');
  assert.ok(afterOutage.includes(201), 'writes succeed after the outage');
  assert.ok(acked.size > 10, `steady writes (${acked.size} acknowledged)`);

  // Every acknowledged write is there, once; every key has at most one effect.
  const { rows: txs } = await admin(`SELECT id FROM transactions WHERE type = 'TRANSFER'`);
  const { rows: keys } = await admin(`SELECT key, (response_body::json)->>'id' AS id FROM idempotency_keys WHERE key LIKE 'chaos-%' AND state = 'COMPLETE'`);
  const txIds = new Set(txs.map((r) => r.id as string));
  for (const [key, txId] of acked) assert.ok(txIds.has(txId), `acknowledged ${key} → ${txId} is stored`);
  assert.equal(new Set(keys.map((k) => k.id)).size, keys.length, 'no two keys answer the same transaction');
  assert.equal(txIds.size, keys.length, 'one transaction per completed key: no key moved money twice, no transfer without its key');
  for (const k of keys) if (acked.has(k.key)) assert.equal(acked.get(k.key), k.id);
  // The ledger balances: every asset sums to zero, every balance equals its entries.
  const { rows: sums } = await admin(`SELECT blockchain, asset, sum(amount)::text AS sum FROM ledger_entries GROUP BY 1, 2`);
  for (const s of sums) assert.equal(Number(s.sum), 0, `${s.blockchain} ${s.asset} sums to ${s.sum}`);
  const { rows: drift } = await admin(`
    SELECT b.account, (b.balance - COALESCE(SUM(e.amount), 0))::text AS drift FROM ledger_balances b
    LEFT JOIN ledger_entries e ON e.partner_id = b.partner_id AND e.account = b.account AND e.blockchain = b.blockchain AND e.asset = b.asset
    GROUP BY b.account, b.blockchain, b.asset, b.balance`);
  for (const d of drift) assert.equal(Number(d.drift), 0, `${d.account} drifts by ${d.drift}`);
  const balance = (await call(a, 'GET', `/v2/customers/${id}?includeBalances=true`)).body.wallets
    .find((w: { blockchain: string }) => w.blockchain === 'BASE')
    .balances.find((b: { stablecoin: string }) => b.stablecoin === 'USDT').balance;
  assert.equal(Number(balance), 10000 - txIds.size);

  for (const p of procs.filter((p) => !p.killed)) {
    p.killed = true;
    const exited = new Promise<number | null>((r) => p.child.on('exit', (code) => r(code)));
    p.child.kill('SIGTERM');
    assert.equal(await exited, 0);
  }
});

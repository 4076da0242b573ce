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
import { scaledMs, serverArgs } from '../support/server-child';
import { Decimal } from 'decimal.js';
import pg from 'pg';
import { generateApiKey } from '../../server/domain/api-keys';
import { answerContext } from '../../server/http/idempotency';
import { Tokens } from '../../server/tokens';
import { individual } from './harness';
import { startPrivatePostgres } from './support/private-postgres';
import { approvedCustomer } from './support/server-process';
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
  const child = spawn(process.execPath, serverArgs(), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** A server process's environment on DATABASE_URL in `schema`, with `extra`; writes as fast as the processes answer. */
function sharedEnv(apiKey: string, schema: string, dataDir: string, extra: Record<string, string>) {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    RAMP_API_KEY: apiKey,
    RAMP_SESSION_SECRET: randomBytes(32).toString('hex'),
    RAMP_WALLET_SEED: randomBytes(32).toString('hex'),
    RAMP_DATA_DIR: dataDir,
    RAMP_LOG_LEVEL: 'info',
    DATABASE_URL: url!,
    DATABASE_SCHEMA: schema,
    RAMP_DB_POOL_SIZE: '5',
    RAMP_RATE_LIMIT_API_KEY: '100000/1',
    ...extra,
  };
}

/** Three processes on `env` into `into`: the first alone (it migrates), then two more. */
async function startThree(into: Proc[], env: Record<string, string>): Promise<void> {
  into.push(await startProc(env));
  into.push(...(await Promise.all([startProc(env), startProc(env)])));
}

type Call = ReturnType<typeof caller>;

/** A client of the processes' API with `apiKey`: JSON or a form, answered as status, text and parsed body. */
function caller(apiKey: string) {
  return async (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
  };
}

/** An APPROVED customer (support/server-process.ts) with `usdt` USDT on BASE, made through `base`. */
async function fundedCustomer(call: Call, apiKey: string, base: string, usdt: string): Promise<string> {
  const { id } = await approvedCustomer(call, apiKey, base);
  const res = await call(base, 'POST', '/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'BASE', stablecoin: 'USDT', amount: usdt });
  assert.equal(res.status, 200, res.text);
  return id;
}

/** The completed keys starting with `prefix` and the transaction id each answered (stored answers are sealed, server/tokens.ts). */
async function answeredIds(admin: (text: string) => Promise<pg.QueryResult>, prefix: string, sessionSecret: string): Promise<{ key: string; id: string }[]> {
  const box = new Tokens(sessionSecret).idempotencyAnswers;
  const { rows } = await admin(`SELECT partner_id::text AS p, key, response_body AS b FROM idempotency_keys WHERE key LIKE '${prefix}%' AND state = 'COMPLETE'`);
  return rows.map((r) => ({ key: r.key as string, id: JSON.parse(box.open(r.b as string, answerContext(r.p as string, r.key as string))!).id as string }));
}

/** The ledger balances: every asset sums to zero, every balance equals its entries. */
async function assertLedgerBalanced(admin: (text: string) => Promise<pg.QueryResult>) {
  const { rows: sums } = await admin(`SELECT blockchain, asset, sum(amount)::text AS sum FROM ledger_entries GROUP BY 1, 2`);
  for (const s of sums) assert.equal(new Decimal(s.sum).isZero(), true, `${s.blockchain} ${s.asset} sums to ${s.sum}`);
  const { rows: drift } = await admin(`
    SELECT b.account, (b.balance - COALESCE(SUM(e.amount), 0))::text AS drift FROM ledger_balances b
    LEFT JOIN ledger_entries e ON e.partner_id = b.partner_id AND e.account = b.account AND e.blockchain = b.blockchain AND e.asset = b.asset
    GROUP BY b.account, b.blockchain, b.asset, b.balance`);
  for (const d of drift) assert.equal(new Decimal(d.drift).isZero(), true, `${d.account} drifts by ${d.drift}`);
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
  const env = sharedEnv(apiKey, schema, dataDir, {
    DATABASE_URL: serverUrl.toString(),
    RAMP_DB_CONNECT_TIMEOUT_MS: '1000',
    RAMP_SANDBOX_STEP_MS: '200',
    // The test decides the review itself: the sandbox's own one could come first on a busy machine.
    RAMP_SANDBOX_REVIEW_MS: '600000',
  });
  await Promise.all([startProc(env), startProc(env), startProc(env)]);
  const call = caller(apiKey);

  // A customer with wallets and 10,000 USDT on BASE, through the first process.
  const a = procs[0]!.base;
  const id = await fundedCustomer(call, apiKey, a, '10000');

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
  const keys = await answeredIds(admin, 'chaos-', env.RAMP_SESSION_SECRET);
  const txIds = new Set(txs.map((r) => r.id as string));
  for (const [key, txId] of acked) assert.ok(txIds.has(txId), `acknowledged ${key} → ${txId} is stored`);
  assert.equal(new Set(keys.map((k) => k.id)).size, keys.length, 'no two keys answer the same transaction');
  assert.equal(txIds.size, keys.length, 'one transaction per completed key: no key moved money twice, no transfer without its key');
  for (const k of keys) if (acked.has(k.key)) assert.equal(acked.get(k.key), k.id);
  await assertLedgerBalanced(admin);
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

// Issue 33 item 1, "slow receiver": three processes deliver webhooks while one partner's two endpoints hang every request
// (10 s timeout, as in production) behind a backlog of its events, and one process is SIGKILLed half-way. Another partner's
// events each reach its healthy endpoint within seconds of their creation, and none is lost.
test('slow receiver: while one partner’s endpoints hang, another partner’s webhooks arrive within seconds, through a SIGKILL', { skip, timeout: 180_000 }, async (t) => {
  const schema = `ramp_chaos_slow_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ramp-chaos-slow-'));
  const mine: Proc[] = [];
  const hanging: import('node:http').ServerResponse[] = [];
  const got: { at: number; id: string }[] = [];
  let hung = 0;
  const { createServer } = await import('node:http');
  const listen = async (handler: Parameters<typeof createServer>[1]) => {
    const s = createServer(handler);
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return { s, url: `http://127.0.0.1:${(s.address() as import('node:net').AddressInfo).port}/hook` };
  };
  const dead = await listen((req, res) => {
    req.resume();
    hung++;
    hanging.push(res);
  });
  const healthy = await listen((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ at: Date.now(), id: JSON.parse(body).data.id });
      res.writeHead(200).end();
    });
  });
  t.after(async () => {
    killAll();
    for (const r of hanging) r.destroy();
    for (const { s } of [dead, healthy]) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
    const dropUrl = new URL(url!);
    await adminQuery(dropUrl.toString(), `DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const apiKey = generateApiKey('sandbox');
  await startThree(mine, sharedEnv(apiKey, schema, dataDir, { RAMP_WEBHOOK_TIMEOUT_MS: '10000' }));
  const call = async (base: string, key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
  };
  const base = (i: number) => mine.filter((p) => !p.killed)[i % mine.filter((p) => !p.killed).length]!.base;

  // The slow partner: two endpoints that never answer, and a backlog of 40 events for them.
  for (let i = 0; i < 2; i++) assert.equal((await call(base(i), apiKey, 'POST', '/v2/webhook-endpoints', { url: dead.url, events: ['customer.created'] })).status, 201);
  for (let i = 0; i < 40; i++) assert.equal((await call(base(i), apiKey, 'POST', '/v2/customers', individual())).status, 201);
  // The other partner, with a healthy endpoint.
  const other = await call(base(0), apiKey, 'POST', '/v2/sandbox/partners', { name: 'healthy partner' });
  assert.equal(other.status, 201, other.text);
  const key = other.body.apiKey as string;
  assert.equal((await call(base(1), key, 'POST', '/v2/webhook-endpoints', { url: healthy.url, events: ['customer.created'] })).status, 201);
  for (const deadline = Date.now() + scaledMs(15_000); hung < 2; ) {
    if (Date.now() > deadline) throw new Error('the hanging endpoints were never called');
    await sleep(50);
  }

  const bound = scaledMs(5000);
  const lags: number[] = [];
  for (let i = 0; i < 10; i++) {
    if (i === 4) {
      mine[2]!.killed = true;
      mine[2]!.child.kill('SIGKILL');
    }
    const created = Date.now();
    const res = await call(base(i), key, 'POST', '/v2/customers', individual());
    assert.equal(res.status, 201, res.text);
    const id = res.body.id as string;
    for (;;) {
      const arrived = got.find((g) => g.id === id);
      if (arrived) {
        lags.push(arrived.at - created);
        break;
      }
      assert.ok(Date.now() - created < bound, `event ${i + 1} of the healthy partner did not arrive within ${bound} ms while the other partner's endpoints hang (${hung} requests held)`);
      await sleep(20);
    }
  }
  t.diagnostic(`healthy endpoint: creation to arrival ${lags.join(', ')} ms; requests held by the hanging endpoints: ${hung}`);
  assert.equal(new Set(got.map((g) => g.id)).size, 10, 'every event of the healthy partner arrived');
  for (const p of mine) assert.equal(p.exitedOnItsOwn, false, `a process exited on its own: ${p.tail.slice(-2000)}`);
});

// Issue 33 item 2, "opposite transfers": three processes move USDT between two customers in both directions at once (A→B
// and B→A lock the same two rows in opposite orders), and one process is SIGKILLed half-way. No answer is a 500 (a
// deadlock victim is run again inside the service), every keyed transfer is acknowledged once, and the two balances are
// what the acknowledged transfers say.
test('opposite transfers: A→B and B→A at once on three processes, through a SIGKILL: none 500, each once, the balances exact', { skip, timeout: 120_000 }, async (t) => {
  const schema = `ramp_chaos_opposite_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ramp-chaos-opposite-'));
  const adminUrl = new URL(url!);
  adminUrl.searchParams.set('options', `-c search_path=${schema}`);
  const admin = (text: string, params?: unknown[]) => adminQuery(adminUrl.toString(), text, params);
  const mine: Proc[] = [];
  t.after(async () => {
    for (const p of mine) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await adminQuery(url!, `DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const apiKey = generateApiKey('sandbox');
  const env = sharedEnv(apiKey, schema, dataDir, { RAMP_SANDBOX_REVIEW_MS: '600000' });
  await startThree(mine, env);
  const call = caller(apiKey);
  const [a, b] = [await fundedCustomer(call, apiKey, mine[0]!.base, '1000'), await fundedCustomer(call, apiKey, mine[1]!.base, '1000')];

  const acked = new Map<string, { id: string; from: string }>();
  const unexpected: string[] = [];
  let stop = false;
  const deliver = async (key: string, from: string, to: string, w: number) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const live = mine.filter((p) => !p.killed);
      const p = live[(w + attempt) % live.length]!;
      let status = 0;
      let text = '';
      try {
        const res = await call(p.base, 'POST', '/v2/transactions/transfer', { currency: 'USDT', from, to, amount: '1', blockchain: 'BASE' }, { 'idempotency-key': key });
        ({ status, text } = res);
        if (status === 201) acked.set(key, { id: res.body.id, from });
      } catch (err) {
        text = String(err);
      }
      if (status === 201) return;
      const retryable = (status === 0 && p.killed) || (status === 409 && /IDEMPOTENCY_IN_PROGRESS/.test(text));
      if (!retryable) unexpected.push(`${key} via ${p.base}: ${status} ${text.slice(0, 300)}`);
      await sleep(50);
    }
    unexpected.push(`${key}: never acknowledged`);
  };
  // Six writers, three each way, each on its own process in turn.
  const writers = [0, 1, 2, 3, 4, 5].map(async (w) => {
    const [from, to] = w % 2 ? [a, b] : [b, a];
    for (let n = 0; !stop; n++) await deliver(`opposite-${w}-${n}`, from, to, w);
  });
  await sleep(1500);
  mine[2]!.killed = true;
  mine[2]!.child.kill('SIGKILL');
  await sleep(2500);
  stop = true;
  await Promise.all(writers);

  const logged = mine.flatMap((p) => p.tail.split('\n').filter((line) => /"level":50/.test(line)));
  assert.deepEqual(unexpected, [], `the servers' errors:\n${logged.join('\n').slice(-6000)}`);
  for (const p of mine) assert.equal(p.exitedOnItsOwn, false, `a process exited on its own: ${p.tail.slice(-2000)}`);
  const aToB = [...acked.values()].filter((x) => x.from === a).length;
  const bToA = acked.size - aToB;
  t.diagnostic(`acknowledged ${aToB} A→B and ${bToA} B→A`);
  assert.ok(aToB > 5 && bToA > 5, `both ways ran (${aToB} A→B, ${bToA} B→A)`);
  const keys = await answeredIds(admin, 'opposite-', env.RAMP_SESSION_SECRET);
  const { rows: txs } = await admin(`SELECT id FROM transactions WHERE type = 'TRANSFER'`);
  assert.equal(txs.length, keys.length, 'one transfer per completed key');
  for (const [key, { id }] of acked) assert.ok(txs.some((r) => r.id === id), `acknowledged ${key} → ${id} is stored`);
  // A transfer debits at once and credits when it completes (its steps run as jobs on the processes left): wait for all.
  for (const deadline = Date.now() + scaledMs(60_000); ; await sleep(200)) {
    const { rows } = await admin(`SELECT count(*)::int AS n FROM transactions WHERE type = 'TRANSFER' AND status <> 'SUCCESS'`);
    if (rows[0].n === 0) break;
    assert.ok(Date.now() < deadline, `${rows[0].n} transfers still not SUCCESS`);
  }
  await assertLedgerBalanced(admin);
  const usdt = async (id: string) =>
    new Decimal((await call(mine[0]!.base, 'GET', `/v2/customers/${id}?includeBalances=true`)).body.wallets.find((w: { blockchain: string }) => w.blockchain === 'BASE').balances.find((x: { stablecoin: string }) => x.stablecoin === 'USDT').balance);
  const stored = (from: string) => keys.filter((k) => [...acked.entries()].some(([key, v]) => key === k.key && v.from === from)).length;
  assert.equal(stored(a), aToB);
  assert.equal((await usdt(a)).toFixed(6), new Decimal(1000).minus(aToB).plus(bToA).toFixed(6));
  assert.equal((await usdt(b)).toFixed(6), new Decimal(1000).minus(bToA).plus(aToB).toFixed(6));
});

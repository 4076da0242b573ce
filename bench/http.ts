// HTTP benchmark: requests/s and p99 of the real app's hot paths as a ratio of a bare node:http server answering the
// same bytes, measured in the same run and interleaved (bare, app, bare, app). The load generator is autocannon
// (bench/load.mjs) in this process; the floor (bench/bare.mjs) and the server under test (bench/server.ts, bundled) each
// run in a child process of their own, and the server's RSS alone is reported. PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise. Writes bench/results.json.
// BENCH_DURATION_MS, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_WARMUP_MS and BENCH_LIST_ROWS tune the run;
// BENCH_SERVER_CPUS and BENCH_LOAD_CPUS pin the servers and the load generator apart (bench/pin.mjs).
import { writeFileSync } from 'node:fs';
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
// @ts-expect-error: plain JavaScript without types
import { load } from './load.mjs';
// @ts-expect-error: plain JavaScript without types
import { loadCpus, pin, pinning, serverCpus } from './pin.mjs';
import { generateApiKey } from '../server/domain/api-keys';
import { nodeFlags } from '../scripts/node-flags.mjs';

/**
 * The customer read must keep at least this share of bare node:http's throughput (autocannon's floor): a regression
 * guard, far under issue 14's targets (those are in the README table). PGlite plans the read's statement every time.
 */
const FLOOR_RATIO = { postgres: 0.02, pglite: 0.005 };
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2000);
/** Customers of the partner for the list-at-scale case (seeded with generate_series): 10k first, then this many. */
const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? (process.env.DATABASE_URL ? 1_000_000 : 200_000));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

interface Load {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A second request with the first answer's id in `idField` (lock + on-ramp pairs). */
  then?: { url: string; method: string; body: unknown; idField: string };
  /** Per connection, fields that replace the body's (and `then`'s) own: one customer per client. */
  perConnection?: Record<string, unknown>[];
}
interface Result {
  rps: number;
  p99: number;
}

/** Interleaved rounds per hot path (floor, app, floor, app, …), after an unmeasured warm-up of both of this long. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 2000);

const measure = (l: Load): Promise<Result> => load({ ...l, connections: CONNECTIONS, durationMs: DURATION_MS });
/** The unmeasured warm-up before a case's rounds: the JIT compiles its path here, not in a measured round. */
const warm = (l: Load): Promise<Result> => load({ ...l, connections: CONNECTIONS, durationMs: WARMUP_MS, warmupMs: 0 });
const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function hasPgbench(): boolean {
  try {
    execFileSync('pgbench', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

pin(process.pid, loadCpus);
// The bare floor, in a process of its own, answers whatever bytes the current case's app answer has.
const bare = fork(new URL('./bare.mjs', import.meta.url).pathname, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
pin(bare.pid, serverCpus);
const barePort = await new Promise<number>((resolve) => bare.once('message', (m: { port: number }) => resolve(m.port)));
const setBareBody = (body: Buffer) =>
  new Promise<void>((resolve) => {
    bare.once('message', () => resolve());
    bare.send({ body: body.toString('base64') });
  });

const apiKey = generateApiKey('sandbox');
const databaseUrl = process.env.DATABASE_URL ?? '';

// The server under test: bench/server.ts bundled as npm start bundles the server (plain JavaScript, no tsx in it), in a child process.
const root = new URL('..', import.meta.url).pathname;
execFileSync(process.execPath, [`${root}scripts/build-server.mjs`, 'bench/server.ts', 'dist/bench/server.js'], { stdio: 'inherit' });
// The flags `npm start` gives node for this database (not this process's own: its tsx loader would run in the server too).
const START_FLAGS = nodeFlags();
/** On PostgreSQL the hot paths and lock + on-ramp run a second time with this many server processes (RAMP_WORKERS). */
const WORKERS = databaseUrl ? Number(process.env.BENCH_WORKERS ?? availableParallelism()) : 1;

interface BenchServer {
  kind: 'pglite' | 'postgres';
  workers: number;
  partnerId: string;
  base: string;
  customerId: string;
  /** A customer per client, for the read spread over many customers. */
  readerIds: string[];
  ask: <T = void>(m: Record<string, unknown>) => Promise<T>;
  execute: (text: string) => Promise<void>;
}

async function startServer(workers: number): Promise<BenchServer> {
  const child: ChildProcess = fork(`${root}dist/bench/server.js`, [], { execArgv: START_FLAGS, env: { ...process.env, BENCH_API_KEY: apiKey, DATABASE_URL: databaseUrl, BENCH_WORKERS: String(workers) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  pin(child.pid, serverCpus);
  const ready = await new Promise<{ port: number; partnerId: string; kind: 'pglite' | 'postgres' }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; partnerId: string; kind: 'pglite' | 'postgres' }));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  let asks = 0;
  const ask = <T = void>(m: Record<string, unknown>): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = ++asks;
      const on = (r: { id?: number; ok: boolean; value?: T; error?: string }) => {
        if (r.id !== id) return;
        child.off('message', on);
        if (r.ok) resolve(r.value as T);
        else reject(new Error(r.error));
      };
      child.on('message', on);
      child.send({ id, ...m });
    });
  const base = `http://127.0.0.1:${ready.port}`;
  const created = await fetch(`${base}/v2/customers`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'INDIVIDUAL', name: 'Ana Souza', taxId: '529.982.247-25', birthDate: '1990-05-17' }),
  });
  const { id } = (await created.json()) as { id: string };
  // Customers for the reads spread over a customer per client.
  const readers = await createCustomers(base, 'Bench Reader', 0, CONNECTIONS, 200_000_000);
  return { kind: ready.kind, workers, partnerId: ready.partnerId, base, customerId: id, readerIds: readers, ask, execute: (text) => ask({ sql: text }) };
}

const auth = { authorization: `Bearer ${apiKey}` };

/** Customers `from`…`to − 1` of the bench's partner (INDIVIDUAL, Portuguese, tax ids counted from `taxIdBase`): their ids. */
async function createCustomers(base: string, name: string, from: number, to: number, taxIdBase: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < to; i++) {
    const res = await fetch(`${base}/v2/customers`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'INDIVIDUAL', name: `${name} ${i}`, country: 'PRT', taxId: `PT${String(taxIdBase + i)}`, birthDate: '1990-05-17' }),
    });
    const created = (await res.json()) as { id?: string };
    if (!created.id) throw new Error(`creating ${name} ${i}: ${res.status} ${JSON.stringify(created)}`);
    ids.push(created.id);
  }
  return ids;
}
type Row = { name: string; workers: number; rps: number; p99: number; bareRps: number; ratio: number };

/** The hot paths, each interleaved with the floor answering the same bytes; and the server's peak RSS meanwhile. */
async function hotPaths(s: BenchServer): Promise<{ rows: Row[]; peakRss: number }> {
  const { base, customerId: id, kind } = s;
  const cases: { name: string; load: Load }[] = [
    { name: 'GET /healthz', load: { url: `${base}/healthz` } },
    { name: `customer read with balances and limits (${kind})`, load: { url: `${base}/v2/customers/${id}?includeBalances=true&includeTransactionLimits=true`, headers: auth } },
    {
      // The same read, each client reading a customer of its own (the one above has all clients read one customer).
      name: `customer read, a customer per client (${kind})`,
      load: { url: `${base}/v2/customers/${id}?includeBalances=true&includeTransactionLimits=true`, headers: auth, perConnection: s.readerIds.map((r) => ({ path: `/v2/customers/${r}?includeBalances=true&includeTransactionLimits=true` })) },
    },
    {
      name: `floating quote (${kind})`,
      load: { url: `${base}/v2/exchange-rates`, method: 'POST', headers: auth, body: { customerId: id, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1000.00' } },
    },
  ];
  await s.ask({ peakRss: true }); // from here on: the server's peak under load
  const rows: Row[] = [];
  for (const c of cases) {
    const sample = await fetch(c.load.url, { method: c.load.method, headers: { ...c.load.headers, ...(c.load.body ? { 'content-type': 'application/json' } : {}) }, body: c.load.body ? JSON.stringify(c.load.body) : undefined });
    const bareBody = Buffer.from(await sample.arrayBuffer());
    if (!sample.ok) throw new Error(`${c.name}: ${sample.status} ${bareBody.toString()}`);
    await setBareBody(bareBody);
    const bareLoad = { ...c.load, url: `http://127.0.0.1:${barePort}/` };
    // Both warmed up first (unmeasured), so that no round measures the JIT compiling this case's path.
    await warm(c.load);
    await warm(bareLoad);
    const apps: Result[] = [];
    const bares: Result[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bares.push(await measure(bareLoad));
      apps.push(await measure(c.load));
    }
    // Medians: of each side's req/s, and of the rounds' ratios (each round's app against the floor measured just before it).
    rows.push({ name: c.name, workers: s.workers, rps: median(apps.map((r) => r.rps)), p99: Math.max(...apps.map((r) => r.p99)), bareRps: median(bares.map((r) => r.rps)), ratio: median(apps.map((r, i) => r.rps / bares[i]!.rps)) });
  }
  return { rows, peakRss: await s.ask<number>({ peakRss: true }) };
}

/**
 * Lock + on-ramp pairs: a LOCKED quote and the on-ramp that uses it, per loop, from every connection, for APPROVED
 * customers (set in SQL, with limits raised so that the run never hits them); and the server's peak RSS meanwhile.
 * `customers`: 1, every connection works for the same customer, so every on-ramp waits for that customer's row lock
 * (the worst case); CONNECTIONS, each connection is a customer of its own (many end users at once).
 */
async function lockAndOnRamp(s: BenchServer, customers: number): Promise<{ customers: number; rps: number; p99: number; peakRss: number }> {
  const { base, partnerId } = s;
  const ids = [s.customerId, ...(await createCustomers(base, 'Bench Customer', 1, customers, 100_000_000))];
  const list = ids.map((id) => `'${id}'`).join(',');
  await s.execute(`UPDATE customers SET verification_status = 'APPROVED' WHERE id IN (${list})`);
  await s.execute(`INSERT INTO limit_overrides (partner_id, customer_id, single, daily, monthly) SELECT '${partnerId}', id, 1000000000, 1000000000000, 1000000000000 FROM customers WHERE id IN (${list}) ON CONFLICT DO NOTHING`);
  const lock = { customerId: ids[0], type: 'LOCKED', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' };
  const pairLoad: Load = {
    url: `${base}/v2/exchange-rates`,
    method: 'POST',
    headers: auth,
    body: lock,
    then: { url: `${base}/v2/transactions/on-ramp`, method: 'POST', body: { customerId: ids[0], purpose: 'INVESTMENT', rail: 'PIX' }, idField: 'exchangeRateId' },
    ...(customers > 1 ? { perConnection: ids.map((customerId) => ({ customerId })) } : {}),
  };
  await s.ask({ peakRss: true }); // earlier work (seeding) is not this load: the peak restarts here
  await warm(pairLoad);
  const runs: Result[] = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await measure(pairLoad));
  return { customers, rps: median(runs.map((r) => r.rps)), p99: Math.max(...runs.map((r) => r.p99)), peakRss: await s.ask<number>({ peakRss: true }) };
}

const server = await startServer(1);
const { rows, peakRss } = await hotPaths(server);

type Pairs = { customers: number; workers: number; rps: number; p99: number; peakRss: number; ratio?: number };
const pairRuns: Pairs[] = [];
// Several server processes (RAMP_WORKERS), PostgreSQL only: the hot paths and lock + on-ramp again, before the list's
// million rows are seeded and dropped (their clean-up would run under these measurements).
let several: { workers: number; rows: Row[]; peakRss: number } | undefined;
if (WORKERS > 1) {
  const s = await startServer(WORKERS);
  const h = await hotPaths(s);
  several = { workers: WORKERS, rows: h.rows, peakRss: h.peakRss };
  for (const customers of [1, CONNECTIONS]) pairRuns.push({ ...(await lockAndOnRamp(s, customers)), workers: WORKERS });
  await s.ask({ stop: true });
}

// Lock + on-ramp pairs, for one customer and for one customer per client; their floor is pgbench's TPC-B on the same
// server with the same clients. Before the list's rows are seeded: on PostgreSQL their clean-up (autovacuum) would run
// under these measurements, and on PGlite the seeded pages stay in the process's WebAssembly heap, which
// never shrinks (the RSS reported here is the on-ramps', not the seed's).
for (const customers of [1, CONNECTIONS]) pairRuns.push({ ...(await lockAndOnRamp(server, customers)), workers: 1 });

/** Seeds customers of the bench's partner (one in a thousand TEMPORARY_REJECTION, the rest spread), in SQL: generate_series, not the API. */
async function seedCustomers(from: number, to: number): Promise<void> {
  const statuses = `(ARRAY['NOT_STARTED','UNDER_VERIFICATION','APPROVED','TEMPORARY_REJECTION','FINAL_REJECTION'])`;
  for (let start = from; start < to; start += 100_000) {
    const end = Math.min(to, start + 100_000) - 1;
    await server.execute(
      `INSERT INTO customers (id, partner_id, type, name, tax_id, verification_status)
        SELECT gen_random_uuid(), '${server.partnerId}', CASE WHEN i % 3 = 0 THEN 'BUSINESS' ELSE 'INDIVIDUAL' END, 'Seed ' || i, 'seed' || lpad(i::text, 10, '0'), CASE WHEN i % 1000 = 7 THEN 'TEMPORARY_REJECTION' ELSE ${statuses}[1 + i % 3] END
        FROM generate_series(${start}, ${end}) AS i`,
    );
  }
  // Vacuumed, analysed and written out now, so that neither an autovacuum of the seeded rows nor the writing of their
  // dirty pages runs under the measurement that follows (CHECKPOINT needs a superuser or pg_checkpoint: best effort).
  await server.execute('VACUUM ANALYZE customers');
  await server.execute('CHECKPOINT').catch(() => undefined);
}
const listLoad: Load = { url: `${server.base}/v2/customers?status=TEMPORARY_REJECTION&size=10`, headers: auth };
/** After a warm-up, ROUNDS runs: their median req/s (one run slowed by the host's other tenants does not decide the ratio) and worst p99. */
const listAt = async (): Promise<Result> => {
  await warm(listLoad);
  const runs: Result[] = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await measure(listLoad));
  return { rps: median(runs.map((r) => r.rps)), p99: Math.max(...runs.map((r) => r.p99)) };
};
await seedCustomers(0, 10_000);
const small = await listAt();
const seedStarted = performance.now();
await seedCustomers(10_000, LIST_ROWS);
const seedSeconds = (performance.now() - seedStarted) / 1000;
const large = await listAt();
const slowdown = small.rps / large.rps;

// The server drops the bench's schema (and its million rows) and exits.
await server.ask({ stop: true });
let pgbenchTps: number | undefined;
if (server.kind === 'postgres' && hasPgbench()) {
  const db = `ramp_pgbench_${process.pid}`;
  const url = new URL(databaseUrl);
  const args = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres')];
  try {
    execFileSync('createdb', [...args, db], { stdio: 'ignore' });
    execFileSync('pgbench', [...args, '-i', '-q', '-s', '1', db], { stdio: 'ignore' });
    const tps = (secs: number) => {
      const out = execFileSync('pgbench', [...args, '-c', String(CONNECTIONS), '-j', '2', '-T', String(secs), '-n', db], { encoding: 'utf8' });
      return Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN);
    };
    const secs = Math.max(1, Math.round(DURATION_MS / 1000));
    pgbenchTps = median(Array.from({ length: ROUNDS }, () => tps(secs)));
    for (const p of pairRuns) p.ratio = p.rps / pgbenchTps;
  } finally {
    try {
      execFileSync('dropdb', [...args, '--if-exists', db], { stdio: 'ignore' });
    } catch {}
  }
}

console.log(`${pinning()}\n`);
console.log(`| path | req/s | p99 ms | bare node:http req/s | ratio |`);
console.log(`|---|---|---|---|---|`);
for (const r of [...rows, ...(several?.rows ?? [])]) console.log(`| ${r.name}${r.workers > 1 ? `, ${r.workers} processes` : ''} | ${r.rps.toFixed(0)} | ${r.p99.toFixed(1)} | ${r.bareRps.toFixed(0)} | ${r.ratio.toFixed(3)}× |`);
console.log(`\nGET /v2/customers?status=TEMPORARY_REJECTION (1 row in 1000): ${small.rps.toFixed(0)} req/s (p99 ${small.p99.toFixed(1)} ms) at 10k rows, ${large.rps.toFixed(0)} req/s (p99 ${large.p99.toFixed(1)} ms) at ${LIST_ROWS} rows (seeded in ${seedSeconds.toFixed(0)} s): ${slowdown.toFixed(2)}× slower`);
for (const p of pairRuns) {
  const who = p.customers === 1 ? `one customer for all ${CONNECTIONS} clients` : `a customer per client (${p.customers})`;
  console.log(`lock + on-ramp, ${who}, ${p.workers} process${p.workers > 1 ? 'es' : ''}: ${p.rps.toFixed(0)} pairs/s (p99 ${p.p99.toFixed(1)} ms)${p.ratio ? `: ${p.ratio.toFixed(3)}× pgbench TPC-B (${pgbenchTps!.toFixed(0)} tps, ${CONNECTIONS} clients)` : ' (pgbench: PostgreSQL only, and only when installed)'}; peak RSS ${(p.peakRss / 2 ** 20).toFixed(0)} MB`);
}
console.log(`peak RSS of the server under load on the hot paths: ${(peakRss / 2 ** 20).toFixed(0)} MB${several ? `; ${several.workers} processes together: ${(several.peakRss / 2 ** 20).toFixed(0)} MB` : ''}`);
const results = JSON.stringify({ measuredAt: new Date().toISOString(), store: server.kind, connections: CONNECTIONS, durationMs: DURATION_MS, rows: [...rows, ...(several?.rows ?? [])], list: { rows: LIST_ROWS, at10k: small, atScale: large, slowdown }, lockOnRamp: { pgbenchTps, runs: pairRuns.map((p) => ({ ...p, peakRssMb: p.peakRss / 2 ** 20 })) }, peakRssMb: peakRss / 2 ** 20, ...(several ? { severalPeakRssMb: several.peakRss / 2 ** 20 } : {}) }, null, 2);
// The last run, and the last run per store (the chart, bench/chart.mjs, shows both).
writeFileSync(new URL('./results.json', import.meta.url), results);
writeFileSync(new URL(`./results-${server.kind}.json`, import.meta.url), results);
bare.send({ stop: true });
const read = rows[1]!;
if (read.ratio < FLOOR_RATIO[server.kind]) {
  console.error('http: under the floor');
  process.exit(1);
}

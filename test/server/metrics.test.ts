// Issue 34, metrics: the real server process with RAMP_METRICS_PORT serves Prometheus text at /metrics on a listener of its
// own (never on the public port); after real requests (a quote, a 404 with an id in its path, a path nothing matches,
// refused keys up to a 429, a webhook delivered to a local receiver) the scrape has the series and labels docs/operating.md names,
// with route templates, never ids. Under RAMP_WORKERS (PostgreSQL only) the supervisor's one scrape sums every process.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../server/config';
import { generateApiKey } from '../../server/domain/api-keys';
import { AppError } from '../../server/domain/errors';
import { scaledMs, type ServerChild, spawnServer } from '../support/server-child';
import { createLogger } from '../../server/logger';
import { createMetrics } from '../../server/metrics';
import { enqueueJob } from '../../server/store/queries/jobs';
import { type ChainNode, startChainNode } from './support/chain-node';
import { PspDouble } from './support/psp-double';
import { type PixPsp, PspRefusedError, PspUnavailableError } from '../../server/domain/pix/pix-psp';
import { JobRunner } from '../../server/workers/runner';
import { individual, openTestStore, startTestServer } from './harness';

const url = process.env.DATABASE_URL;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (what a scraper reads; comments skipped). */
function parseExposition(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

const metricsLog = /"port":(\d+)[^\n]*"msg":"metrics listening"/;

/** The metrics port, from the line the server logs once that listener is up. */
async function metricsPort(s: ServerChild): Promise<number> {
  const deadline = Date.now() + scaledMs(60_000);
  for (;;) {
    const m = metricsLog.exec(s.output());
    if (m) return Number(m[1]);
    if (s.child.exitCode !== null || Date.now() > deadline) throw new Error(`no metrics listener logged:\n${s.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function scrape(port: number): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = scaledMs(30_000)): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A fresh schema per server on PostgreSQL, dropped afterwards. */
function storeEnv(prefix: string, cleanups: (() => Promise<void>)[]): Record<string, string> {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (!url) return { RAMP_DATA_DIR: dataDir, DATABASE_URL: '' };
  const schema = `${prefix.replace(/-/g, '_')}_${process.pid}_${randomBytes(3).toString('hex')}`;
  cleanups.push(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  return { RAMP_DATA_DIR: dataDir, DATABASE_URL: url, DATABASE_SCHEMA: schema };
}

describe('metrics on a listener of their own', () => {
  const cleanups: (() => Promise<void>)[] = [];
  const apiKey = generateApiKey('sandbox');
  let server: ServerChild;
  let base: string;
  let port: number;
  const hooks: string[] = [];
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hooks.push(req.url ?? '');
      res.writeHead(204).end();
    });
  });

  before(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    server = spawnServer({
      PORT: '0',
      HOST: '127.0.0.1',
      RAMP_METRICS_PORT: '0',
      RAMP_API_KEY: apiKey,
      RAMP_LOG_LEVEL: 'info',
      // Two refused keys a minute from one address: the third request with a bad key is a 429. The bad keys come from an
      // address of their own (X-Forwarded-For, one proxy trusted), so the other requests stay under no block.
      RAMP_RATE_LIMIT_AUTH_FAILURES: '2/60',
      RAMP_TRUST_PROXY: '1',
      RAMP_WEBHOOK_POLL_MS: '100',
      ...storeEnv('ramp-metrics', cleanups),
    });
    base = `http://127.0.0.1:${await server.port}`;
    port = await metricsPort(server);
  });
  after(async () => {
    await server?.stop();
    for (const c of cleanups.reverse()) await c();
  });

  const api = (method: string, path: string, body?: unknown, key = apiKey, headers: Record<string, string> = {}) =>
    fetch(base + path, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });

  test('after real requests the scrape has each series, labelled by route template and never by an id', async () => {
    const hook = await api('POST', '/v2/webhook-endpoints', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
    assert.equal(hook.status, 201, await hook.text());
    const created = await api('POST', '/v2/customers', individual());
    assert.equal(created.status, 201, await created.text());
    const quote = await api('POST', '/v2/exchange-rates', { type: 'LOCKED', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' });
    assert.equal(quote.status, 200, await quote.text());
    const missingId = randomUUID();
    const missing = await api('GET', `/v2/customers/${missingId}`);
    assert.equal(missing.status, 404, await missing.text());
    const nowhereId = randomUUID();
    const nowhere = await api('GET', `/v2/nothing-here/${nowhereId}`);
    assert.equal(nowhere.status, 404, await nowhere.text());
    // Refused keys until the address is over its budget of refusals.
    const badKey = generateApiKey('sandbox');
    const statuses: number[] = [];
    for (let i = 0; i < 5 && !statuses.includes(429); i++) {
      const r = await api('GET', `/v2/customers/${missingId}`, undefined, badKey, { 'x-forwarded-for': '203.0.113.7' });
      await r.text();
      statuses.push(r.status);
    }
    assert.ok(statuses.includes(429), `a 429 after refused keys: ${statuses.join(', ')}`);

    // The delivery's outcome is counted once it is recorded, a moment after the receiver answered.
    const samples = await eventually('the webhook delivery to be counted', async () => {
      const s = parseExposition((await scrape(port)).text);
      return (find(s, 'ramp_webhook_deliveries_total', { outcome: 'delivered' })[0]?.value ?? 0) >= 1 && s;
    });
    assert.ok(hooks.length >= 1, 'the receiver got the delivery');
    const res = await scrape(port);
    assert.equal(res.status, 200);
    assert.match(res.type ?? '', /^text\/plain; version=0\.0\.4/);

    const count = (labels: Record<string, string>) => find(samples, 'http_server_request_duration_seconds_count', labels).reduce((n, s) => n + s.value, 0);
    assert.equal(count({ http_request_method: 'POST', http_route: '/v2/exchange-rates', http_response_status_code: '200' }), 1, 'the quote');
    assert.equal(count({ http_request_method: 'POST', http_route: '/v2/customers', http_response_status_code: '201' }), 1, 'the customer');
    assert.equal(count({ http_request_method: 'GET', http_route: '/v2/customers/:id', http_response_status_code: '404' }), 1, 'the 404 of an id, by its template');
    // A refused key is answered by the /v2 middleware, and still counted under the route it asked for.
    assert.ok(count({ http_request_method: 'GET', http_route: '/v2/customers/:id', http_response_status_code: '401' }) >= 1, 'the 401s under their route');
    assert.equal(count({ http_request_method: 'GET', http_route: '/v2/customers/:id', http_response_status_code: '429' }), 1, 'the 429 under its route');
    assert.equal(count({ http_request_method: 'GET', http_route: 'unknown', http_response_status_code: '404' }), 1, 'a path no route matches is `unknown`');
    const buckets = find(samples, 'http_server_request_duration_seconds_bucket', { http_route: '/v2/exchange-rates' });
    assert.ok(buckets.some((b) => b.labels.le === '+Inf' && b.value === 1) && buckets.some((b) => b.labels.le === '0.005'), 'a histogram with OpenTelemetry\'s buckets');
    // No label anywhere carries an id of the requests.
    for (const id of [missingId, nowhereId]) assert.ok(!res.text.includes(id), `the id ${id} is not in the scrape`);
    for (const s of find(samples, 'http_server_request_duration_seconds_count')) assert.doesNotMatch(s.labels.http_route!, /[0-9a-f]{8}-[0-9a-f]{4}-/, 'a template, not a path');

    assert.ok(find(samples, 'ramp_rate_limited_total', { budget: 'authFailures' })[0]!.value >= 1, 'the 429 by its budget');
    assert.equal(find(samples, 'ramp_rate_limited_total', { budget: 'apiKey' })[0]?.value, 0, 'every budget present from the start');
    for (const outcome of ['retrying', 'exhausted']) assert.equal(find(samples, 'ramp_webhook_deliveries_total', { outcome })[0]?.value, 0, outcome);
    for (const gauge of ['ramp_webhook_queue_depth', 'ramp_jobs_due']) {
      const g = find(samples, gauge);
      assert.equal(g.length, 1, gauge);
      assert.ok(Number.isInteger(g[0]!.value) && g[0]!.value >= 0, `${gauge} = ${g[0]!.value}`);
    }
    const pool = ['ramp_db_pool_total', 'ramp_db_pool_idle', 'ramp_db_pool_waiting'].map((n) => find(samples, n));
    // PostgreSQL: pg.Pool's own counts (the requests above opened connections); PGlite has no pool: no such series.
    if (url) assert.ok(pool[0]![0]!.value >= 1 && pool[2]![0]!.value >= 0, JSON.stringify(pool));
    else assert.deepEqual(pool, [[], [], []]);
    assert.ok(find(samples, 'process_cpu_seconds_total').length === 1 && find(samples, 'nodejs_eventloop_lag_seconds').length === 1, 'process and runtime series');
  });

  test('a webhook queue that grows shows in ramp_webhook_queue_depth within the cache interval', async () => {
    // An endpoint that refuses everything: each event leaves a delivery pending, waiting for its retry.
    const dead = await api('POST', '/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/closed' });
    assert.equal(dead.status, 201, await dead.text());
    for (let i = 0; i < 3; i++) assert.equal((await api('POST', '/v2/customers', individual())).status, 201);
    await eventually('pending deliveries in the gauge', async () => (find(parseExposition((await scrape(port)).text), 'ramp_webhook_queue_depth')[0]?.value ?? 0) >= 3);
  });


  test('/metrics is not served on the public port, and the metrics listener serves nothing else', async () => {
    const pub = await fetch(`${base}/metrics`);
    const text = await pub.text();
    assert.equal(pub.status, 404);
    assert.doesNotMatch(text, /# TYPE|http_server_request_duration_seconds/);
    for (const path of ['/', '/healthz', '/v2/customers']) assert.equal((await fetch(`http://127.0.0.1:${port}${path}`)).status, 404, path);
  });
});

test('RAMP_METRICS_PORT may not be the public port; unset, no metrics listener starts', async (t) => {
  assert.throws(() => loadConfig({ PORT: '9100', RAMP_METRICS_PORT: '9100' }), /RAMP_METRICS_PORT: must differ from PORT/);
  assert.equal(loadConfig({ PORT: '9100', RAMP_METRICS_PORT: '9101' }).RAMP_METRICS_HOST, '127.0.0.1');
  assert.throws(() => loadConfig({ RAMP_METRICS_PORT: 'x' }), /RAMP_METRICS_PORT/);
  const cleanups: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const c of cleanups.reverse()) await c();
  });
  const s = spawnServer({ PORT: '0', HOST: '127.0.0.1', RAMP_METRICS_PORT: '', RAMP_LOG_LEVEL: 'info', ...storeEnv('ramp-nometrics', cleanups) });
  cleanups.push(() => s.stop());
  await s.port;
  assert.doesNotMatch(s.output(), /metrics listening/);
});

/** One request on a fresh connection (so that connections spread over the processes). */
function ask(port: number, apiKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/v2/customers?size=1', headers: { authorization: `Bearer ${apiKey}` }, agent: new Agent({ keepAlive: false }) }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('several server processes: one scrape target', { skip: url ? false : 'SKIPPED: several server processes need PostgreSQL (set DATABASE_URL)' }, () => {
  test('the supervisor serves every process\'s metrics summed; the processes serve none of their own', async (t) => {
    const cleanups: (() => Promise<void>)[] = [];
    t.after(async () => {
      for (const c of cleanups.reverse()) await c();
    });
    const apiKey = generateApiKey('sandbox');
    const s = spawnServer({ PORT: '0', HOST: '127.0.0.1', RAMP_WORKERS: '2', RAMP_METRICS_PORT: '0', RAMP_API_KEY: apiKey, RAMP_LOG_LEVEL: 'info', ...storeEnv('ramp-metrics-cluster', cleanups) });
    cleanups.push(() => s.stop());
    const port = await s.port;
    const mport = await metricsPort(s);
    await eventually('both processes listening', async () => /all server processes listening/.test(s.output()));
    assert.equal(s.output().match(/metrics listening/g)?.length, 1, 'one metrics listener, the supervisor\'s');
    const n = 40;
    for (let i = 0; i < n; i++) assert.equal(await ask(port, apiKey), 200);
    // Both processes answered some (each request log line carries its pid).
    const pids = new Set([...s.output().matchAll(/"pid":(\d+)[^\n]*"msg":"request"/g)].map((m) => m[1]));
    assert.equal(pids.size, 2, 'both processes served');
    const samples = parseExposition((await scrape(mport)).text);
    const counted = find(samples, 'http_server_request_duration_seconds_count', { http_route: '/v2/customers', http_request_method: 'GET', http_response_status_code: '200' });
    assert.equal(counted.length, 1, find(samples, 'http_server_request_duration_seconds_count').map((x) => JSON.stringify(x)).join('\n'));
    assert.equal(counted[0]!.value, n, 'every process\'s requests, summed');
    assert.ok(find(samples, 'ramp_db_pool_total')[0]!.value >= 2, 'both pools');
  });
});

test('jobs due are counted from the database; each run is counted by kind and outcome', async (t) => {
  const opened = await openTestStore();
  const server = await startTestServer({}, { store: opened.store });
  t.after(async () => {
    await server.close();
    await opened.drop();
  });
  const { store } = opened;
  const logger = createLogger('silent');
  const metrics = createMetrics({ store, logger });
  const gauge = async (name: string) => find(parseExposition(await metrics.registry.metrics()), name)[0]?.value;
  const partnerId = server.deps.partnerId!;
  const past = new Date(Date.now() - 1000);
  for (const kind of ['ok', 'ok', 'flaky', 'refused']) await enqueueJob(store.db, { partnerId, kind, payload: {}, runAt: past });
  await enqueueJob(store.db, { partnerId, kind: 'ok', payload: {}, runAt: new Date(Date.now() + 3_600_000) });
  assert.equal(await gauge('ramp_jobs_due'), 4, 'due now, not the one due in an hour');
  const clock = { now: () => new Date(), within: <T>(_offsetMs: number, fn: () => Promise<T>) => fn() };
  const runner = new JobRunner(store.db, clock, logger, {
    ok: async () => undefined,
    flaky: async () => {
      throw new Error('the rail did not answer');
    },
    refused: async () => {
      throw new AppError('INVALID_STATE', 'refused');
    },
  }, { metrics, maxAttempts: 5 });
  assert.equal(await runner.runDue(), 4);
  const runs = async (kind: string, outcome: string) => find(parseExposition(await metrics.registry.metrics()), 'ramp_job_runs_total', { kind, outcome })[0]?.value;
  assert.equal(await runs('ok', 'done'), 2);
  assert.equal(await runs('flaky', 'retry'), 1);
  assert.equal(await runs('refused', 'parked'), 1);
});

describe("the rails' health: the PSP and the chain node", () => {
  const cleanups: (() => Promise<void>)[] = [];
  const double = new PspDouble();
  let chain: ChainNode;
  let server: ServerChild;
  let port: number;

  before(async () => {
    await double.start();
    cleanups.push(() => double.close());
    const seed = randomBytes(32).toString('hex');
    chain = await startChainNode({ chainId: 31_406, blockchain: 'BASE', seed, usdc: '1000' });
    cleanups.push(() => chain.stop());
    server = spawnServer({
      PORT: '0',
      HOST: '127.0.0.1',
      RAMP_METRICS_PORT: '0',
      RAMP_API_KEY: generateApiKey('sandbox'),
      RAMP_LOG_LEVEL: 'info',
      RAMP_PUBLIC_URL: 'https://ramp.example',
      RAMP_WALLET_SEED: seed,
      RAMP_CHAIN_POLL_MS: '100',
      ...double.env(),
      ...chain.env(undefined, 1),
      ...storeEnv('ramp-metrics-rails', cleanups),
    });
    cleanups.push(() => server.stop());
    port = await metricsPort(server);
  });
  after(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  test('the PSP: calls counted by operation and outcome, and the last success stamped; the chain: its node answered and its watch 0 blocks behind', async () => {
    // At start the PIX monitor registers the webhook with the PSP; the chain monitor scans deposits.
    const text = await eventually('the rails in a scrape', async () => {
      const t = (await scrape(port)).text;
      return /ramp_pix_psp_calls_total\{operation="configureWebhook",outcome="ok"\} [1-9]/.test(t) && /ramp_chain_blocks_behind\{blockchain="BASE"\} 0\b/.test(t) && t;
    });
    const stamp = /^ramp_pix_psp_last_success_timestamp_seconds ([0-9.e+]+)$/m.exec(text);
    assert.ok(stamp && Math.abs(Number(stamp[1]) - Date.now() / 1000) < 600, 'the PSP answered recently');
    assert.match(text, /^ramp_chain_rpc_last_success_timestamp_seconds\{blockchain="BASE"\} [0-9.e+]+$/m);
  });
});

test('a PSP call that fails is counted by why: unavailable (no answer, 5xx), refused (4xx), error', async (t) => {
  const opened = await openTestStore();
  t.after(() => opened.drop());
  const metrics = createMetrics({ store: opened.store, logger: createLogger('silent') });
  const psp = metrics.watchPsp({
    getCharge: async () => null,
    createCharge: async () => {
      throw new PspUnavailableError('PUT /cob: 503');
    },
    refund: async () => {
      throw new PspRefusedError(400, 'PUT /pix/x/devolucao/y: 400');
    },
    removeCharge: async () => {
      throw new Error('a bug');
    },
  } as unknown as PixPsp);
  await psp.getCharge('t');
  for (const call of [() => psp.createCharge({} as never), () => psp.refund({} as never), () => psp.removeCharge('t')]) await assert.rejects(call);
  await new Promise((r) => setImmediate(r));
  const series = find(parseExposition(await metrics.registry.metrics()), 'ramp_pix_psp_calls_total').map((x) => `${x.labels.operation} ${x.labels.outcome} ${x.value}`);
  assert.deepEqual(series.sort(), ['createCharge unavailable 1', 'getCharge ok 1', 'refund refused 1', 'removeCharge error 1']);
});


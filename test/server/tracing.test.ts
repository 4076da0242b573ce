// Issue 34, traces and logs: the bundled server started as `npm start` starts it with OTEL_TRACES_EXPORTER=otlp (node-flags
// adds the tracing preload) sends OTLP/HTTP JSON to a receiver in this test; a request carrying a W3C `traceparent` has its
// server span in the caller's trace, named by route, with a database span beneath it (pg's instrumentation on PostgreSQL,
// the preload's own spans on PGlite), and the request's log line carries its trace id. Without the variable, no preload.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { nodeFlags } from '../../scripts/node-flags.mjs';
import { generateApiKey } from '../../server/domain/api-keys';
import { scaledMs, type ServerChild, spawnServer } from '../support/server-child';
import { individual, taxIdEndingIn } from './harness';
import { individualInfo } from './kyc-helpers';
import { uploadIdentity } from './support/server-process';

const root = new URL('../..', import.meta.url).pathname;
const url = process.env.DATABASE_URL;

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

const cleanups: (() => Promise<void> | void)[] = [];
const spans: OtlpSpan[] = [];
/** The `traceparent` of each webhook post the receiver got at /hook. */
const hookParents: (string | undefined)[] = [];
let server: ServerChild;
let base: string;
const apiKey = generateApiKey('sandbox');

/** A minimal OTLP/HTTP receiver: JSON bodies at /v1/traces, their spans kept. */
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.url === '/hook') hookParents.push(req.headers.traceparent as string | undefined);
    if (req.url === '/v1/traces' && /json/.test(req.headers['content-type'] ?? '')) {
      const data = JSON.parse(body) as { resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[] };
      for (const rs of data.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  // The bundle as `npm start` runs it, in a folder of its own (other tests build dist/server).
  const out = `dist/tracing-test-${process.pid}`;
  cleanups.push(() => rmSync(join(root, out), { recursive: true, force: true }));
  execFileSync(process.execPath, [join(root, 'scripts/build-server.mjs'), 'server/main.ts', `${out}/main.js`], { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'ramp-tracing-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const schema = `ramp_tracing_${process.pid}_${randomBytes(3).toString('hex')}`;
  if (url) {
    cleanups.push(async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });
  }
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    RAMP_API_KEY: apiKey,
    RAMP_DATA_DIR: dataDir,
    RAMP_LOG_LEVEL: 'info',
    ...(url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : { DATABASE_URL: '' }),
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    // Spans leave a few times a second, so the test need not wait the default 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_SERVICE_NAME: 'ramp-under-test',
    // The verification review after a liveness check is a job: it runs soon.
    RAMP_SANDBOX_REVIEW_MS: '300',
  };
  server = spawnServer(env, { args: [...nodeFlags(env, join(root, out, 'tracing-preload.js')), join(root, out, 'main.js')] });
  cleanups.push(() => server.stop());
  base = `http://127.0.0.1:${await server.port}`;
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function eventually<T>(what: string, check: () => T | undefined | false): Promise<T> {
  const deadline = Date.now() + scaledMs(30_000);
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; spans: ${spans.map((s) => `${s.name} ${s.traceId}`).join(', ')}\n${server.output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('nodeFlags adds the tracing preload only when OTEL_TRACES_EXPORTER names an exporter', () => {
  assert.ok(!nodeFlags({}).includes('--import'));
  assert.ok(!nodeFlags({ OTEL_TRACES_EXPORTER: 'none' }).includes('--import'));
  assert.deepEqual(nodeFlags({ OTEL_TRACES_EXPORTER: 'otlp' }).slice(-2), ['--import', './dist/server/tracing-preload.js']);
});

test('a request with a traceparent: its server span in the caller\'s trace, named by route, a database span beneath, its log line with the trace id', async () => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  const res = await fetch(`${base}/v2/customers?size=1`, { headers: { authorization: `Bearer ${apiKey}`, traceparent: `00-${traceId}-${parentId}-01` } });
  assert.equal(res.status, 200, await res.text());

  const serverSpan = await eventually('the server span', () => spans.find((s) => s.traceId === traceId && s.kind === 2));
  assert.equal(serverSpan.parentSpanId, parentId, 'the caller\'s span is its parent');
  assert.equal(serverSpan.name, 'GET /v2/customers');
  const route = serverSpan.attributes?.find((a) => a.key === 'http.route')?.value;
  assert.deepEqual(route, { stringValue: '/v2/customers' });
  // A database span whose ancestors lead to the server span.
  const isBeneath = (s: OtlpSpan): boolean => {
    for (let p: OtlpSpan | undefined = s, i = 0; p && i < 20; p = spans.find((x) => x.spanId === p!.parentSpanId), i++) if (p.parentSpanId === serverSpan.spanId) return true;
    return false;
  };
  // A statement's span (pg's instrumentation also spans the pool's connect, which is not one).
  const statement = url ? /^pg\.query/ : /^pglite\.(query|exec)/;
  const dbSpan = await eventually('a database statement span beneath it', () =>
    spans.find((s) => s.traceId === traceId && statement.test(s.name) && s.attributes?.some((a) => a.key.startsWith('db.system')) && isBeneath(s)),
  );
  assert.ok(dbSpan.attributes?.some((a) => a.key === 'db.query.text' || a.key === 'db.statement'), 'the statement\'s text (with placeholders, never values)');

  const line = await eventually('the request log line', () =>
    server
      .output()
      .split('\n')
      .find((l) => l.includes('"msg":"request"') && l.includes(`"trace_id":"${traceId}"`)),
  );
  assert.match(line, /"span_id":"[0-9a-f]{16}"/);
  assert.match(line, /"route":"\/v2\/customers"/);
});

test('a webhook post carries a traceparent of its own client span', async () => {
  const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const hook = await fetch(`${base}/v2/webhook-endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` }) });
  const created = await hook.text();
  assert.equal(hook.status, 201, created);
  const sent = await fetch(`${base}/v2/webhook-endpoints/${(JSON.parse(created) as { id: string }).id}/test`, { method: 'POST', headers: auth, body: '{}' });
  assert.ok(sent.status < 300, await sent.text());
  const parent = await eventually('a webhook post', () => hookParents.find(Boolean));
  const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(parent) ?? [];
  assert.ok(traceId, parent);
  const client = await eventually('the post\'s client span', () => spans.find((s) => s.spanId === spanId && s.traceId === traceId));
  assert.equal(client.kind, 3, 'a client span');
});

test('a job runs in a span of its own, named by its kind, with its statements beneath it', async () => {
  const auth = { authorization: `Bearer ${apiKey}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const created = await fetch(`${base}/v2/customers`, { method: 'POST', headers: json, body: JSON.stringify(individual({ taxId: taxIdEndingIn('cpf', 0) })) });
  const { id } = (await created.json()) as { id: string };
  assert.equal(created.status, 201);
  const info = await fetch(`${base}/v2/customers/${id}/additional-information`, { method: 'PATCH', headers: json, body: JSON.stringify(individualInfo()) });
  assert.equal(info.status, 200, await info.text());
  await uploadIdentity(base, apiKey, id);
  const liveness = await fetch(`${base}/v2/sandbox/customers/${id}/liveness`, { method: 'POST', headers: auth });
  assert.equal(liveness.status, 200, await liveness.text());

  const job = await eventually('the review job\'s span', () =>
    spans.find((s) => s.name === 'job verification.review' && s.attributes?.some((a) => a.key === 'ramp.job.kind' && a.value.stringValue === 'verification.review')),
  );
  assert.equal(job.kind, 5, 'a consumer span');
  const statement = url ? /^pg\.query/ : /^pglite\.(query|exec)/;
  await eventually('a statement beneath the job span', () => spans.find((s) => s.traceId === job.traceId && s.parentSpanId === job.spanId && statement.test(s.name)));
});


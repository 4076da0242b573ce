// What the Prometheus metrics cost on the hot paths (issue 34: within 5 %): two bench servers at once, one with
// BENCH_METRICS=1 (every request observed, as RAMP_METRICS_PORT runs it) and one without, measured interleaved against the
// bare node:http floor: per round bare, off, bare, on (the order of off and on alternating by round). A measurement's
// ratio is its req/s over the floor's measured just before it, so a machine that slows between rounds moves both sides;
// printed: the median ratio of each side and the median of the rounds' on/off. PostgreSQL when DATABASE_URL is set.
// `node --import tsx bench/metrics-ab.ts`; BENCH_ROUNDS (default 4), BENCH_DURATION_MS, BENCH_CONNECTIONS tune it.
// AB_CONTROL=1 runs the same with metrics off on both sides (an A/A): how far two identical servers differ on this machine.
// AB_NO_PROCESS_METRICS=1: the "on" side without prom-client's process and runtime series (GC observer, event-loop monitor).
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
// @ts-expect-error: plain JavaScript without types
import { load } from './load.mjs';
import { generateApiKey } from '../server/domain/api-keys';
import { nodeFlags } from '../scripts/node-flags.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const root = new URL('..', import.meta.url).pathname;
const apiKey = generateApiKey('sandbox');
const auth = { authorization: `Bearer ${apiKey}` };
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

execFileSync(process.execPath, [`${root}scripts/build-server.mjs`, 'bench/server.ts', 'dist/bench/server.js'], { stdio: 'inherit' });

const bare = fork(new URL('./bare.mjs', import.meta.url).pathname, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const barePort = await new Promise<number>((resolve) => bare.once('message', (m: { port: number }) => resolve(m.port)));
const setBareBody = (body: Buffer) =>
  new Promise<void>((resolve) => {
    bare.once('message', () => resolve());
    bare.send({ body: body.toString('base64') });
  });

interface Server {
  child: ChildProcess;
  base: string;
  customerId: string;
}

async function start(metrics: boolean): Promise<Server> {
  const child = fork(`${root}dist/bench/server.js`, [], {
    execArgv: nodeFlags(),
    env: { ...process.env, BENCH_API_KEY: apiKey, BENCH_WORKERS: '1', BENCH_METRICS: metrics ? (process.env.AB_NO_PROCESS_METRICS === '1' ? '2' : '1') : '0' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number }));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  const base = `http://127.0.0.1:${ready.port}`;
  const res = await fetch(`${base}/v2/customers`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'INDIVIDUAL', name: 'Ana Souza', taxId: '529.982.247-25', birthDate: '1990-05-17' }),
  });
  const { id } = (await res.json()) as { id: string };
  return { child, base, customerId: id };
}

const stop = (s: Server) =>
  new Promise<void>((resolve) => {
    s.child.once('exit', () => resolve());
    s.child.send({ id: 1, stop: true });
  });

const off = await start(false);
const on = await start(process.env.AB_CONTROL !== '1');

type Case = { name: string; path: (s: Server) => string; method?: string; body?: (s: Server) => unknown; headers?: Record<string, string> };
const cases: Case[] = [
  { name: 'GET /healthz', path: () => '/healthz' },
  { name: 'customer read', path: (s) => `/v2/customers/${s.customerId}?includeBalances=true&includeTransactionLimits=true`, headers: auth },
  {
    name: 'floating quote',
    path: () => '/v2/exchange-rates',
    method: 'POST',
    headers: auth,
    body: (s) => ({ customerId: s.customerId, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1000.00' }),
  },
];

/** The process's CPU time so far (user + system, in clock ticks of 10 ms), from /proc. */
const cpuTicks = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

const loadOf = (c: Case, s: Server) => ({ url: s.base + c.path(s), method: c.method, headers: c.headers, body: c.body?.(s) });
const measure = (l: object) => load({ ...l, connections: CONNECTIONS, durationMs: DURATION_MS });

const lines: string[] = [];
for (const c of cases) {
  const sample = await fetch(off.base + c.path(off), { method: c.method, headers: { ...c.headers, ...(c.body ? { 'content-type': 'application/json' } : {}) }, body: c.body ? JSON.stringify(c.body(off)) : undefined });
  if (!sample.ok) throw new Error(`${c.name}: ${sample.status} ${await sample.text()}`);
  await setBareBody(Buffer.from(await sample.arrayBuffer()));
  const bareLoad = { url: `http://127.0.0.1:${barePort}/`, method: c.method, headers: c.headers, body: c.body?.(off) };
  for (const l of [bareLoad, loadOf(c, off), loadOf(c, on)]) await load({ ...l, connections: CONNECTIONS, durationMs: DURATION_MS, warmupMs: 0 });
  const ratios = { off: [] as number[], on: [] as number[] };
  const rps = { off: [] as number[], on: [] as number[] };
  // The server's own CPU per request (µs), which the machine's swings move less than req/s.
  const cpu = { off: [] as number[], on: [] as number[] };
  const onOverOff: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order: ('off' | 'on')[] = round % 2 ? ['on', 'off'] : ['off', 'on'];
    const got: Partial<Record<'off' | 'on', number>> = {};
    for (const side of order) {
      const server = side === 'on' ? on : off;
      const floor = (await measure(bareLoad)).rps as number;
      const before = cpuTicks(server.child.pid!);
      const app = (await measure(loadOf(c, server))) as { rps: number; n: number };
      // load() warms up 0.5 s before its measured 2 s: the ticks cover both, so per request of the whole.
      const ticks = cpuTicks(server.child.pid!) - before;
      cpu[side].push((ticks * 10_000) / (app.n * (1 + 500 / DURATION_MS)));
      got[side] = app.rps / floor;
      ratios[side].push(app.rps / floor);
      rps[side].push(app.rps);
    }
    onOverOff.push(got.on! / got.off!);
  }
  const line = `${c.name}: off ${median(ratios.off).toFixed(3)}× (${Math.round(median(rps.off))} req/s, ${median(cpu.off).toFixed(1)} µs CPU/req), on ${median(ratios.on).toFixed(3)}× (${Math.round(median(rps.on))} req/s, ${median(cpu.on).toFixed(1)} µs CPU/req); on/off median ${median(onOverOff).toFixed(3)} [rounds ${onOverOff.map((x) => x.toFixed(3)).join(' ')}]`;
  lines.push(line);
  process.stdout.write(`${line}\n`);
}
await Promise.all([stop(off), stop(on)]);
bare.send({ stop: true });
process.stdout.write(`\n${new Date().toISOString()} ${process.env.AB_CONTROL === '1' ? 'A/A CONTROL (metrics off on both sides), ' : ''}${process.env.AB_NO_PROCESS_METRICS === '1' ? 'on = without process metrics, ' : ''}${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${ROUNDS} rounds of ${DURATION_MS} ms, ${CONNECTIONS} connections\n${lines.join('\n')}\n`);

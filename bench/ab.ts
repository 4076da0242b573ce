// Interleaved A/B of server builds on bench/http.ts's hot paths: each build (a bundle of bench/server.ts, as
// `node scripts/build-server.mjs bench/server.ts dist/ab-x/server.js` makes it from a variant of the tree) runs in a
// process of its own beside the bare floor, and every round measures floor, build, floor, build, … in rotating order,
// so the host's other load falls on all of them alike. A build's figure is its ratio to the floor measured just before
// it, as in bench/http.ts; beside it, the build's own CPU time per request (user + system, from /proc/<pid>/stat),
// which the host's other load moves less than requests/s. Pin with BENCH_SERVER_CPUS / BENCH_LOAD_CPUS (bench/pin.mjs).
// `node --import tsx bench/ab.ts name=dist/ab-a/server.js name=dist/ab-b/server.js …`; BENCH_ROUNDS (default 5),
// BENCH_DURATION_MS, BENCH_CONNECTIONS, BENCH_CASES (comma-separated: quote, read, reads; default quote,read).
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
// @ts-expect-error: plain JavaScript without types
import { load } from './load.mjs';
// @ts-expect-error: plain JavaScript without types
import { loadCpus, pin, pinning, serverCpus } from './pin.mjs';
import { generateApiKey } from '../server/domain/api-keys';
import { nodeFlags } from '../scripts/node-flags.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const CASES = (process.env.BENCH_CASES ?? 'quote,read').split(',');
const builds = process.argv.slice(2).map((arg) => {
  const [name, path] = arg.split('=');
  if (!name || !path) throw new Error(`expected name=bundle, got ${arg}`);
  return { name, path };
});
if (builds.length < 2) throw new Error('give at least two builds: name=dist/ab-x/server.js');

type Load = { url: string; method?: string; headers?: Record<string, string>; body?: unknown; perConnection?: Record<string, unknown>[] };
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** CPU time (user + system) of process `pid` so far, in µs: /proc/<pid>/stat's utime and stime, in clock ticks of 10 ms. */
const cpuMicros = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

pin(process.pid, loadCpus);
const children: ChildProcess[] = [];
// An error mid-run still ends every process this bench started (they would otherwise keep their ports and schemas).
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill()));
const apiKey = generateApiKey('sandbox');
const auth = { authorization: `Bearer ${apiKey}` };

const bare = fork(new URL('./bare.mjs', import.meta.url).pathname, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
children.push(bare);
pin(bare.pid, serverCpus);
const barePort = await new Promise<number>((resolve) => bare.once('message', (m: { port: number }) => resolve(m.port)));
const setBareBody = (body: Buffer) =>
  new Promise<void>((resolve) => {
    bare.once('message', () => resolve());
    bare.send({ body: body.toString('base64') });
  });

async function post(base: string, path: string, body: unknown) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as { id?: string };
  if (!json.id) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.id;
}

/** One build listening, with a customer for the reads and quotes and one per client; `stop` ends it. */
async function start(path: string) {
  const child: ChildProcess = fork(path, [], { execArgv: nodeFlags(), env: { ...process.env, BENCH_API_KEY: apiKey, BENCH_WORKERS: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  pin(child.pid, serverCpus);
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number }));
    child.once('exit', (code) => reject(new Error(`${path} exited (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const id = await post(base, '/v2/customers', { type: 'INDIVIDUAL', name: 'Ana Souza', taxId: '529.982.247-25', birthDate: '1990-05-17' });
  const readers: string[] = [];
  if (CASES.includes('reads')) {
    for (let i = 0; i < CONNECTIONS; i++) readers.push(await post(base, '/v2/customers', { type: 'INDIVIDUAL', name: `Reader ${i}`, country: 'PRT', taxId: `PT${200_000_000 + i}`, birthDate: '1990-05-17' }));
  }
  const read = (cid: string) => `/v2/customers/${cid}?includeBalances=true&includeTransactionLimits=true`;
  const loads: Record<string, Load> = {
    quote: { url: `${base}/v2/exchange-rates`, method: 'POST', headers: auth, body: { customerId: id, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1000.00' } },
    read: { url: `${base}${read(id)}`, headers: auth },
    reads: { url: `${base}${read(id)}`, headers: auth, perConnection: readers.map((r) => ({ path: read(r) })) },
  };
  let asks = 0;
  const stop = () =>
    new Promise<void>((resolve) => {
      child.on('message', (m: { id?: number }) => m.id === asks && resolve());
      child.send({ id: ++asks, stop: true });
    });
  return { loads, stop, pid: child.pid! };
}

const servers: ({ name: string; path: string } & Awaited<ReturnType<typeof start>>)[] = [];
for (const b of builds) servers.push({ ...b, ...(await start(b.path)) });
const run = (l: Load, durationMs = DURATION_MS, warmupMs = 0) => load({ ...l, connections: CONNECTIONS, durationMs, warmupMs }) as Promise<{ rps: number; n: number }>;
/**
 * A measured run after 0.5 s unmeasured, with the CPU time that process `pid` spent per request during it. A run with
 * an answer outside 2xx (on a shared host another tenant's tests can take PostgreSQL's last connections) is run again.
 */
const measure = async (l: Load, pid: number, tries = 3): Promise<{ rps: number; n: number; cpu: number }> => {
  try {
    await run(l, 500);
    const before = cpuMicros(pid);
    const r = await run(l);
    return { ...r, cpu: (cpuMicros(pid) - before) / r.n };
  } catch (err) {
    if (tries <= 1) throw err;
    console.log(`  (run again: ${(err as Error).message})`);
    return measure(l, pid, tries - 1);
  }
};

console.log(`A/B: ${builds.map((b) => b.name).join(' / ')}; ${ROUNDS} rounds of ${DURATION_MS} ms, ${CONNECTIONS} connections, ${pinning()}`);
try {
  for (const name of CASES) {
    const first = servers[0]!.loads[name]!;
    const sample = await fetch(first.url, { method: first.method, headers: { ...first.headers, ...(first.body ? { 'content-type': 'application/json' } : {}) }, body: first.body ? JSON.stringify(first.body) : undefined });
    const bytes = Buffer.from(await sample.arrayBuffer());
    if (!sample.ok) throw new Error(`${name}: ${sample.status} ${bytes}`);
    await setBareBody(bytes);
    const bareLoad = { ...first, url: `http://127.0.0.1:${barePort}/` };
    for (const s of servers) await measure(s.loads[name]!, s.pid);
    await measure(bareLoad, bare.pid!);
    const ratios: number[][] = servers.map(() => []);
    const rps: number[][] = servers.map(() => []);
    const cpu: number[][] = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      // Rotating order: no build is always the one measured right after another build's load.
      for (let k = 0; k < servers.length; k++) {
        const i = (k + round) % servers.length;
        const floor = await measure(bareLoad, bare.pid!);
        const app = await measure(servers[i]!.loads[name]!, servers[i]!.pid);
        ratios[i]!.push(app.rps / floor.rps);
        rps[i]!.push(app.rps);
        cpu[i]!.push(app.cpu);
      }
    }
    console.log(`\n${name}: ratio to bare node:http, median (min–max) of ${ROUNDS} rounds; req/s and server CPU per request, medians`);
    servers.forEach((s, i) => {
      const r = ratios[i]!;
      const paired = (xs: number[], base: number[]) => {
        const q = xs.map((x, j) => x / base[j]!);
        return `${median(q).toFixed(3)} (${Math.min(...q).toFixed(2)}–${Math.max(...q).toFixed(2)})`;
      };
      const vsFirst = i === 0 ? '' : `; ${s.name}/${servers[0]!.name} per round: ratio ${paired(r, ratios[0]!)}, CPU per request ${paired(cpu[i]!, cpu[0]!)}`;
      const us = cpu[i]!;
      console.log(`  ${s.name}: ${median(r).toFixed(3)}× (${Math.min(...r).toFixed(3)}–${Math.max(...r).toFixed(3)}), ${median(rps[i]!).toFixed(0)} req/s, ${median(us).toFixed(1)} µs CPU (${Math.min(...us).toFixed(1)}–${Math.max(...us).toFixed(1)})${vsFirst}`);
    });
  }
} finally {
  // Stopped, not killed: each drops its schema on the way out.
  for (const s of servers) await s.stop();
  bare.send({ stop: true });
}

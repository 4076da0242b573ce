// What measuring a request into the metrics costs, in process (no sockets): the real app built twice, with and without
// metrics; `GET /healthz` through `app.request()` (COST_PATH another GET, on in-memory PGlite: /healthz needs no database,
// and without one the process starts fast enough for valgrind). Bundle it first:
// `node scripts/build-server.mjs bench/metrics-cost.ts dist/mc/metrics-cost.js`.
// `COST_MODE=marks`: counted, not timed (docs/operating.md, "What the metrics cost"): both sides in one process, batch by
// batch, each batch after a call to uv_os_getpriority, so that `valgrind --tool=callgrind --dump-before=uv_os_getpriority`
// writes each batch's instructions to a dump of its own. `COST_MODE=on|off COST_N=n`: one side, warmed up, then n
// requests (two runs with different n give the instructions of one request, start-up and JIT noise included).
// Unset: timed, batches interleaved off/on (order alternating): the median per-request time of each side and the median
// of the batches' on − off.
import { randomBytes } from 'node:crypto';
import { getPriority } from 'node:os';
import { type AppDeps, createApp } from '../server/app';
import { bootstrap, settlementProvider } from '../server/bootstrap';
import { PartnerClock } from '../server/clock';
import { SimulatedMarket } from '../server/domain/rates/simulated-market';
import { openChains } from '../server/flows/chain/chains';
import { sandboxReviewProvider } from '../server/sandbox/review-provider';
import { LocalFileStore } from '../server/store/file-store';
import { Tokens } from '../server/tokens';
import { loadConfig } from '../server/config';
import { generateApiKey } from '../server/domain/api-keys';
import { createLogger } from '../server/logger';
import { createMetrics } from '../server/metrics';
import { openStore, type Store } from '../server/store/db';

const path = process.env.COST_PATH ?? '/healthz';
// Only a database's kind and close for /healthz: nothing on its path reads it.
const store: Store = path === '/healthz' ? ({ kind: 'pglite', db: {}, close: async () => {} } as unknown as Store) : await openStore({ dataDir: 'memory://' });
const config = loadConfig({ RAMP_API_KEY: generateApiKey('sandbox'), RAMP_SESSION_SECRET: randomBytes(32).toString('hex'), RAMP_LOG_LEVEL: 'silent', RAMP_DATA_DIR: '/nonexistent' });
const stubDeps = (): AppDeps => ({
  config,
  rates: new SimulatedMarket({ spreadBps: config.spreadBps }),
  walletSeed: '0'.repeat(64),
  store,
  clock: new PartnerClock(),
  logger: createLogger('silent'),
  tokens: new Tokens(config.RAMP_SESSION_SECRET!),
  files: new LocalFileStore('/nonexistent'),
  reviews: sandboxReviewProvider,
  settlement: settlementProvider(config),
  chains: openChains({ chains: [] }, '0'.repeat(64), () => {
    throw new Error('no chains');
  }),
  apiKey: config.RAMP_API_KEY!,
  partnerId: 'bench',
});
const deps = path === '/healthz' ? stubDeps() : await bootstrap(config, createLogger('silent'), { store });
const off = createApp(deps);
const on = createApp({ ...deps, metrics: createMetrics(deps, { processMetrics: false }) });

async function run(app: typeof on, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await app.request(path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    await res.arrayBuffer();
  }
}

const mode = process.env.COST_MODE;
if (mode === 'on' || mode === 'off') {
  const app = mode === 'on' ? on : off;
  await run(app, 20_000);
  await run(app, Number(process.env.COST_N ?? 0));
} else if (mode === 'marks') {
  // Batches off and on, the order alternating by round.
  const batch = Number(process.env.COST_BATCH ?? 2500);
  await run(off, 10_000);
  await run(on, 10_000);
  for (let r = 0; r < Number(process.env.COST_ROUNDS ?? 8); r++) {
    for (const app of r % 2 ? [on, off] : [off, on]) {
      getPriority();
      await run(app, batch);
    }
  }
  getPriority();
} else {
  const batch = Number(process.env.COST_BATCH ?? 20_000);
  const rounds = Number(process.env.COST_ROUNDS ?? 20);
  await run(off, batch);
  await run(on, batch);
  const time = async (app: typeof on) => {
    const t = performance.now();
    await run(app, batch);
    return ((performance.now() - t) * 1000) / batch;
  };
  const offs: number[] = [];
  const ons: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2) {
      ons.push(await time(on));
      offs.push(await time(off));
    } else {
      offs.push(await time(off));
      ons.push(await time(on));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const diffs = ons.map((x, i) => x - offs[i]!);
  console.log(`${path}, ${rounds} rounds of ${batch}: off ${median(offs).toFixed(2)} µs, on ${median(ons).toFixed(2)} µs, on − off ${median(diffs).toFixed(3)} µs (per round: ${diffs.map((d) => d.toFixed(2)).join(' ')})`);
}
await store.close();

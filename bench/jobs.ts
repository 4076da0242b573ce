// Job-runner benchmark: transaction steps per second through the job queue (claim with FOR UPDATE SKIP LOCKED, run the
// step handler, mark done, the next step enqueued and claimed in turn) against the same step handler called inline, with
// as many at once as the runner has slots, interleaved (inline, runner, inline, runner) in one run. Each round pays
// BENCH_JOB_TRANSACTIONS on-ramps (each then takes three steps to SUCCESS) beside a backlog of open jobs not yet due, as
// a busy service has (BENCH_OPEN_JOBS, due in an hour, like expiries: the load probe had 3,100 open). Steps are due at once (RAMP_SANDBOX_STEP_MS=0). PostgreSQL when DATABASE_URL is set
// (RAMP_JOB_CONCURRENCY slots), embedded PGlite otherwise (one slot). BENCH_ROUNDS tunes it. Writes bench/jobs.json.
import { writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { nextStatus, type TxStatus } from '../server/domain/transactions';
import { stepJob, TX_STEP_JOB } from '../server/flows/transactions';
import { newId } from '../server/ids';
import { jobs } from '../server/store/schema/index';
import { client, startTestServer } from '../test/server/harness';
import { approvedIndividual } from '../test/server/kyc-helpers';

const TRANSACTIONS = Number(process.env.BENCH_JOB_TRANSACTIONS ?? 100);
const OPEN_JOBS = Number(process.env.BENCH_OPEN_JOBS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONCURRENCY = process.env.RAMP_JOB_CONCURRENCY ?? '4';
const server = await startTestServer({ RAMP_SANDBOX_STEP_MS: '0', RAMP_SANDBOX_AUTOPAY_MS: '0', RAMP_JOB_CONCURRENCY: CONCURRENCY, RAMP_LOG_LEVEL: 'warn' });
const { db } = server.deps.store;
const slots = server.deps.store.kind === 'postgres' ? Number(CONCURRENCY) : 1;
const api = client(server, server.apiKey);
const customerId = await approvedIndividual(server, api, server.apiKey);
const rowsOf = <T>(r: unknown): T[] => (r as { rows?: T[] }).rows ?? (r as T[]);
const STEPS_EACH = 3;
// The backlog: open jobs not due for an hour, which a claim must not read one by one.
for (let i = 0; i < OPEN_JOBS; i += 500) {
  const later = new Date(Date.now() + 3_600_000);
  const batch = Array.from({ length: Math.min(500, OPEN_JOBS - i) }, (_, k) => ({ id: newId(), partnerId: server.deps.partnerId!, kind: 'bench.later', payload: {}, runAt: new Date(later.getTime() + i + k) }));
  await db.insert(jobs).values(batch);
}
await db.execute(sql`ANALYZE jobs`); // TRANSFERRING_FIAT → TRADING → TRANSFERRING_STABLECOIN → SUCCESS

/** TRANSACTIONS paid on-ramps, each in TRANSFERRING_FIAT with its first step job enqueued (and its expiry job open). */
async function paidOnRamps(): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < TRANSACTIONS; i++) {
    const res = await api.post('/v2/transactions/on-ramp', { customerId, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
    if (res.status !== 201) throw new Error(`on-ramp: ${res.status} ${res.text}`);
    const paid = await api.post(`/v2/sandbox/transactions/${res.body.id}/pay`);
    if (paid.status !== 200) throw new Error(`pay: ${paid.status} ${paid.text}`);
    ids.push(res.body.id);
  }
  return ids;
}

const succeeded = async (ids: string[]) =>
  rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM transactions WHERE status = 'SUCCESS' AND id IN ${sql.raw(`('${ids.join("','")}')`)}`))[0]!.n;

/** The steps run through the job runner as the service runs it (`start`): steps per second until every one is SUCCESS. */
async function runner(): Promise<number> {
  const ids = await paidOnRamps();
  const start = performance.now();
  server.workers.start();
  while ((await succeeded(ids)) < ids.length) await new Promise((r) => setTimeout(r, 10));
  const rate = (ids.length * STEPS_EACH) / ((performance.now() - start) / 1000);
  await server.workers.stop();
  return rate;
}

/** The same handler, called inline in a transaction of its own per step, `slots` transactions at once: steps per second. */
async function inline(): Promise<number> {
  const ids = await paidOnRamps();
  // The queued first steps are not this round's to run: the handler is called directly.
  await db.execute(sql`UPDATE jobs SET done_at = now() WHERE kind = ${TX_STEP_JOB} AND done_at IS NULL`);
  const partnerId = server.deps.partnerId!;
  const queue = [...ids];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: slots }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        for (let from: TxStatus | undefined = 'TRANSFERRING_FIAT'; from && from !== 'SUCCESS'; from = nextStatus('ON_RAMP', from)) {
          const status = from;
          await db.transaction((tx) => stepJob(tx, server.deps, { partnerId, payload: { transactionId: id, from: status } }));
        }
      }
    }),
  );
  const rate = (ids.length * STEPS_EACH) / ((performance.now() - start) / 1000);
  if ((await succeeded(ids)) !== ids.length) throw new Error('inline: not every on-ramp reached SUCCESS');
  // The steps each inline step enqueued were done inline already.
  await db.execute(sql`UPDATE jobs SET done_at = now() WHERE kind = ${TX_STEP_JOB} AND done_at IS NULL`);
  return rate;
}

const rounds: { inline: number; runner: number; ratio: number }[] = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    const i = await inline();
    const j = await runner();
    rounds.push({ inline: i, runner: j, ratio: j / i });
    console.log(`round ${r + 1}: inline ${i.toFixed(1)} steps/s, job runner ${j.toFixed(1)} steps/s, ratio ${(j / i).toFixed(3)}×`);
  }
} finally {
  await server.close();
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const result = { transactionsPerRound: TRANSACTIONS, openJobs: OPEN_JOBS, stepsPerRound: TRANSACTIONS * STEPS_EACH, slots, rounds, medianRatio: median(rounds.map((r) => r.ratio)), store: server.deps.store.kind };
console.log(`jobs: job runner ${median(rounds.map((r) => r.runner)).toFixed(1)} steps/s = ${result.medianRatio.toFixed(3)}× the same steps inline (median of ${ROUNDS}, ${slots} at once, ${server.deps.store.kind})`);
writeFileSync(new URL('./jobs.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);

// Issue 33 item 6: steps keep up under load. The claim reads the due jobs it takes through an index, not every open job
// sorted; one process runs several jobs at once (RAMP_JOB_CONCURRENCY), each claimed by exactly one runner.
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { type SQLWrapper, sql } from 'drizzle-orm';
import { PartnerClock } from '../../server/clock';
import { newId } from '../../server/ids';
import { createLogger } from '../../server/logger';
import { type Store, inTransaction } from '../../server/store/db';
import { claimStatements } from '../../server/store/queries/jobs';
import { jobs } from '../../server/store/schema/index';
import { JobRunner } from '../../server/workers/runner';
import { openTestStore } from './harness';

const onPostgres = Boolean(process.env.DATABASE_URL);
let opened: Awaited<ReturnType<typeof openTestStore>>;
let store: Store;

before(async () => {
  opened = await openTestStore({ poolSize: 12 });
  store = opened.store;
});
after(() => opened.drop());
beforeEach(() => store.db.delete(jobs));

const rowsOf = <T>(r: unknown): T[] => (r as { rows?: T[] }).rows ?? (r as T[]);

/** `n` jobs of one kind for a new partner, due `dueAgoMs` ago (negative: in the future), a millisecond apart. */
async function insertJobs(n: number, kind: string, dueAgoMs: number) {
  const partnerId = newId();
  const base = Date.now() - dueAgoMs;
  const rows = Array.from({ length: n }, (_, i) => ({ id: newId(), partnerId, kind, payload: { i }, runAt: new Date(base + i) }));
  for (let i = 0; i < rows.length; i += 500) await store.db.insert(jobs).values(rows.slice(i, i + 500));
  return rows.map((r) => r.id);
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows'?: number; 'Rows Removed by Filter'?: number; Plans?: PlanNode[] };
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

/** The executed plan of one claim statement, in a transaction rolled back afterwards (the claim's locks go with it). */
async function planOf(statement: SQLWrapper): Promise<PlanNode[]> {
  let plan: PlanNode[] = [];
  await inTransaction(store.db, async (tx) => {
      const [row] = rowsOf<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(await tx.execute(sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`));
      const json = row!['QUERY PLAN'];
      plan = nodesOf((typeof json === 'string' ? JSON.parse(json) : json)[0].Plan);
      throw new Error('rollback');
    })
    .catch((err) => {
      if (!(err instanceof Error && err.message === 'rollback')) throw err;
    });
  return plan;
}

test('the claim reads the due job it takes through jobs_claim_idx, without sorting every open job', async () => {
  // As in the load probe: thousands of open jobs, most not due yet (expiries, later steps), some due.
  await insertJobs(3000, 'later', -3_600_000);
  await insertJobs(100, 'due', 60_000);
  const parked = await insertJobs(50, 'parked', 120_000);
  await store.db.execute(sql`UPDATE jobs SET parked_at = now() WHERE id IN ${sql.raw(`('${parked.join("','")}')`)}`);
  await store.db.execute(sql`ANALYZE jobs`);
  const [dueInWallTime, dueInPartnerTime] = claimStatements(store.db, new Date());

  const plan = await planOf(dueInWallTime);
  const types = plan.map((n) => n['Node Type']);
  assert.ok(!types.includes('Sort'), `no sort of the open jobs: ${types.join(' > ')}`);
  assert.ok(!plan.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'jobs'), `no scan of the whole jobs table: ${types.join(' > ')}`);
  const scan = plan.find((n) => n['Index Name'] === 'jobs_claim_idx');
  assert.ok(scan, `the claim scans jobs_claim_idx: ${JSON.stringify(plan.map((n) => [n['Node Type'], n['Index Name']]))}`);
  assert.ok((scan['Actual Rows'] ?? Infinity) <= 1 && (scan['Rows Removed by Filter'] ?? 0) === 0, `it read the one row it locked: ${JSON.stringify(scan)}`);

  // A partner whose sandbox clock runs an hour ahead: its jobs of the next hour are due in its time. The second statement
  // finds them through jobs_partner_claim_idx, reading that partner's jobs only.
  const ahead = newId();
  await store.db.execute(sql`INSERT INTO partner_clocks (partner_id, offset_ms) VALUES (${ahead}, 3600000)`);
  const rows = Array.from({ length: 20 }, (_, i) => ({ id: newId(), partnerId: ahead, kind: 'ahead', payload: {}, runAt: new Date(Date.now() + 60_000 + i) }));
  await store.db.insert(jobs).values(rows);
  await store.db.execute(sql`ANALYZE jobs`);
  await store.db.execute(sql`ANALYZE partner_clocks`);
  const aheadPlan = await planOf(claimStatements(store.db, new Date())[1]);
  // A bitmap scan reads the index in one node and the table in another: the index nodes say which index, the table nodes how.
  const jobScans = aheadPlan.filter((n) => n['Relation Name'] === 'jobs' || n['Index Name']?.startsWith('jobs'));
  assert.ok(!jobScans.some((n) => n['Node Type'] === 'Seq Scan'), `no scan of the whole jobs table: ${JSON.stringify(aheadPlan.map((n) => [n['Node Type'], n['Index Name']]))}`);
  assert.deepEqual(
    [...new Set(jobScans.flatMap((n) => n['Index Name'] ?? []))],
    ['jobs_partner_claim_idx'],
    `jobs are read through jobs_partner_claim_idx only: ${JSON.stringify(aheadPlan.map((n) => [n['Node Type'], n['Index Name']]))}`,
  );
  const read = jobScans.filter((n) => n['Relation Name'] === 'jobs').reduce((a, n) => a + (n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0), 0);
  assert.ok(read <= rows.length, `no more jobs read than that partner's (${read})`);
});

test('one runner has several jobs in flight at once, never more than its concurrency, and runs each exactly once', { skip: onPostgres ? false : 'needs PostgreSQL: PGlite has one connection, so its runner takes one job at a time' }, async () => {
  const kind = 'throughput.sleep';
  const ids = await insertJobs(200, kind, 60_000);
  const concurrency = 4;
  let inFlight = 0;
  let most = 0;
  const runs = new Map<string, number>();
  const runner = new JobRunner(
    store.db,
    new PartnerClock(),
    createLogger('silent'),
    {
      [kind]: async (_tx, job) => {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 50));
        inFlight--;
      },
    },
    { concurrency, cleanupIntervalMs: 0 },
  );
  const ran = await runner.runDue(1000);
  await runner.stop();
  assert.ok(most >= 2, `at some moment at least two jobs ran at once (most at once: ${most})`);
  assert.ok(most <= concurrency, `never more than ${concurrency} at once (most: ${most})`);
  assert.equal(ran, ids.length);
  assert.deepEqual([...runs.entries()].filter(([, n]) => n !== 1), [], 'no job ran twice');
  assert.deepEqual([...runs.keys()].sort(), [...ids].sort(), 'every job ran');
  const [open] = rowsOf<{ n: number }>(await store.db.execute(sql`SELECT count(*)::int AS n FROM jobs WHERE kind = ${kind} AND done_at IS NULL`));
  assert.equal(open!.n, 0, 'every job is done');
});

test('runDue stops at its limit with several in flight', { skip: onPostgres ? false : 'needs PostgreSQL' }, async () => {
  const kind = 'throughput.limit';
  await insertJobs(30, kind, 60_000);
  let calls = 0;
  const runner = new JobRunner(store.db, new PartnerClock(), createLogger('silent'), { [kind]: async () => void calls++ }, { concurrency: 4, cleanupIntervalMs: 0 });
  assert.equal(await runner.runDue(10), 10);
  assert.equal(calls, 10);
  await runner.stop();
});

test("a claimed job carries its own partner's clock offset, and a job due only in its partner's time is claimed", async () => {
  const [early, ahead] = [newId(), newId()];
  await store.db.execute(sql`INSERT INTO partner_clocks (partner_id, offset_ms) VALUES (${early}, 1000), (${ahead}, 3600000)`);
  const due = { id: newId(), partnerId: early, kind: 'k', payload: {}, runAt: new Date(Date.now() - 60_000) };
  const inPartnerTime = { id: newId(), partnerId: ahead, kind: 'k', payload: {}, runAt: new Date(Date.now() + 60_000) };
  const notYet = { id: newId(), partnerId: early, kind: 'k', payload: {}, runAt: new Date(Date.now() + 60_000) };
  await store.db.insert(jobs).values([due, inPartnerTime, notYet]);
  const claimed: { id: string; offset: number }[] = [];
  const runner = new JobRunner(store.db, new PartnerClock(), createLogger('silent'), { k: async (_tx, job) => void claimed.push({ id: job.id, offset: (job as typeof job & { clockOffsetMs: number }).clockOffsetMs }) }, { cleanupIntervalMs: 0 });
  assert.equal(await runner.runDue(), 2);
  await runner.stop();
  assert.deepEqual(claimed, [
    { id: due.id, offset: 1000 },
    { id: inPartnerTime.id, offset: 3600000 },
  ]);
  await store.db.execute(sql`DELETE FROM partner_clocks WHERE partner_id IN (${early}, ${ahead})`);
});

// Outbox and job claims under concurrency (PostgreSQL): claimers sharing one due set never get the same delivery or job.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { PartnerClock } from '../../server/clock';
import { generateSecret } from '../../server/domain/webhooks';
import { newId } from '../../server/ids';
import { createLogger } from '../../server/logger';
import { openStore, type Store, inTransaction } from '../../server/store/db';
import { insertEvent } from '../../server/store/queries/events';
import { claimDueJob, enqueueJob } from '../../server/store/queries/jobs';
import { claimDueAttempts, fanOutEvents, finishAttempt, insertEndpoint } from '../../server/store/queries/webhooks';
import { JobRunner } from '../../server/workers/runner';
import { fillerEvent } from './support/event-payloads';

const url = process.env.DATABASE_URL;
const SKIP = url ? false : 'SKIPPED: claim races need PostgreSQL (set DATABASE_URL); PGlite has one connection and runs one claim at a time, so a missing lock would pass there';
if (SKIP) process.stderr.write(`\n*** ${SKIP} ***\n\n`);

/** Claimers, each on a store (a pool, so a connection) of its own, as separate processes would be. */
const CLAIMERS = 8;
const schema = `ramp_test_claims_${process.pid}_${randomBytes(3).toString('hex')}`;
let stores: Store[] = [];

before(async () => {
  if (SKIP) return;
  for (let i = 0; i < CLAIMERS; i++) stores.push(await openStore({ databaseUrl: url, schema, poolSize: 4 }));
});
after(async () => {
  await Promise.all(stores.map((s) => s.close()));
  stores = [];
  if (SKIP) return;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
});

const db = () => stores[0]!.db;
const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;

/**
 * Waits until `n` parties have arrived, or `ms` passed: a claimer holds its claim's locks until every claimer has claimed,
 * so that all claims overlap. With the locks gone, a claimer blocked behind another's row ends the wait by the deadline.
 */
function barrier(n: number, ms = 10_000) {
  let arrived = 0;
  let timedOut = false;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const timer = setTimeout(() => {
    timedOut = true;
    open();
  }, ms);
  const arrive = async () => {
    if (++arrived === n) {
      clearTimeout(timer);
      open();
    }
    await opened;
  };
  return Object.assign(arrive, { timedOut: () => timedOut });
}

/** The database's own words for a failure (drizzle wraps them in the whole query): `23505 duplicate key value …`. */
function reason(err: unknown): string {
  let e = err as { code?: string; message?: string; cause?: unknown };
  while (e?.cause) e = e.cause as typeof e;
  return `${e?.code ?? ''} ${String(e?.message ?? err).split('\n')[0]}`.trim();
}

/** Runs every claimer at once; answers what each returned, and what each threw. */
async function race<T>(claim: (store: Store, i: number) => Promise<T>) {
  const settled = await Promise.allSettled(stores.map((s, i) => claim(s, i)));
  return {
    results: settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
    errors: settled.flatMap((s) => (s.status === 'rejected' ? [reason(s.reason)] : [])),
  };
}

/** `n` due deliveries (one event each, to one endpoint of a new partner); answers the partner and the delivery ids. */
async function dueDeliveries(n: number) {
  const partnerId = newId();
  const at = new Date(Date.now() - 60_000);
  await insertEndpoint(db(), { id: newId(), partnerId, url: 'https://receiver.example/hook', events: null, description: null, secret: generateSecret(), createdAt: at, updatedAt: at });
  for (let i = 0; i < n; i++) await insertEvent(db(), fillerEvent(partnerId, i), at);
  while ((await fanOutEvents(db(), at, 1000)) > 0);
  const ids = rowsOf<{ id: string }>(await db().execute(sql`SELECT id FROM webhook_deliveries WHERE partner_id = ${partnerId} AND status = 'pending'`)).map((r) => r.id);
  assert.equal(ids.length, n);
  return { partnerId, ids };
}

/** `n` due jobs of a new partner, due a millisecond apart; answers their ids. */
async function dueJobs(n: number, kind: string) {
  const partnerId = newId();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await enqueueJob(db(), { partnerId, kind, payload: { i }, runAt: new Date(Date.now() - 60_000 + i) }));
  return ids;
}

const duplicates = (xs: string[]) => [...new Set(xs.filter((x, i) => xs.indexOf(x) !== i))];

describe('webhook delivery claims (PostgreSQL)', { skip: SKIP }, () => {
  test('claimers holding their claims at once each get different deliveries: none is handed to two, none fails on the (delivery, attempt) index', async () => {
    const { partnerId, ids } = await dueDeliveries(CLAIMERS * 10);
    const now = new Date();
    const arrive = barrier(CLAIMERS);
    const { results, errors } = await race((s) =>
      // The claim's transaction is a savepoint of this one, so its row locks last until every claimer has claimed.
      inTransaction(s.db, async (tx) => {
        const claimed = await claimDueAttempts(tx as never, now, 60_000, 10);
        await arrive();
        return claimed.map((c) => c.deliveryId);
      }),
    );
    assert.deepEqual(errors, [], 'no claimer failed (a double claim shows here as a unique violation)');
    assert.equal(arrive.timedOut(), false, "no claimer waited on another's locked rows: they are skipped (SKIP LOCKED)");
    const handed = results.flat();
    assert.deepEqual(duplicates(handed), [], 'no delivery was handed to two claimers');
    assert.deepEqual([...handed].sort(), [...ids].sort(), 'between them the claimers took the whole due set');
    for (const r of results) assert.equal(r.length, 10, 'each claimer got a full batch');
    const attempts = rowsOf<{ delivery_id: string; attempt: number }>(await db().execute(sql`SELECT delivery_id, attempt FROM webhook_attempts WHERE partner_id = ${partnerId}`));
    assert.equal(attempts.length, ids.length, 'one attempt row per delivery');
    assert.ok(attempts.every((a) => a.attempt === 1));
  });

  test('claimers polling freely until the set is drained claim every delivery exactly once, without an error', async () => {
    const { partnerId, ids } = await dueDeliveries(240);
    const { results, errors } = await race(async (s) => {
      const mine: string[] = [];
      for (;;) {
        const claimed = await claimDueAttempts(s.db, new Date(), 60_000, 5);
        if (!claimed.length) return mine;
        for (const c of claimed) {
          mine.push(c.deliveryId);
          await finishAttempt(s.db, { attemptId: c.attemptId, deliveryId: c.deliveryId, attempt: c.attempt, statusCode: 200, durationMs: 1, error: null, succeeded: true, at: new Date() });
        }
      }
    });
    assert.deepEqual(errors, [], 'no claim failed');
    const handed = results.flat();
    assert.deepEqual(duplicates(handed), [], 'no delivery was claimed twice');
    assert.equal(handed.length, ids.length);
    const [row] = rowsOf<{ n: number; pending: number }>(await db().execute(sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE status <> 'succeeded')::int AS pending FROM webhook_deliveries WHERE partner_id = ${partnerId}`));
    assert.deepEqual(row, { n: ids.length, pending: 0 });
    const [att] = rowsOf<{ n: number }>(await db().execute(sql`SELECT count(*)::int AS n FROM webhook_attempts WHERE partner_id = ${partnerId}`));
    assert.equal(att!.n, ids.length, 'one attempt per delivery');
  });
});

describe('job claims (PostgreSQL)', { skip: SKIP }, () => {
  test('transactions claiming at once each lock a different due job', async () => {
    // Its jobs are marked done afterwards (pass or fail), so that the runners below find only their own.
    const ids = await dueJobs(CLAIMERS * 2, 'claims.held');
    const arrive = barrier(CLAIMERS);
    const { results, errors } = await race((s) =>
      inTransaction(s.db, async (tx) => {
        const job = await claimDueJob(tx as never, new Date());
        await arrive();
        return job?.id;
      }),
    ).finally(() => db().execute(sql`UPDATE jobs SET done_at = now() WHERE kind = 'claims.held'`));
    assert.deepEqual(errors, []);
    assert.equal(arrive.timedOut(), false, "no claimer waited on another's locked job");
    assert.equal(results.length, CLAIMERS);
    assert.ok(results.every((id) => id && ids.includes(id)), `each claimer got one of the due jobs: ${results}`);
    assert.deepEqual(duplicates(results as string[]), [], 'no job was handed to two claimers');
    // The earliest jobs go first: the claimers took exactly the first eight.
    assert.deepEqual([...(results as string[])].sort(), [...ids.slice(0, CLAIMERS)].sort());
  });

  test('eight job runners on one queue, each running three jobs at once, run every job exactly once', async () => {
    const kind = 'claims.counted';
    const ids = await dueJobs(80, kind);
    const runs = new Map<string, number>();
    const inFlight = new Map<number, number>();
    let most = 0;
    const handler = (runner: number) => async (_tx: unknown, job: { id: string }) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      const n = (inFlight.get(runner) ?? 0) + 1;
      inFlight.set(runner, n);
      most = Math.max(most, n);
      // Long enough for every other runner (and this runner's other slots) to poll while this job's claim is held.
      await new Promise((r) => setTimeout(r, 20));
      inFlight.set(runner, inFlight.get(runner)! - 1);
    };
    const logger = createLogger('silent');
    const runners = stores.map((s, i) => new JobRunner(s.db, new PartnerClock(), logger, { [kind]: handler(i) }, { cleanupIntervalMs: 0, concurrency: 3 }));
    const ran = await Promise.all(runners.map((r) => r.runDue(1000)));
    await Promise.all(runners.map((r) => r.stop()));
    assert.deepEqual([...runs.entries()].filter(([, n]) => n !== 1), [], 'no job ran twice');
    assert.deepEqual([...runs.keys()].sort(), [...ids].sort(), 'every job ran');
    assert.equal(ran.reduce((a, b) => a + b, 0), ids.length);
    assert.ok(ran.filter((n) => n > 0).length > 1, `the work was shared between runners: ${ran}`);
    assert.ok(most >= 2, `a runner had more than one job in flight at once (most: ${most})`);
    const [row] = rowsOf<{ n: number }>(await db().execute(sql`SELECT count(*)::int AS n FROM jobs WHERE kind = ${kind} AND done_at IS NULL`));
    assert.equal(row!.n, 0, 'every job is done');
  });
});

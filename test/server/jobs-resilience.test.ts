// Issue 9 items 13 and 19: a failing job is logged, retried with backoff when that can help and parked with its
// reason when it cannot; /readyz lists parked and stuck jobs; old idempotency keys and done jobs are cleaned up.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, beforeEach, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { AppError } from '../../server/domain/errors';
import { createLogger } from '../../server/logger';
import { type Store, inTransaction } from '../../server/store/db';
import { enqueueJob } from '../../server/store/queries/jobs';
import { idempotencyKeys, jobs } from '../../server/store/schema/index';
import { JobRunner, type JobHandler } from '../../server/workers/runner';
import { client, openTestStore, startTestServer, type TestServer } from './harness';

let opened: Awaited<ReturnType<typeof openTestStore>>;
let store: Store;
let server: TestServer;
let partnerId: string;
const logs: string[] = [];
const logger = createLogger('info', new Writable({ write: (c, _e, cb) => (logs.push(String(c)), cb()) }));
const clock = { now: () => new Date(), within: <T>(_offsetMs: number, fn: () => Promise<T>) => fn() };

before(async () => {
  opened = await openTestStore();
  store = opened.store;
  server = await startTestServer({}, { store });
  partnerId = server.deps.partnerId!;
});
after(async () => {
  await server.close();
  await opened.drop();
});
beforeEach(async () => {
  await store.db.delete(jobs);
  logs.length = 0;
});

const runner = (handlers: Record<string, JobHandler>, maxAttempts = 3) => new JobRunner(store.db, clock, logger, handlers, { maxAttempts, cleanupBatch: 100 });
const enqueue = (kind: string, runAt = new Date(Date.now() - 1000)) => enqueueJob(store.db, { partnerId, kind, payload: {}, runAt });
const jobRow = async (id: string) => (await store.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

test('a refusal (AppError) is not marked done: the job is parked with its reason, logged, and listed by /readyz', async () => {
  const id = await enqueue('ledger');
  const r = runner({ ledger: async () => { throw new AppError('INVALID_STATE', 'the ledger does not balance: 10.00 != 9.99'); } });
  assert.equal(await r.runDue(), 1);
  const row = await jobRow(id);
  assert.equal(row.doneAt, null);
  assert.ok(row.parkedAt);
  assert.match(row.lastError ?? '', /INVALID_STATE: the ledger does not balance/);
  assert.ok(logs.some((l) => /"level":50/.test(l) && l.includes(id) && /job parked/.test(l)), logs.join(''));
  assert.equal(await r.runDue(), 0, 'a parked job is not claimed again');
  const ready = await client(server).get('/readyz');
  assert.equal(ready.status, 200);
  assert.deepEqual(ready.body.jobs.parked.map((j: { id: string }) => j.id), [id]);
  assert.match(ready.body.jobs.parked[0].reason, /ledger does not balance/);
});

test('an unexpected error is retried with backoff, logged, and parked after RAMP_JOB_MAX_ATTEMPTS', async () => {
  const id = await enqueue('flaky');
  let calls = 0;
  const r = runner({ flaky: async () => { calls++; throw new Error('connection hiccup'); } }, 2);
  assert.equal(await r.runDue(), 1);
  let row = await jobRow(id);
  assert.equal(row.attempts, 1);
  assert.equal(row.parkedAt, null);
  assert.equal(row.doneAt, null);
  assert.ok(row.runAt.getTime() > Date.now(), 'retry later');
  assert.ok(logs.some((l) => /job failed, will retry/.test(l) && l.includes('connection hiccup')));
  assert.equal(await r.runDue(), 0, 'not before its backoff');
  const stuck = await client(server).get('/readyz');
  assert.deepEqual(stuck.body.jobs.stuck.map((j: { id: string }) => j.id), [id], 'a failing job waiting for its retry shows as stuck');
  await store.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.id, id));
  assert.equal(await r.runDue(), 1);
  row = await jobRow(id);
  assert.equal(calls, 2);
  assert.ok(row.parkedAt, 'parked after the last attempt');
  assert.equal(row.attempts, 2);
});

test('a job that fails once and then succeeds is done; its failed attempt rolled back its writes', async () => {
  const id = await enqueue('once');
  let calls = 0;
  const r = runner({
    once: async (tx) => {
      calls++;
      await tx.execute(sql`UPDATE jobs SET payload = '{"touched":true}' WHERE id = ${id}`);
      if (calls === 1) throw new Error('first time fails');
    },
  });
  await r.runDue();
  assert.deepEqual((await jobRow(id)).payload, {});
  await store.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.id, id));
  await r.runDue();
  const row = await jobRow(id);
  assert.ok(row.doneAt);
  assert.deepEqual(row.payload, { touched: true });
});

test('a job long overdue is listed as stuck by /readyz', async () => {
  const id = await enqueue('nobody-runs-me', new Date(Date.now() - 10 * 60 * 1000));
  const ready = await client(server).get('/readyz');
  assert.deepEqual(ready.body.jobs.stuck.map((j: { id: string }) => j.id), [id]);
});

test('cleanup deletes expired idempotency keys and old done jobs in batches, and keeps the rest', async () => {
  const old = new Date(Date.now() - 25 * 3600 * 1000);
  const recent = new Date(Date.now() - 3600 * 1000);
  const key = (i: number, at: Date) => ({ partnerId, key: `k-${at.getTime()}-${i}`, requestHash: 'h', state: 'COMPLETE' as const, createdAt: at, lockedAt: at });
  await store.db.insert(idempotencyKeys).values(Array.from({ length: 250 }, (_, i) => key(i, old)));
  await store.db.insert(idempotencyKeys).values(Array.from({ length: 5 }, (_, i) => key(i, recent)));
  const longDone = new Date(Date.now() - 8 * 86_400_000);
  for (let i = 0; i < 120; i++) await store.db.update(jobs).set({ doneAt: longDone }).where(eq(jobs.id, await enqueue('done')));
  const keepDone = await enqueue('done');
  await store.db.update(jobs).set({ doneAt: recent }).where(eq(jobs.id, keepDone));
  const pending = await enqueue('pending');

  const r = runner({});
  assert.deepEqual(await r.cleanup(), { idempotencyKeys: 250, jobs: 120, events: 0, webhookAttempts: 0, sessionUploads: 0 });
  const keys = await store.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.requestHash, 'h'));
  assert.equal(keys.length, 5);
  assert.deepEqual((await store.db.select({ id: jobs.id }).from(jobs)).map((j) => j.id).sort(), [keepDone, pending].sort());
  assert.deepEqual(await r.cleanup(), { idempotencyKeys: 0, jobs: 0, events: 0, webhookAttempts: 0, sessionUploads: 0 });
});

test('stop() lets the job step in progress finish and starts no other', async () => {
  const first = await enqueue('slow');
  const second = await enqueue('slow', new Date(Date.now() - 500));
  let started = 0;
  let release!: () => void;
  const entered = new Promise<void>((resolve) => {
    release = resolve;
  });
  const r = runner({
    slow: async () => {
      started++;
      release();
      await new Promise((res) => setTimeout(res, 300));
    },
  });
  r.start(10);
  await entered;
  await r.stop();
  assert.equal(started, 1);
  const done = [await jobRow(first), await jobRow(second)].filter((j) => j.doneAt);
  assert.equal(done.length, 1, 'the step in progress committed');
  assert.equal([await jobRow(first), await jobRow(second)].filter((j) => !j.doneAt).length, 1, 'the next one was not started');
});

test('the resilience settings have defaults and a bad value names its variable', async () => {
  const { ConfigError, loadConfig } = await import('../../server/config');
  const c = loadConfig({});
  assert.equal(c.RAMP_DB_POOL_SIZE, 20);
  assert.equal(c.RAMP_DB_CONNECT_TIMEOUT_MS, 3000);
  assert.equal(c.RAMP_SHUTDOWN_GRACE_MS, 20_000);
  assert.equal(c.RAMP_JOB_MAX_ATTEMPTS, 8);
  for (const name of ['RAMP_DB_POOL_SIZE', 'RAMP_DB_CONNECT_TIMEOUT_MS', 'RAMP_DB_STATEMENT_TIMEOUT_MS', 'RAMP_SHUTDOWN_GRACE_MS', 'RAMP_JOB_MAX_ATTEMPTS', 'DATABASE_SCHEMA']) {
    assert.throws(() => loadConfig({ [name]: name === 'DATABASE_SCHEMA' ? 'Robert"; DROP' : '-1' }), (err) => err instanceof ConfigError && err.message.startsWith(`${name}:`));
  }
});

test('an idle worker backs off (few polls a second) and a job enqueued in this process wakes it at once', async (t) => {
  // The worker's timers run on a mocked clock, so what is asserted is which pause the worker chose, never how long
  // anything took: the test means the same on a loaded machine.
  const flush = () => new Promise((res) => setImmediate(res));
  const r = new JobRunner(store.db, clock, logger, {}, { maxIdleMs: 1000, cleanupIntervalMs: 0 });
  let polls = 0;
  const runDue = r.runDue.bind(r);
  r.runDue = (limit?: number) => (polls++, runDue(limit));
  let ran = 0;
  const handlers = r as unknown as { handlers: Record<string, JobHandler> };
  handlers.handlers.wake = async () => void ran++;
  t.mock.timers.enable({ apis: ['setTimeout'] });
  /** Moves the mocked clock on, then lets the poll it started (database work on real I/O) finish. */
  const advance = async (ms: number) => {
    t.mock.timers.tick(ms);
    await (r as unknown as { running: Promise<unknown> | undefined }).running;
    await flush();
  };
  r.start(10);
  try {
    // 1.2 s of idle, in 10 ms steps: a fixed 10 ms poll would make ~120 polls; the doubling pause makes a handful.
    for (let ms = 0; ms < 1200; ms += 10) await advance(10);
    assert.ok(polls <= 8, `idle: ${polls} polls in 1.2 s of the worker's clock`);
    // Right after an idle poll the next is a whole idle pause (1000 ms) away; the enqueue brings it to 10 ms.
    for (const seen = polls; polls === seen; ) await advance(10);
    await enqueue('wake');
    for (let ms = 0; ms < 100 && ran === 0; ms += 10) await advance(10);
    assert.equal(ran, 1, 'the job ran within 100 ms of the worker\'s clock after the enqueue, not at the next idle poll (1 s)');
  } finally {
    t.mock.timers.reset();
    await r.stop();
  }
});

test('a job enqueued in a transaction runs in a transaction of its own, after that one commits', async () => {
  const r = new JobRunner(store.db, clock, logger, {}, { cleanupIntervalMs: 0 });
  let committed = false;
  const seen: boolean[] = [];
  (r as unknown as { handlers: Record<string, JobHandler> }).handlers.probe = async () => void seen.push(committed);
  r.start(10);
  try {
    await new Promise((res) => setTimeout(res, 100)); // idle between polls, so the enqueue's wake schedules the next one
    await inTransaction(store.db, async (tx) => {
      await enqueueJob(tx, { partnerId, kind: 'probe', payload: {}, runAt: new Date(Date.now() - 1000) });
      // The poll the wake scheduled comes due while this transaction is open; it used to run in it.
      await new Promise((res) => setTimeout(res, 200));
    });
    committed = true;
    for (const start = Date.now(); !seen.length && Date.now() - start < 2000; ) await new Promise((res) => setTimeout(res, 5));
    assert.deepEqual(seen, [true]);
    // The polls after it still work: a job enqueued outside any transaction runs too, and no claim failed.
    await enqueue('probe');
    for (const start = Date.now(); seen.length < 2 && Date.now() - start < 2000; ) await new Promise((res) => setTimeout(res, 5));
    assert.deepEqual(seen, [true, true]);
    assert.ok(!logs.some((l) => /job claim failed/.test(l)), logs.join(''));
  } finally {
    await r.stop();
  }
});

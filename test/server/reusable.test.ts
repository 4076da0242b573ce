// Statements built once (server/store/reusable.ts): each run carries its own values, runs on the session of the db it is
// given (a transaction's, so it sees and joins that transaction), and an insert's riders and defaults behave as drizzle's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { newId } from '../../server/ids';
import { inTransaction } from '../../server/store/db';
import { insertWithRiders, reusable } from '../../server/store/reusable';
import { jobs, partners } from '../../server/store/schema/index';
import { openTestStore } from './harness';

const jobsOf = reusable<{ partnerId: string; kind: string }, { id: string; runAt: Date; payload: unknown }[]>('test_jobs_of', (db, p) =>
  db
    .select({ id: jobs.id, runAt: jobs.runAt, payload: jobs.payload })
    .from(jobs)
    .where(and(eq(jobs.partnerId, p('partnerId')), eq(jobs.kind, p('kind'))))
    .orderBy(jobs.id),
);

describe('reusable statements', () => {
  test('each run has its own values and results mapped as drizzle maps them; inside a transaction it is that transaction', async () => {
    const { store, drop } = await openTestStore();
    try {
      const partnerId = newId();
      await store.db.insert(partners).values({ id: partnerId, name: 'Reusable' });
      const at = new Date('2026-01-02T03:04:05.678Z');
      await store.db.insert(jobs).values([
        { id: newId(), partnerId, kind: 'a', payload: { n: 1 }, runAt: at },
        { id: newId(), partnerId, kind: 'b', payload: { n: 2 }, runAt: at },
      ]);
      for (const kind of ['a', 'b', 'a']) {
        const rows = await jobsOf(store.db, { partnerId, kind });
        assert.equal(rows.length, 1);
        assert.deepEqual(rows[0]!.payload, { n: kind === 'a' ? 1 : 2 });
        assert.ok(rows[0]!.runAt instanceof Date && rows[0]!.runAt.getTime() === at.getTime());
      }
      assert.deepEqual(await jobsOf(store.db, { partnerId: newId(), kind: 'a' }), []);

      // In a transaction, or a savepoint inside one: it sees the transaction's own uncommitted row, and the rollback takes
      // back what it wrote.
      await assert.rejects(
        inTransaction(store.db, async (tx) => {
          await tx.insert(jobs).values({ id: newId(), partnerId, kind: 'c', payload: {}, runAt: at });
          assert.equal((await jobsOf(tx, { partnerId, kind: 'c' })).length, 1);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      await assert.rejects(
        inTransaction(store.db, (tx) =>
          inTransaction(tx, async (sp) => {
            await insertWithRiders(sp, jobs, { id: newId(), partnerId, kind: 'd', payload: {}, runAt: at });
            assert.equal((await jobsOf(tx, { partnerId, kind: 'd' })).length, 1, 'the savepoint, seen from its transaction');
            throw new Error('roll back');
          }),
        ),
        /roll back/,
      );
      assert.deepEqual(await jobsOf(store.db, { partnerId, kind: 'c' }), []);
      assert.deepEqual(await jobsOf(store.db, { partnerId, kind: 'd' }), []);
    } finally {
      await drop();
    }
  });

  test('a statement is built once per place it can be kept (the database, a PostgreSQL connection) and answers as drizzle answers it', async () => {
    const { store, drop } = await openTestStore({ poolSize: 1 });
    try {
      const partnerId = newId();
      await store.db.insert(partners).values({ id: partnerId, name: 'Kept' });
      const at = new Date('2026-01-02T03:04:05.678Z');
      await store.db.insert(jobs).values({ id: newId(), partnerId, kind: 'k', payload: { n: 1 }, runAt: at });
      let builds = 0;
      const query = (db: typeof store.db, partner: unknown, kind: unknown) =>
        db
          .select({ id: jobs.id, runAt: jobs.runAt, payload: jobs.payload })
          .from(jobs)
          .where(and(eq(jobs.partnerId, partner as string), eq(jobs.kind, kind as string)));
      const kept = reusable<{ partnerId: string; kind: string }, Awaited<ReturnType<typeof query>>>('test_kept_jobs', (db, p) => {
        builds++;
        return query(db, p('partnerId'), p('kind'));
      });
      // Differential: the same statement through drizzle's own builder, in every place it runs.
      const same = async (db: typeof store.db, kind: string) => assert.deepEqual(await kept(db, { partnerId, kind }), await query(db, partnerId, kind));

      for (let i = 0; i < 3; i++) await same(store.db, 'k');
      assert.equal(builds, 1, 'outside transactions: built once');

      builds = 0;
      const postgres = store.kind === 'postgres';
      for (let i = 0; i < 3; i++) {
        await inTransaction(store.db, async (tx) => {
          await tx.insert(jobs).values({ id: newId(), partnerId, kind: `t${i}`, payload: {}, runAt: at });
          await same(tx, `t${i}`);
          await same(tx, 'k');
        });
        await inTransaction(store.db, async (tx) => {
          await same(tx, 'k');
          // A flow's own transaction inside its caller's: a savepoint on the same connection.
          await inTransaction(tx, async (sp) => {
            await sp.insert(jobs).values({ id: newId(), partnerId, kind: `s${i}`, payload: {}, runAt: at });
            await same(sp, `s${i}`);
            await same(tx, `s${i}`);
          });
        });
      }
      // PostgreSQL: the pool's one connection keeps it across transactions. PGlite: each transaction has a session of its own.
      assert.equal(builds, postgres ? 1 : 15, 'in transactions');
      assert.equal((await kept(store.db, { partnerId, kind: 's2' })).length, 1, 'the savepoint committed with its transaction');
    } finally {
      await drop();
    }
  });

  test('an insert with riders: every row of each shape carries its own values; a column left out takes its default', async () => {
    const { store, drop } = await openTestStore();
    try {
      const partnerId = newId();
      await store.db.insert(partners).values({ id: partnerId, name: 'Riders' });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const id = newId();
        ids.push(id);
        const riders = [{ table: jobs, rows: Array.from({ length: i % 2 ? 2 : 1 }, (_, j) => ({ id: newId(), partnerId, kind: `rider-of-${i}`, payload: { j, quote: "it's" }, runAt: new Date(Date.UTC(2026, 0, 1 + j)) })) }];
        const row = await insertWithRiders<{ id: string; kind: string; attempts: number; createdAt: Date; lastError: string | null }>(store.db, jobs, { id, partnerId, kind: `main-${i}`, payload: { i }, runAt: new Date(), lastError: undefined }, riders);
        assert.equal(row.id, id);
        assert.equal(row.kind, `main-${i}`);
        assert.equal(row.attempts, 0, 'the column default');
        assert.equal(row.lastError, null);
        assert.ok(row.createdAt instanceof Date && Math.abs(row.createdAt.getTime() - Date.now()) < 60_000, 'created_at from its default, now');
        const riderRows = await jobsOf(store.db, { partnerId, kind: `rider-of-${i}` });
        assert.deepEqual(
          riderRows.map((r) => r.payload),
          Array.from({ length: i % 2 ? 2 : 1 }, (_, j) => ({ j, quote: "it's" })),
        );
      }
      assert.equal(new Set(ids).size, 3);
    } finally {
      await drop();
    }
  });

  test('a table with a default computed in JavaScript is refused (it would be computed once and repeated)', async () => {
    const { store, drop } = await openTestStore();
    try {
      const computed = pgTable('partners', { id: text('id').primaryKey(), name: text('name').$defaultFn(() => `n${Math.random()}`) });
      await assert.rejects(insertWithRiders(store.db, computed, { id: newId() }), /default computed in JavaScript/);
    } finally {
      await drop();
    }
  });
});

// The store: the same migrations on PGlite and PostgreSQL; the embedded database keeps its data across a restart.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { createApp } from '../../server/app';
import { bootstrap } from '../../server/bootstrap';
import { loadConfig } from '../../server/config';
import { createLogger } from '../../server/logger';
import { inTransaction } from '../../server/store/db';
import { openTestStore } from './harness';

describe('store', () => {
  test('migrations apply and the database answers', async () => {
    const { store, drop } = await openTestStore();
    try {
      assert.equal(await store.ping(), true);
      assert.equal(store.kind, process.env.DATABASE_URL ? 'postgres' : 'pglite');
    } finally {
      await drop();
    }
  });

  test('PostgreSQL: a statement is prepared by name once per connection, and never with preparedStatements false (RAMP_DB_PREPARED_STATEMENTS)', { skip: !process.env.DATABASE_URL && 'needs PostgreSQL' }, async () => {
    for (const preparedStatements of [true, false]) {
      const { store, drop } = await openTestStore({ poolSize: 1, preparedStatements });
      try {
        for (let i = 0; i < 3; i++) await store.db.execute(sql`select count(*) from partners where id = ${'00000000-0000-0000-0000-000000000000'}`);
        const { rows } = (await store.db.execute(sql`select statement from pg_prepared_statements where statement like 'select count(*) from partners%'`)) as unknown as { rows: unknown[] };
        assert.equal(rows.length, preparedStatements ? 1 : 0, `preparedStatements ${preparedStatements}`);
        // A statement its caller names (the customer read) is not prepared either when names are off: a pooler would lose it.
        const named = store.db.select({ n: sql<number>`count(*)` }).from(sql`partners`).prepare('named_by_caller');
        for (let i = 0; i < 2; i++) await named.execute();
        const { rows: byCaller } = (await store.db.execute(sql`select name from pg_prepared_statements where name = 'named_by_caller'`)) as unknown as { rows: unknown[] };
        assert.equal(byCaller.length, preparedStatements ? 1 : 0, `named by its caller, preparedStatements ${preparedStatements}`);
      } finally {
        await drop();
      }
    }
  });

  test('a named statement (`.prepare(name)`) takes its values as bound parameters, each arriving intact, and prepares nothing by hand', async () => {
    const { store, drop } = await openTestStore();
    try {
      const echo = store.db
        .select({ text: sql<string>`${sql.placeholder('text')}::text`, n: sql<number>`${sql.placeholder('n')}::int`, at: sql<string>`${sql.placeholder('at')}::timestamptz::text`, none: sql<string | null>`${sql.placeholder('none')}::text` })
        .from(sql`generate_series(1, 1)`)
        .prepare('echo');
      const hostile = [`O'Brien`, `it''s`, `back\\slash \\' and quote`, `'); DROP TABLE customers; --`, 'ação 🌍', '$1 $$ E\'x\'', ''];
      const answers = await Promise.all(hostile.map((text, n) => echo.execute({ text, n, at: '2026-11-26T10:00:00.000Z', none: null })));
      answers.forEach(([row], i) => {
        assert.equal(row!.text, hostile[i]);
        assert.equal(Number(row!.n), i);
        assert.equal(row!.none, null);
        assert.match(row!.at, /^2026-11-26 10:00:00\+00/);
      });
      // No SQL-level PREPARE (whose EXECUTE would need the values spliced in as literals): they travel as the protocol's
      // bound parameters.
      const { rows } = (await store.db.execute(sql`select name from pg_prepared_statements where from_sql`)) as unknown as { rows: unknown[] };
      assert.deepEqual(rows, []);
      assert.ok((await store.db.execute(sql`select count(*) from customers`)) !== undefined, 'the customers table is still there');
    } finally {
      await drop();
    }
  });

  test('statements are counted (a query; BEGIN, its queries and COMMIT or ROLLBACK), PGlite\'s own objects left as they are', async () => {
    const { store, drop } = await openTestStore();
    try {
      const counted = async (fn: () => Promise<unknown>) => {
        const before = store.statements();
        await fn().catch(() => undefined);
        return store.statements() - before;
      };
      assert.equal(await counted(() => store.db.execute(sql`select 1`)), 1);
      assert.equal(await counted(() => inTransaction(store.db, async (tx) => tx.execute(sql`select 1`))), 3);
      const failing = () => inTransaction(store.db, async (tx) => Promise.reject(new Error(`after ${(await tx.execute(sql`select 1`)) && 1} query`)));
      assert.equal(await counted(failing), 3);
      if (store.kind === 'pglite') {
        // Counted in a view in front of the client: no method of PGlite's object is replaced.
        const client = (store.db as unknown as { $client: object }).$client;
        for (const method of ['query', 'exec', 'transaction']) assert.equal(Object.hasOwn(client, method), false, method);
      }
    } finally {
      await drop();
    }
  });

  test('data survives a restart, and the generated sandbox key is kept and not printed again', async (t) => {
    if (process.env.DATABASE_URL) return t.skip('the embedded database only');
    const dir = mkdtempSync(join(tmpdir(), 'ramp-restart-'));
    try {
      const config = loadConfig({ RAMP_DATA_DIR: dir, RAMP_LOG_LEVEL: 'silent' });
      const logger = createLogger('silent');
      const first = await bootstrap(config, logger);
      const key = readFileSync(join(dir, 'api-key'), 'utf8').trim();
      assert.equal(first.apiKey, key);
      const app1 = createApp(first);
      const created = await app1.request('/v2/customers', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'INDIVIDUAL', name: 'Ana', taxId: '529.982.247-25', birthDate: '1990-01-01' }),
      });
      assert.equal(created.status, 201);
      const { id } = (await created.json()) as { id: string };
      await first.store.close();

      const second = await bootstrap(config, logger);
      assert.equal(second.apiKey, key);
      assert.equal(second.partnerId, first.partnerId);
      const read = await createApp(second).request(`/v2/customers/${id}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(read.status, 200);
      await second.store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

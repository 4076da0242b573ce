// Issue 9 item 16: a dropped or unreachable database never takes the process down; requests answer 503
// DATABASE_UNAVAILABLE with Retry-After quickly while it is away, /readyz says so, and service resumes by itself.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openStore, type Store, inTransaction } from '../../server/store/db';
import { client, individual, startTestServer, type TestServer } from './harness';
import { scaledMs } from '../support/server-child';
import { startTcpProxy, type TcpProxy, viaProxy } from './support/tcp-proxy';

const url = process.env.DATABASE_URL;
const skip = url ? false : 'needs PostgreSQL (DATABASE_URL): PGlite is in-process, it has no connection to lose';

describe('database outages', { skip }, () => {
  const schema = `ramp_outage_${process.pid}_${randomBytes(3).toString('hex')}`;
  const appName = `ramp_outage_${process.pid}`;
  let proxy: TcpProxy;
  let store: Store;
  let server: TestServer;

  before(async () => {
    const u = new URL(url!);
    proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
    store = await openStore({ databaseUrl: viaProxy(url!, proxy.port, { application_name: appName }), schema, connectTimeoutMs: 1000, statementTimeoutMs: 5000 });
    server = await startTestServer({}, { store });
  });
  after(async () => {
    await server?.close();
    await store?.close();
    await proxy?.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  test('the pool sets the statement timeout', async () => {
    const res = await store.db.execute(sql`SHOW statement_timeout`);
    assert.equal((res as unknown as { rows: { statement_timeout: string }[] }).rows[0]!.statement_timeout, '5s');
  });

  test('terminating every backend of the pool: the process stays up, the pool drops its dead idle clients itself, and the next request works', async () => {
    const api = client(server, server.apiKey);
    const pool = (store.db as unknown as { $client: pg.Pool }).$client;
    // Several connections in the pool, idle.
    await Promise.all(Array.from({ length: 4 }, () => api.get('/v2/customers')));
    const idle = pool.idleCount;
    assert.ok(idle >= 1, 'idle connections in the pool');
    let removed = 0;
    const onRemove = () => removed++;
    pool.on('remove', onRemove);
    try {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const { rows } = await admin.query('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [appName]);
      await admin.end();
      assert.ok(rows.length >= idle, 'terminated every backend of the pool');
      // Each idle client hears of its backend's end (an 'error' event) and pg-pool's idle listener removes it: nothing
      // of the store's has to go through the pool's idle list for that.
      const deadline = Date.now() + scaledMs(30_000);
      while (removed < idle) {
        if (Date.now() > deadline) assert.fail(`only ${removed} of ${idle} dead idle clients removed`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      pool.off('remove', onRemove);
    }
    // Not one request meets a dead socket.
    for (let i = 0; i < 4; i++) {
      const res = await api.post('/v2/customers', individual());
      assert.equal(res.status, 201, res.text);
    }
    assert.equal((await api.get('/readyz')).status, 200);
  });

  test('with the database cut off: 503 DATABASE_UNAVAILABLE with Retry-After, not a hang; /readyz 503; success once it is back', async () => {
    const api = client(server, server.apiKey);
    assert.equal((await api.get('/v2/customers')).status, 200);
    proxy.cut();
    try {
      // Answered, not left hanging on a connection that never comes (the connect timeout); the deadline is generous so
      // that a loaded machine does not fail it.
      const res = await Promise.race([api.post('/v2/customers', individual()), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 60 s while the database is cut off')), scaledMs(60_000)).unref())]);
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'DATABASE_UNAVAILABLE');
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      const ready = await api.get('/readyz');
      assert.equal(ready.status, 503);
      assert.equal(ready.body.status, 'unavailable');
      assert.equal((await api.get('/healthz')).status, 200);
    } finally {
      proxy.restore();
    }
    const back = await api.post('/v2/customers', individual());
    assert.equal(back.status, 201, back.text);
    assert.equal((await api.get('/readyz')).status, 200);
  });
});

describe('a transaction whose BEGIN fails', { skip }, () => {
  test('gives its connection back: a pool of one still serves the next transaction', async () => {
    const schema = `ramp_begin_${process.pid}_${randomBytes(3).toString('hex')}`;
    const store = await openStore({ databaseUrl: url!, schema, poolSize: 1, connectTimeoutMs: 1000 });
    try {
      let failBegin = true;
      const pool = (store.db as unknown as { $client: pg.Pool }).$client;
      // Every connection of this pool fails BEGIN while `failBegin` holds, as one whose backend just died would.
      pool.on('connect', (c) => {
        const query = c.query;
        c.query = function (this: pg.PoolClient, ...args: unknown[]) {
          const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
          if (failBegin && /^\s*begin/i.test(text ?? '')) return Promise.reject(Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' }));
          return (query as (...a: unknown[]) => unknown).apply(this, args);
        } as typeof c.query;
      });
      for (let i = 0; i < 3; i++) await assert.rejects(inTransaction(store.db, async (tx) => tx.execute(sql`select 1`)), /Failed query: begin/);
      failBegin = false;
      const [row] = (await inTransaction(store.db, async (tx) => tx.execute(sql`select 41 + 1 as n`))).rows as { n: number }[];
      assert.equal(Number(row!.n), 42);
      assert.equal(pool.totalCount, 1);
      assert.equal(pool.idleCount, 1, 'the connection is back in the pool');
    } finally {
      await store.db.execute(sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
      await store.close();
    }
  });
});

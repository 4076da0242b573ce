// Issue 33 item 3: a pool with every connection in use is busy, not down. A request that waits out the connect timeout
// for a connection answers 503 SERVICE_BUSY with a short Retry-After (never DATABASE_UNAVAILABLE), and /readyz stays
// ready while PostgreSQL answers; once a connection is free, requests are served again.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openStore, type Store, inTransaction } from '../../server/store/db';
import { client, individual, startTestServer, type TestServer } from './harness';

const url = process.env.DATABASE_URL;
const skip = url ? false : 'needs PostgreSQL (DATABASE_URL): PGlite has one connection and no pool to fill';

describe('a busy pool', { skip }, () => {
  const schema = `ramp_busy_${process.pid}_${randomBytes(3).toString('hex')}`;
  let store: Store;
  let server: TestServer;

  before(async () => {
    store = await openStore({ databaseUrl: url!, schema, poolSize: 2, connectTimeoutMs: 300 });
    server = await startTestServer({}, { store });
  });
  after(async () => {
    await server?.close();
    await store?.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  test('every connection in use: 503 SERVICE_BUSY with Retry-After 1, /readyz ready, and served again once one is free', async () => {
    const api = client(server, server.apiKey);
    assert.equal((await api.get('/v2/customers')).status, 200);
    // Both connections held for 2 s by transactions that sleep.
    const holding = Promise.all([0, 1].map(() => inTransaction(store.db, async (tx) => tx.execute(sql`select pg_sleep(2)`))));
    await new Promise((r) => setTimeout(r, 200));
    const busy = await api.post('/v2/customers', individual());
    assert.equal(busy.status, 503, busy.text);
    assert.equal(busy.body.code, 'SERVICE_BUSY');
    assert.equal(busy.headers.get('retry-after'), '1');
    const ready = await server.app.request('/readyz');
    assert.equal(ready.status, 200, 'a busy pool is not a database outage: the load balancer keeps this instance');
    await holding;
    assert.equal((await api.get('/v2/customers')).status, 200);
  });
});

// Opposite movements at once (A→B while B→A) never deadlock into a 500: customers are locked in one global order, and a
// serialization or deadlock failure the database still reports is retried inside the service. PostgreSQL only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from 'decimal.js';
import { sql } from 'drizzle-orm';
import { balanceDrift, ledgerSums } from '../../server/store/queries/ledger';
import { type TestServer, startTestServer } from './harness';
import { approvedIndividual, approvedInNewPartner } from './kyc-helpers';
import { inTransaction } from '../../server/store/db';

const SKIP = process.env.DATABASE_URL ? false : 'SKIPPED: deadlock tests need PostgreSQL (set DATABASE_URL); PGlite runs one statement at a time';
if (SKIP) process.stderr.write(`\n*** ${SKIP} ***\n\n`);

let server: TestServer;
before(async () => {
  if (!SKIP) server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server?.close());

describe('opposite movements (PostgreSQL)', { skip: SKIP }, () => {
  test('60 transfers A→B and B→A at once between two customers of one partner: every one 201, none 500, the ledger balanced', async () => {
    const { api, apiKey, id: a, partnerId } = await approvedInNewPartner(server);
    const b = await approvedIndividual(server, api, apiKey);
    for (const c of [a, b]) assert.equal((await api.post('/v2/sandbox/wallets/fund', { customerId: c, blockchain: 'BASE', stablecoin: 'USDC', amount: '500' })).status, 200);
    const retriesBefore = server.deps.store.retries();
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api.post('/v2/transactions/transfer', { currency: 'USDC', from: i % 2 ? a : b, to: i % 2 ? b : a, amount: '1', blockchain: 'BASE' }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    assert.deepEqual(
      statuses.filter((s) => s !== 201),
      [],
      replies
        .filter((r) => r.status !== 201)
        .map((r) => r.text)
        .slice(0, 3)
        .join('\n'),
    );
    // Not rescued by the retry below: the lock order alone keeps them apart.
    assert.equal(server.deps.store.retries() - retriesBefore, 0, 'no transaction had to be run again');
    const { db } = server.deps.store;
    assert.ok((await ledgerSums(db, partnerId)).every((s) => new Decimal(s.sum).isZero()));
    assert.ok((await balanceDrift(db, partnerId)).every((d) => new Decimal(d.drift).isZero()));
  });

  test('two transactions that lock two rows in opposite order: the deadlock victim runs again and both commit', async () => {
    const { db } = server.deps.store;
    await db.execute(sql`CREATE TABLE IF NOT EXISTS deadlock_probe (id int PRIMARY KEY, n int NOT NULL)`);
    await db.execute(sql`INSERT INTO deadlock_probe VALUES (1, 0), (2, 0) ON CONFLICT (id) DO UPDATE SET n = 0`);
    const retriesBefore = server.deps.store.retries();
    // Each takes its first row, then waits until both have one: the second updates must cross, on the first attempt only.
    let holding = 0;
    let release!: () => void;
    const bothHolding = new Promise<void>((r) => (release = r));
    const cross = (first: number, second: number) => {
      let attempt = 0;
      return inTransaction(db, async (tx) => {
        attempt++;
        await tx.execute(sql`UPDATE deadlock_probe SET n = n + 1 WHERE id = ${first}`);
        if (attempt === 1) {
          if (++holding === 2) release();
          await bothHolding;
        }
        await tx.execute(sql`UPDATE deadlock_probe SET n = n + 1 WHERE id = ${second}`);
      });
    };
    const results = await Promise.allSettled([cross(1, 2), cross(2, 1)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled'],
      String(results.map((r) => (r.status === 'rejected' ? r.reason : '')).join(' ')),
    );
    assert.ok(server.deps.store.retries() - retriesBefore >= 1, 'the victim was run again');
    const rows = (await db.execute(sql`SELECT n FROM deadlock_probe ORDER BY id`)) as unknown as { rows: { n: number }[] };
    assert.deepEqual(
      rows.rows.map((r) => r.n),
      [2, 2],
      'each transaction counted once on each row',
    );
  });
});

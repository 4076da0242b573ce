// The sandbox clock is each partner's own, and kept in the database: one partner moving it expires nothing of another's,
// and every process on the database sees the same time for a partner (issue 9, item 10).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { PartnerClock } from '../../server/clock';
import { openStore } from '../../server/store/db';
import { client, newPartner, openTestStore, type TestServer, startTestServer } from './harness';
import { approvedIndividual, approvedInNewPartner } from './kyc-helpers';

let server: TestServer;
let second: TestServer;
let drop: () => Promise<void>;
before(async () => {
  const opened = await openTestStore();
  const url = process.env.DATABASE_URL;
  // Two app instances on one database, as two processes would be. On PostgreSQL each has a pool of its own on one schema;
  // PGlite is one in-process database, so there they share its handle (and nothing else: each has its own clock object).
  const schema = `ramp_test_clock_${process.pid}`;
  const [storeA, storeB] = url
    ? [await openStore({ databaseUrl: url, schema }), await openStore({ databaseUrl: url, schema })]
    : [opened.store, opened.store];
  drop = async () => {
    if (url) {
      await storeA.close();
      await storeB.close();
      await opened.store.db.execute(sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    }
    await opened.drop();
  };
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' }, { store: storeA });
  second = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' }, { store: storeB });
});
after(async () => {
  await server.close();
  await second.close();
  await drop();
});

const approved = () => approvedInNewPartner(server);

const lockBuy = async (api: ReturnType<typeof client>, customerId: string) => {
  const res = await api.post('/v2/exchange-rates', { customerId, type: 'LOCKED', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
  assert.equal(res.status, 200, res.text);
  return res.body as { id: string; expiresAt: string };
};

describe('the sandbox clock is per partner', () => {
  test("partner A advancing its clock expires A's quote and payment window, and nothing of partner B's", async () => {
    const a = await approved();
    const b = await approved();
    const qa = await lockBuy(a.api, a.id);
    const qb = await lockBuy(b.api, b.id);
    const { body: pendingB } = await b.api.post('/v2/transactions/on-ramp', { customerId: b.id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
    assert.equal(pendingB.state.status, 'AWAITING_FUNDS');
    const { body: pendingA } = await a.api.post('/v2/transactions/on-ramp', { customerId: a.id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });

    const moved = await a.api.post('/v2/sandbox/clock/advance', { seconds: 20 * 60 });
    assert.equal(moved.status, 200, moved.text);
    assert.ok(Date.parse(moved.body.now) - Date.now() > 19 * 60 * 1000);
    // The job runner works for every partner at once: it must only run what is due on each partner's own clock.
    await server.workers.runDue();

    const late = await a.api.post('/v2/transactions/on-ramp', { customerId: a.id, exchangeRateId: qa.id, purpose: 'BILLS' });
    assert.equal(late.body.code, 'RATE_EXPIRED', late.text);
    const expiredTx = (await a.api.get(`/v2/transactions/${pendingA.id}`)).body;
    assert.equal(expiredTx.state.status, 'FAILED');
    assert.equal(expiredTx.state.error.code, 'EXPIRED');
    assert.ok(Date.parse(expiredTx.updatedAt) >= Date.parse(moved.body.now) - 1000, 'the job ran on partner time');
    const onTime = await b.api.post('/v2/transactions/on-ramp', { customerId: b.id, exchangeRateId: qb.id, purpose: 'BILLS' });
    assert.equal(onTime.status, 201, onTime.text);
    assert.equal((await b.api.get(`/v2/transactions/${pendingB.id}`)).body.state.status, 'AWAITING_FUNDS');
    assert.equal((await b.api.post(`/v2/sandbox/transactions/${pendingB.id}/pay`)).status, 200);
  });

  test("a partner's clock is kept in the database: another app instance on it sees the same time", async () => {
    const a = await approved();
    const onSecond = client(second, a.apiKey);
    const q = await lockBuy(a.api, a.id);
    const realBefore = Date.now();
    const moved = await onSecond.post('/v2/sandbox/clock/advance', { seconds: 31 });
    assert.equal(moved.status, 200, moved.text);
    // Advanced through the second instance, read through the first.
    const late = await a.api.post('/v2/transactions/on-ramp', { customerId: a.id, exchangeRateId: q.id, purpose: 'BILLS' });
    assert.equal(late.body.code, 'RATE_EXPIRED', late.text);
    const q2 = await lockBuy(onSecond, a.id);
    // Compared with the partner's clock, not the machine's: a slow machine cannot make these fail.
    assert.ok(Date.parse(q2.expiresAt) >= Date.parse(moved.body.now) + 30_000, `quotes are stamped with the partner time on either instance: ${q2.expiresAt} after ${moved.body.now}`);
    const moved2 = await a.api.post('/v2/sandbox/clock/advance', { seconds: 10 });
    const realElapsed = Date.now() - realBefore;
    const partnerElapsed = Date.parse(moved2.body.now) - Date.parse(moved.body.now);
    assert.ok(partnerElapsed >= 10_000 && partnerElapsed <= 10_000 + realElapsed + 1000, `the second move adds to the first: ${moved.body.now} → ${moved2.body.now} in ${realElapsed} ms`);
  });
});

describe("a partner's offset is cached a second in process", () => {
  test('a move made elsewhere (another process, straight in the database) is seen within a second; one made here at once', async () => {
    const a = await approved();
    const partnerId = (await a.api.get('/v2/partner')).body.id as string;
    const quoteTime = async () => Date.parse((await a.api.post('/v2/exchange-rates', { customerId: a.id, type: 'LOCKED', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' })).body.expiresAt) - Date.now();
    await new Promise((r) => setTimeout(r, 1100)); // past the no-cache window that a move (approving took some) opens
    assert.ok((await quoteTime()) < 65_000); // this read is cached now
    // Another process moves the clock: this one does not ask the database again for up to a second...
    await server.deps.store.db.execute(sql`INSERT INTO partner_clocks (partner_id, offset_ms) VALUES (${partnerId}, 3600000) ON CONFLICT (partner_id) DO UPDATE SET offset_ms = partner_clocks.offset_ms + 3600000`);
    assert.ok((await quoteTime()) < 65_000, 'still the cached offset');
    // ...and then it does.
    await new Promise((r) => setTimeout(r, 1100));
    assert.ok((await quoteTime()) > 3_600_000, 'the moved offset, read again');
    // A move through this process is seen at once.
    const moved = await a.api.post('/v2/sandbox/clock/advance', { seconds: 3600 });
    assert.equal(moved.status, 200, moved.text);
    assert.ok((await quoteTime()) > 7_200_000);
  });
});

describe('PartnerClock scopes', () => {
  const near = (a: Date, ms: number) => Math.abs(a.getTime() - (Date.now() + ms)) < 1000;
  test('a scope reads its offset; one nested in it reads its own, an offset of 0 included; outside, wall time', async () => {
    const clock = new PartnerClock();
    assert.ok(near(clock.now(), 0));
    await clock.within(0, async () => assert.ok(near(clock.now(), 0)));
    await clock.within(3_600_000, async () => {
      assert.ok(near(clock.now(), 3_600_000));
      await clock.within(0, async () => assert.ok(near(clock.now(), 0), 'a partner without an offset inside another’s scope reads wall time'));
      await clock.within(3_600_000, async () => assert.ok(near(clock.now(), 3_600_000)));
      await new Promise((r) => setTimeout(r, 1));
      assert.ok(near(clock.now(), 3_600_000), 'the scope lasts across awaits');
    });
    assert.ok(near(clock.now(), 0));
  });
});

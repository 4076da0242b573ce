// Issue 9 item 17: an Idempotency-Key's effect and its stored response commit in one transaction, so a failure
// between them can never lead to the same key moving money twice.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { client, newPartner, type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

type Api = ReturnType<typeof client>;
const usdtOnBase = async (api: Api, id: string) =>
  (await api.get(`/v2/customers/${id}?includeBalances=true`)).body.wallets
    .find((w: { blockchain: string }) => w.blockchain === 'BASE')
    .balances.find((b: { stablecoin: string }) => b.stablecoin === 'USDT').balance as string;

/** A database fault on the write that stores the response: the moment between the effect and its completion. */
async function failCompletion(on: boolean) {
  const db = server.deps.store.db;
  if (on) {
    await db.execute(sql`CREATE OR REPLACE FUNCTION ramp_test_fail_completion() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected fault: completing the idempotency key'; END $$`);
    await db.execute(sql`DROP TRIGGER IF EXISTS ramp_test_fail_completion ON idempotency_keys`);
    await db.execute(sql`CREATE TRIGGER ramp_test_fail_completion BEFORE UPDATE ON idempotency_keys
      FOR EACH ROW WHEN (NEW.state = 'COMPLETE') EXECUTE FUNCTION ramp_test_fail_completion()`);
  } else {
    await db.execute(sql`DROP TRIGGER IF EXISTS ramp_test_fail_completion ON idempotency_keys`);
  }
}

test('a fault between the effect and storing its response books nothing; the retry books once and then replays', async () => {
  const p = await newPartner(server);
  const id = await approvedIndividual(server, p.api, p.apiKey);
  assert.equal((await p.api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'BASE', stablecoin: 'USDT', amount: '100' })).status, 200);
  const body = { currency: 'USDT', from: id, to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '10', blockchain: 'BASE' };
  const key = { 'idempotency-key': 'move-10' };

  await failCompletion(true);
  const failed = await p.api.post('/v2/transactions/transfer', body, key);
  await failCompletion(false);
  assert.equal(failed.status, 500, failed.text);
  assert.equal(await usdtOnBase(p.api, id), '100.000000', 'the failed request moved no money');

  // Long after any stale-claim timeout, the same key is retried.
  await server.advance(10 * 60);
  const retried = await p.api.post('/v2/transactions/transfer', body, key);
  assert.equal(retried.status, 201, retried.text);
  assert.equal(retried.headers.get('idempotency-replayed'), null);
  const again = await p.api.post('/v2/transactions/transfer', body, key);
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.body.id, retried.body.id);

  assert.equal(await usdtOnBase(p.api, id), '90.000000');
  assert.equal((await p.api.get('/v2/transactions')).body.data.length, 1);
});

test('a request that dies before commit leaves no claim: the key is usable at once', async () => {
  const p = await newPartner(server);
  const id = await approvedIndividual(server, p.api, p.apiKey);
  await p.api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'BASE', stablecoin: 'USDT', amount: '100' });
  const body = { currency: 'USDT', from: id, to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '10', blockchain: 'BASE' };
  await failCompletion(true);
  assert.equal((await p.api.post('/v2/transactions/transfer', body, { 'idempotency-key': 'k' })).status, 500);
  await failCompletion(false);
  const { readKey } = await import('../../server/store/queries/idempotency');
  assert.equal(await readKey(server.deps.store.db, p.partnerId, 'k'), undefined);
  const res = await p.api.post('/v2/transactions/transfer', body, { 'idempotency-key': 'k' });
  assert.equal(res.status, 201, res.text);
  assert.equal(await usdtOnBase(p.api, id), '90.000000');
});

test('concurrent retries of one key move the money once', async () => {
  const p = await newPartner(server);
  const id = await approvedIndividual(server, p.api, p.apiKey);
  await p.api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'BASE', stablecoin: 'USDT', amount: '100' });
  const body = { currency: 'USDT', from: id, to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '10', blockchain: 'BASE' };
  const replies = await Promise.all(Array.from({ length: 8 }, () => p.api.post('/v2/transactions/transfer', body, { 'idempotency-key': 'same' })));
  assert.deepEqual(new Set(replies.map((r) => r.status)), new Set([201]));
  assert.equal(new Set(replies.map((r) => r.body.id)).size, 1);
  assert.equal(await usdtOnBase(p.api, id), '90.000000');
});

test('a key stays a key on the wall clock: a partner’s sandbox clock moved 25 h ahead replays it, never runs it again (issue 33 item 7)', async () => {
  const p = await newPartner(server);
  const id = await approvedIndividual(server, p.api, p.apiKey);
  assert.equal((await p.api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'BASE', stablecoin: 'USDT', amount: '50' })).status, 200);
  const body = { currency: 'USDT', from: id, to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '5', blockchain: 'BASE' };
  const key = { 'idempotency-key': 'move-5-once' };
  const first = await p.api.post('/v2/transactions/transfer', body, key);
  assert.equal(first.status, 201, first.text);
  assert.equal((await p.api.post('/v2/sandbox/clock/advance', { seconds: 25 * 3600 })).status, 200);
  const later = await p.api.post('/v2/transactions/transfer', body, key);
  assert.equal(later.status, 201, later.text);
  assert.equal(later.headers.get('idempotency-replayed'), 'true');
  assert.equal(later.body.id, first.body.id);
  assert.equal(await usdtOnBase(p.api, id), '45.000000', 'moved once');
});

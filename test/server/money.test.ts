// The money core over HTTP and on the real database: wallets at approval, balances, quotes floating and locked, single-use redemption, partner fees, limits.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Decimal } from 'decimal.js';
import { getAddress } from 'viem';
import { reserveLimit } from '../../server/flows/limits';
import { redeemQuote } from '../../server/store/queries/exchange-rates';
import { ledgerSums } from '../../server/store/queries/ledger';
import { business, client, individual, newPartner, type TestServer, startTestServer } from './harness';
import { approvedIndividual, approvedInNewPartner } from './kyc-helpers';
import { inTransaction } from '../../server/store/db';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

/** Base58check decoded by hand (not the library the service derives with): 25 bytes, version 0x41, double-SHA-256 checksum. */
function tronCheck(address: string): boolean {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const ch of address) {
    const i = alphabet.indexOf(ch);
    if (i < 0) return false;
    n = n * 58n + BigInt(i);
  }
  const hex = n.toString(16).padStart(50, '0');
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.length !== 25 || bytes[0] !== 0x41) return false;
  const sum = createHash('sha256').update(createHash('sha256').update(bytes.subarray(0, 21)).digest()).digest();
  return sum.subarray(0, 4).equals(bytes.subarray(21));
}

const approved = () => approvedInNewPartner(server);

const quote = (api: ReturnType<typeof client>, body: Record<string, unknown>) => api.post('/v2/exchange-rates', body);
const buy = (customerId: string, over: Record<string, unknown> = {}) => ({
  customerId, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1000.00', ...over,
});

describe('wallets', () => {
  test('approval provisions one wallet per blockchain with real, independently checked addresses', async () => {
    const p = await newPartner(server);
    const { body: before } = await p.api.post('/v2/customers', individual());
    assert.deepEqual(before.wallets, []);
    const { api, id } = await approved();
    const { body: c } = await api.get(`/v2/customers/${id}`);
    assert.deepEqual(c.wallets.map((w: { blockchain: string }) => w.blockchain).sort(), ['BASE', 'ETHEREUM', 'POLYGON', 'TRON']);
    for (const w of c.wallets) {
      if (w.blockchain === 'TRON') assert.ok(tronCheck(w.address), `TRON base58check: ${w.address}`);
      else assert.equal(getAddress(w.address), w.address, `EIP-55: ${w.address}`);
      assert.match(w.blockExplorerUrl, /^https:\/\/.*(sepolia|amoy|nile|shasta)/);
      assert.ok(w.blockExplorerUrl.includes(w.address));
    }
    assert.deepEqual(c.wallets.filter((w: { isDefault: boolean }) => w.isDefault).map((w: { blockchain: string }) => w.blockchain), ['POLYGON']);
    assert.equal(c.wallets[0].balances, undefined, 'balances only when asked');
    const other = await approved();
    const otherWallets = (await other.api.get(`/v2/customers/${other.id}`)).body.wallets;
    assert.notEqual(otherWallets[0].address, c.wallets[0].address);
  });
});

describe('balances and the ledger', () => {
  test('sandbox funding credits one wallet, balanced against the treasury, shown with includeBalances', async () => {
    const { api, id, partnerId } = await approved();
    const funded = await api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'BASE', stablecoin: 'USDC', amount: '125.5' });
    assert.equal(funded.status, 200, funded.text);
    assert.equal(funded.body.balance, '125.500000');
    const { body: c } = await api.get(`/v2/customers/${id}?includeBalances=true`);
    const base = c.wallets.find((w: { blockchain: string }) => w.blockchain === 'BASE');
    assert.deepEqual(base.balances, [{ stablecoin: 'USDC', balance: '125.500000' }, { stablecoin: 'USDT', balance: '0.000000' }]);
    const sums = await ledgerSums(server.deps.store.db, partnerId);
    assert.ok(sums.every((s) => new Decimal(s.sum).isZero()));
  });

  test('funding is refused before approval, and amounts are checked', async () => {
    const { api } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    assert.equal((await api.post('/v2/sandbox/wallets/fund', { customerId: c.id, blockchain: 'BASE', stablecoin: 'USDC', amount: '1' })).status, 409);
    const ok = await approved();
    for (const amount of ['-1', '0', '1.0000001', '1e3', 'abc']) {
      const res = await ok.api.post('/v2/sandbox/wallets/fund', { customerId: ok.id, blockchain: 'BASE', stablecoin: 'USDC', amount });
      assert.equal(res.status, 400, amount);
      assert.equal(res.body.errors[0].path, 'amount');
    }
  });
});

describe('exchange rates', () => {
  test('a floating quote is indicative: not stored, names its blockchain, fees in the target currency add up', async () => {
    const { api, id } = await approved();
    const res = await quote(api, buy(id));
    assert.equal(res.status, 200, res.text);
    const q = res.body;
    assert.equal(q.id, undefined);
    assert.equal(q.expiresAt, undefined);
    assert.equal(q.blockchain, 'POLYGON');
    assert.equal(q.sourceAmount, '1000.00');
    for (const fee of [q.fees.service, q.fees.partner]) assert.deepEqual(Object.keys(fee).sort(), ['currency', 'flatAmount', 'rate', 'totalAmount']);
    assert.equal(q.fees.service.currency, 'USDC');
    assert.equal(q.fees.partner.totalAmount, '0.000000');
    assert.equal(new Decimal(q.baseTargetAmount).minus(q.fees.service.totalAmount).minus(q.fees.partner.totalAmount).toFixed(6), q.finalTargetAmount);
    assert.equal(q.finalTargetAmount.split('.')[1].length, 6);
    assert.equal((await quote(api, buy(id, { blockchain: 'TRON' }))).body.blockchain, 'TRON');
  });

  test('a locked quote is stored with an id and expires after its time lock; 1m and 5m cost more than 30s', async () => {
    const { api, id } = await approved();
    const before = Date.now();
    const l30 = await quote(api, buy(id, { type: 'LOCKED' }));
    assert.equal(l30.status, 200, l30.text);
    assert.match(l30.body.id, /^[0-9a-f-]{36}$/);
    assert.equal(l30.body.timeLock, '30s');
    const ttl = Date.parse(l30.body.expiresAt) - before;
    assert.ok(ttl >= 29_000 && ttl <= 31_000, String(ttl));
    const l1 = await quote(api, buy(id, { type: 'LOCKED', timeLock: '1m' }));
    const l5 = await quote(api, buy(id, { type: 'LOCKED', timeLock: '5m' }));
    assert.ok(new Decimal(l1.body.fees.service.rate).gt(l30.body.fees.service.rate));
    assert.ok(new Decimal(l5.body.fees.service.rate).gt(l1.body.fees.service.rate));
    assert.ok(new Decimal(l5.body.finalTargetAmount).lt(l30.body.finalTargetAmount));
  });

  test('a targetAmount quote delivers exactly that target', async () => {
    const { api, id } = await approved();
    const res = await quote(api, { customerId: id, type: 'LOCKED', rail: 'PIX', sourceCurrency: 'USDC', targetCurrency: 'BRL', targetAmount: '5000.00' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.finalTargetAmount, '5000.00');
    assert.equal(new Decimal(res.body.baseTargetAmount).minus(res.body.fees.service.totalAmount).minus(res.body.fees.partner.totalAmount).toFixed(2), '5000.00');
  });

  test('pairs are fiat ⇄ stablecoin with the rail of the fiat: anything else is 422 UNSUPPORTED_PAIR', async () => {
    const { api, id } = await approved();
    for (const over of [
      { sourceCurrency: 'BRL', targetCurrency: 'EUR' },
      { sourceCurrency: 'USDC', targetCurrency: 'USDT', sourceAmount: '10.000000' },
      { rail: 'SEPA' },
      { rail: 'PIX', sourceCurrency: 'USD', sourceAmount: '10.00' },
    ]) {
      const res = await quote(api, buy(id, over));
      assert.equal(res.status, 422, JSON.stringify(over));
      assert.equal(res.body.code, 'UNSUPPORTED_PAIR');
    }
    assert.equal((await quote(api, buy(id, { rail: 'SEPA', sourceCurrency: 'EUR', sourceAmount: '10.00' }))).status, 200);
  });

  test('bad quote input names the field', async () => {
    const { api, id } = await approved();
    const cases: [Record<string, unknown>, string][] = [
      [buy(id, { sourceAmount: undefined }), 'sourceAmount'],
      [buy(id, { targetAmount: '10.000000' }), 'targetAmount'],
      [buy(id, { timeLock: '1m' }), 'timeLock'],
      [buy(id, { type: 'LOCKED', sourceAmount: undefined, targetAmount: '10.0000001' }), 'targetAmount'],
      [buy(id, { type: 'LOCKED', sourceAmount: undefined }), 'sourceAmount'],
      [buy(id, { sourceAmount: '10.001' }), 'sourceAmount'],
      [buy(id, { sourceAmount: 1000 }), 'sourceAmount'],
      [buy(id, { type: 'LOCKED', timeLock: '10s' }), 'timeLock'],
      [buy(id, { sourceCurrency: 'BTC' }), 'sourceCurrency'],
      [buy(id, { blockchain: 'SOLANA' }), 'blockchain'],
    ];
    // An id that names nothing of this partner's is 404 naming the field (the one rule for ids in bodies).
    const ghostFee = await quote(api, buy(id, { partnerFeeId: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d' }));
    assert.equal(ghostFee.status, 404, ghostFee.text);
    assert.equal(ghostFee.body.errors[0].path, 'partnerFeeId');
    for (const [body, path] of cases) {
      const res = await quote(api, body);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.ok(res.body.errors.some((e: { path: string }) => e.path === path), `${path}: ${res.text}`);
    }
  });

  test("another partner's customer is 404", async () => {
    const a = await approved();
    const b = await newPartner(server);
    assert.equal((await quote(b.api, buy(a.id))).status, 404);
  });
});

describe('redeeming a locked quote', () => {

  test('after the clock passes expiresAt, redemption fails with RATE_EXPIRED; another partner or customer gets 404', async () => {
    const { api, id, partnerId } = await approved();
    const { body: q } = await quote(api, buy(id, { type: 'LOCKED' }));
    const { db } = server.deps.store;
    const redeem = async (over: Record<string, string> = {}) => {
      const now = await server.nowFor(partnerId);
      return inTransaction(db, (tx) => redeemQuote(tx, { partnerId, customerId: id, id: q.id, usedBy: 'x', now, ...over }));
    };
    await assert.rejects(redeem({ partnerId: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d' }), { code: 'NOT_FOUND' });
    await assert.rejects(redeem({ customerId: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d' }), { code: 'NOT_FOUND' });
    const advanced = await api.post('/v2/sandbox/clock/advance', { seconds: 31 });
    assert.equal(advanced.status, 200);
    await assert.rejects(redeem(), { code: 'RATE_EXPIRED' });
  });
});

describe('partner fees', () => {
  const fee = (over: Record<string, unknown> = {}) => ({
    name: 'Marketplace',
    walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    blockchain: 'ETHEREUM',
    fees: { onRamp: { rate: '25', flatAmount: '0.5' }, offRamp: { rate: '30', flatAmount: '1.00' } },
    ...over,
  });

  test('created, read, listed; applied to a quote in the target currency', async () => {
    const { api, id } = await approved();
    const created = await api.post('/v2/partner-fees', fee());
    assert.equal(created.status, 201, created.text);
    assert.equal((await api.get(`/v2/partner-fees/${created.body.id}`)).body.name, 'Marketplace');
    const list = await api.get('/v2/partner-fees');
    assert.equal(list.body.data.length, 1);
    assert.equal(list.body.pagination.hasNextPage, false);
    const q = await quote(api, buy(id, { partnerFeeId: created.body.id }));
    assert.equal(q.status, 200, q.text);
    assert.equal(q.body.fees.partner.rate, '25');
    const expected = new Decimal(q.body.baseTargetAmount).times(25).div(10000).plus('0.5').toDecimalPlaces(6, Decimal.ROUND_UP);
    assert.ok(new Decimal(q.body.fees.partner.totalAmount).eq(expected), `${q.body.fees.partner.totalAmount} vs ${expected}`);
  });

  test('the wallet address is validated for its chain, and fees for their shape', async () => {
    const { api } = await newPartner(server);
    const cases: [Record<string, unknown>, string][] = [
      [fee({ walletAddress: '0x52908400098527886E0F7030069857D2E4169Ee7' }), 'walletAddress'],
      [fee({ walletAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', blockchain: 'ETHEREUM' }), 'walletAddress'],
      [fee({ walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7', blockchain: 'TRON' }), 'walletAddress'],
      [fee({ fees: { onRamp: { rate: '-1', flatAmount: '0' }, offRamp: { rate: '1', flatAmount: '0' } } }), 'fees.onRamp.rate'],
      [fee({ fees: { onRamp: { rate: '1', flatAmount: '0' } } }), 'fees.offRamp'],
    ];
    for (const [body, path] of cases) {
      const res = await api.post('/v2/partner-fees', body);
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.errors.some((e: { path: string }) => e.path === path), `${path}: ${res.text}`);
    }
  });

  test("another partner's fee is 404 and cannot be used on a quote", async () => {
    const a = await newPartner(server);
    const { body: f } = await a.api.post('/v2/partner-fees', fee());
    const b = await approved();
    assert.equal((await b.api.get(`/v2/partner-fees/${f.id}`)).status, 404);
    assert.equal((await quote(b.api, buy(b.id, { partnerFeeId: f.id }))).status, 404);
  });
});

describe('transaction limits', () => {
  test('defaults by type, overridable per customer, with used and remaining', async () => {
    const { api } = await newPartner(server);
    const { body: biz } = await api.post('/v2/customers', business());
    const limits = (await api.get(`/v2/customers/${biz.id}?includeTransactionLimits=true`)).body.transactionLimits;
    assert.deepEqual(limits.single, { max: '100000.00' });
    assert.equal(limits.monthly.max, '1000000.00');
    const put = await api.send('PUT', `/v2/customers/${biz.id}/transaction-limits`, { daily: '250000.00' });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.daily.max, '250000.00');
    assert.equal(put.body.single.max, '100000.00');
    const reset = await api.send('PUT', `/v2/customers/${biz.id}/transaction-limits`, { daily: null });
    assert.equal(reset.body.daily.max, '500000.00');
    assert.equal((await api.send('PUT', `/v2/customers/${biz.id}/transaction-limits`, { daily: '-5' })).status, 400);
  });

  test('no limit above the service ceiling of the customer type (issue 32 item 11): 400 naming each, nothing changed', async () => {
    const { api } = await newPartner(server);
    const { body: person } = await api.post('/v2/customers', individual());
    const { body: biz } = await api.post('/v2/customers', business());
    const high = await api.send('PUT', `/v2/customers/${person.id}/transaction-limits`, { single: '100000.01', daily: '999999999999999', monthly: '6000.00' });
    assert.equal(high.status, 400);
    assert.deepEqual(high.body.errors.map((e: { path: string }) => e.path), ['single', 'daily']);
    assert.equal((await api.get(`/v2/customers/${person.id}?includeTransactionLimits=true`)).body.transactionLimits.monthly.max, '5000.00', 'nothing written');
    assert.equal((await api.send('PUT', `/v2/customers/${person.id}/transaction-limits`, { monthly: '100000.00' })).status, 200, 'the ceiling itself is allowed');
    assert.equal((await api.send('PUT', `/v2/customers/${biz.id}/transaction-limits`, { monthly: '10000000.00' })).status, 200, 'a business has its own');
    assert.equal((await api.send('PUT', `/v2/customers/${biz.id}/transaction-limits`, { monthly: '10000000.01' })).status, 400);
  });

  // The concurrent form of this (and every other race) is in races.test.ts, on PostgreSQL.
  test('reservations that each fit alone but not together: the second is refused naming the daily limit', async () => {
    const { api, partnerId } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    const { db } = server.deps.store;
    const reserve = (ref: string) => inTransaction(db, (tx) => reserveLimit(tx, server.deps, { partnerId, customerId: c.id }, '900.00', ref));
    await reserve('first');
    const results = [await reserve('a').then((v) => ({ status: 'fulfilled', value: v }), (reason) => ({ status: 'rejected', reason }))];
    results.push(await reserve('b').then((v) => ({ status: 'fulfilled', value: v }), (reason) => ({ status: 'rejected', reason })));
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    assert.equal(refused.length, 1);
    assert.equal(refused[0]!.reason.code, 'TRANSACTION_LIMIT_EXCEEDED');
    assert.equal(refused[0]!.reason.extra.limit, 'daily');
    assert.equal(refused[0]!.reason.extra.remaining, '200.00');
    const limits = (await api.get(`/v2/customers/${c.id}?includeTransactionLimits=true`)).body.transactionLimits;
    assert.deepEqual(limits.daily, { max: '2000.00', used: '1800.00', remaining: '200.00' });
    await assert.rejects(reserve('too-big-alone').then(() => inTransaction(db, (tx) => reserveLimit(tx, server.deps, { partnerId, customerId: c.id }, '1000.01', 'single'))), {
      code: 'TRANSACTION_LIMIT_EXCEEDED',
    });
  });
});

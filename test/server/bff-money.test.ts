// Quotes, bank accounts and transactions through the BFF: the session's customer only, its ids checked, no partner fee from a browser.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { pixAccount, selfPixAccount, settle } from './transactions-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000', RAMP_SANDBOX_STEP_MS: '1000', RAMP_SANDBOX_BANK_ACCOUNT_MS: '1000' });
});
after(() => server.close());

async function sessionFor(customerId: string) {
  const s = await client(server, server.apiKey).post('/v2/widget-sessions', { customerId });
  return client(server, s.body.token);
}

describe('money through the BFF', () => {
  test('quote, lock, on-ramp, sandbox pay and follow to SUCCESS for the session customer', async () => {
    const api = client(server, server.apiKey);
    const id = await approvedIndividual(server, api, server.apiKey);
    const bff = await sessionFor(id);
    const floating = await bff.post('/bff/exchange-rates', { type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '250.00' });
    assert.equal(floating.status, 200, floating.text);
    assert.equal(floating.body.customerId, id);
    const locked = await bff.post('/bff/exchange-rates', { type: 'LOCKED', timeLock: '1m', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '250.00' });
    assert.equal(locked.status, 200);
    const created = await bff.post('/bff/transactions/on-ramp', { exchangeRateId: locked.body.id, purpose: 'INVESTMENT' }, { 'idempotency-key': 'k1' });
    assert.equal(created.status, 201, created.text);
    const replay = await bff.post('/bff/transactions/on-ramp', { exchangeRateId: locked.body.id, purpose: 'INVESTMENT' }, { 'idempotency-key': 'k1' });
    assert.equal(replay.status, 201, 'a retry of the same request replays it');
    assert.equal(replay.body.id, created.body.id);
    assert.equal((await bff.post(`/bff/sandbox/transactions/${created.body.id}/pay`)).status, 200);
    await settle(server);
    assert.equal((await bff.get(`/bff/transactions/${created.body.id}`)).body.state.status, 'SUCCESS');
    assert.equal((await bff.get('/bff/transactions')).body.data.length, 1);
  });

  test('GET /bff/customer?include=limits,balances adds the remaining limits and the wallet balances; plain reads stay lean', async () => {
    const api = client(server, server.apiKey);
    const id = await approvedIndividual(server, api, server.apiKey);
    const bff = await sessionFor(id);
    const plain = await bff.get('/bff/customer');
    assert.equal(plain.status, 200);
    assert.equal(plain.body.transactionLimits, undefined);
    const full = await bff.get('/bff/customer?include=limits,balances');
    assert.equal(full.status, 200, full.text);
    assert.ok(full.body.transactionLimits?.daily?.remaining, 'the remaining daily limit');
    assert.ok(full.body.transactionLimits?.single?.max, 'the single limit');
    for (const w of full.body.wallets) assert.ok(Array.isArray(w.balances), `balances of the ${w.blockchain} wallet`);
    assert.equal(full.body.metadata, undefined);
  });

  test('the browser cannot choose the customer or a partner fee', async () => {
    const api = client(server, server.apiKey);
    const id = await approvedIndividual(server, api, server.apiKey);
    const bff = await sessionFor(id);
    for (const [path, body] of [
      ['/bff/exchange-rates', { type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1.00', partnerFeeId: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d' }],
      ['/bff/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1.00' }],
      ['/bff/bank-accounts', pixAccount(id)],
    ] as const) {
      const res = await bff.post(path, body);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
    }
  });

  test("another customer's transaction and bank account are 404 to this session", async () => {
    const api = client(server, server.apiKey);
    const mine = await approvedIndividual(server, api, server.apiKey);
    const theirs = await approvedIndividual(server, api, server.apiKey);
    const { body: t } = await api.post('/v2/transactions/on-ramp', { customerId: theirs, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '5.00' });
    const { body: account } = await api.post('/v2/bank-accounts', pixAccount(theirs));
    await settle(server, 5);
    const bff = await sessionFor(mine);
    assert.equal((await bff.get(`/bff/transactions/${t.id}`)).status, 404);
    assert.equal((await bff.post(`/bff/sandbox/transactions/${t.id}/pay`)).status, 404);
    assert.equal((await bff.send('DELETE', `/bff/bank-accounts/${account.id}`)).status, 404);
    assert.equal((await bff.post('/bff/transactions/off-ramp', { bankAccountId: account.id, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '1' })).status, 404);
    assert.equal((await bff.get('/bff/transactions/not-an-id')).status, 404);
    assert.deepEqual((await bff.get('/bff/bank-accounts')).body.data, []);
    assert.deepEqual((await bff.get('/bff/transactions')).body.data, []);
  });

  test('bank accounts and an off-ramp from the widget', async () => {
    const api = client(server, server.apiKey);
    const id = await approvedIndividual(server, api, server.apiKey);
    await api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '20' });
    const bff = await sessionFor(id);
    const { customerId: _ignored, ...body } = await selfPixAccount(api, id);
    const created = await bff.post('/bff/bank-accounts', body);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.customerId, id);
    await settle(server, 5);
    const off = await bff.post('/bff/transactions/off-ramp', { bankAccountId: created.body.id, purpose: 'PERSONAL_ACCOUNT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '5' });
    assert.equal(off.status, 201, off.text);
    await settle(server);
    assert.equal((await bff.get(`/bff/transactions/${off.body.id}`)).body.state.status, 'SUCCESS');
  });
});

// Transfers to an address one of our wallets issued: an internal transfer that credits that wallet (issue 9, item 2).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from 'decimal.js';
import { balanceDrift, ledgerSums } from '../../server/store/queries/ledger';
import { client, newPartner, type TestServer, startTestServer } from './harness';
import { approvedIndividual, approvedInNewPartner } from './kyc-helpers';
import { settle } from './transactions-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

type Api = ReturnType<typeof client>;

const approved = () => approvedInNewPartner(server);

const walletOf = async (api: Api, id: string, chain: string) =>
  (await api.get(`/v2/customers/${id}?includeBalances=true`)).body.wallets.find((w: { blockchain: string }) => w.blockchain === chain) as {
    address: string;
    balances: { stablecoin: string; balance: string }[];
  };
const balanceOf = async (api: Api, id: string, chain: string, coin: string) => (await walletOf(api, id, chain)).balances.find((b) => b.stablecoin === coin)!.balance;

async function ledgerIsSound(partnerId: string) {
  const { db } = server.deps.store;
  assert.ok((await ledgerSums(db, partnerId)).every((s) => new Decimal(s.sum).isZero()), JSON.stringify(await ledgerSums(db, partnerId)));
  assert.ok((await balanceDrift(db, partnerId)).every((d) => new Decimal(d.drift).isZero()));
}

describe('a transfer to an address of one of our wallets', () => {
  test("to another customer's address (any letter case): that customer is credited, nothing books to external", async () => {
    const a = await approved();
    const b = await approvedIndividual(server, a.api, a.apiKey);
    await a.api.post('/v2/sandbox/wallets/fund', { customerId: a.id, blockchain: 'BASE', stablecoin: 'USDC', amount: '50' });
    const address = (await walletOf(a.api, b, 'BASE')).address;
    for (const to of [address, address.toLowerCase()]) {
      const res = await a.api.post('/v2/transactions/transfer', { currency: 'USDC', from: a.id, to, amount: '10', blockchain: 'BASE' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.request.to, to);
    }
    await settle(server);
    assert.equal(await balanceOf(a.api, a.id, 'BASE', 'USDC'), '30.000000');
    assert.equal(await balanceOf(a.api, b, 'BASE', 'USDC'), '20.000000');
    await ledgerIsSound(a.partnerId);
  });

  test("a TRON address of another customer is internal too", async () => {
    const a = await approved();
    const b = await approvedIndividual(server, a.api, a.apiKey);
    await a.api.post('/v2/sandbox/wallets/fund', { customerId: a.id, blockchain: 'TRON', stablecoin: 'USDT', amount: '5' });
    const to = (await walletOf(a.api, b, 'TRON')).address;
    const res = await a.api.post('/v2/transactions/transfer', { currency: 'USDT', from: a.id, to, amount: '5', blockchain: 'TRON' });
    assert.equal(res.status, 201, res.text);
    await settle(server);
    assert.equal(await balanceOf(a.api, b, 'TRON', 'USDT'), '5.000000');
  });

  test("to the sender's own address: 400 naming `to`, nothing held or reserved", async () => {
    const a = await approved();
    await a.api.post('/v2/sandbox/wallets/fund', { customerId: a.id, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '10' });
    const own = (await walletOf(a.api, a.id, 'POLYGON')).address;
    // The EVM chains share one address: the sender's ETHEREUM address is its POLYGON address as well.
    for (const to of [own, own.toLowerCase(), (await walletOf(a.api, a.id, 'ETHEREUM')).address]) {
      const res = await a.api.post('/v2/transactions/transfer', { currency: 'USDC', from: a.id, to, amount: '1', blockchain: 'POLYGON' });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.errors[0].path, 'to');
    }
    assert.equal(await balanceOf(a.api, a.id, 'POLYGON', 'USDC'), '10.000000');
    assert.equal((await a.api.get(`/v2/customers/${a.id}?includeTransactionLimits=true`)).body.transactionLimits.daily.used, '0.00');
  });

  test("another partner's customer's address: credited in that partner's ledger, and the sender learns nothing about it", async () => {
    const a = await approved();
    const b = await approved();
    await a.api.post('/v2/sandbox/wallets/fund', { customerId: a.id, blockchain: 'BASE', stablecoin: 'USDC', amount: '50' });
    const to = (await walletOf(b.api, b.id, 'BASE')).address;
    const res = await a.api.post('/v2/transactions/transfer', { currency: 'USDC', from: a.id, to, amount: '12.5', blockchain: 'BASE' });
    assert.equal(res.status, 201, res.text);
    assert.ok(!res.text.includes(b.id), "the other partner's customer id never reaches the sender");
    await settle(server);
    const done = await a.api.get(`/v2/transactions/${res.body.id}`);
    assert.equal(done.body.state.status, 'SUCCESS');
    assert.ok(!done.text.includes(b.id) && !done.text.includes(b.partnerId));
    const events = await a.api.get('/v2/events');
    assert.ok(!events.text.includes(b.id) && !events.text.includes(b.partnerId));
    assert.equal(await balanceOf(a.api, a.id, 'BASE', 'USDC'), '37.500000');
    assert.equal(await balanceOf(b.api, b.id, 'BASE', 'USDC'), '12.500000');
    await ledgerIsSound(a.partnerId);
    await ledgerIsSound(b.partnerId);
  });

  test('a failed internal transfer returns the funds to the sender and credits no one', async () => {
    const a = await approved();
    const b = await approvedIndividual(server, a.api, a.apiKey);
    await a.api.post('/v2/sandbox/wallets/fund', { customerId: a.id, blockchain: 'BASE', stablecoin: 'USDC', amount: '10' });
    const to = (await walletOf(a.api, b, 'BASE')).address;
    const res = await a.api.post('/v2/transactions/transfer', { currency: 'USDC', from: a.id, to, amount: '4', blockchain: 'BASE' });
    await a.api.post(`/v2/sandbox/transactions/${res.body.id}/fail`);
    await settle(server);
    assert.equal(await balanceOf(a.api, a.id, 'BASE', 'USDC'), '10.000000');
    assert.equal(await balanceOf(a.api, b, 'BASE', 'USDC'), '0.000000');
    await ledgerIsSound(a.partnerId);
  });
});

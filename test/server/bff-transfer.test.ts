// Withdrawals through the BFF: the session's customer pays, to an outside address only, with an Idempotency-Key; a bad
// address is a 400 naming `to`; a balance never goes negative, also when withdrawals race.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { balanceOf, client, type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000', RAMP_SANDBOX_STEP_MS: '1000' });
});
after(() => server.close());

const outside = '0x52908400098527886E0F7030069857D2E4169EE7';
const key = (name: string) => ({ 'idempotency-key': `${name}-${Math.random().toString(36).slice(2)}` });

async function sessionFor(customerId: string) {
  const s = await client(server, server.apiKey).post('/v2/widget-sessions', { customerId });
  return client(server, s.body.token);
}

async function fundedCustomer(amount: string) {
  const api = client(server, server.apiKey);
  const id = await approvedIndividual(server, api, server.apiKey);
  const funded = await api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'BASE', stablecoin: 'USDC', amount });
  assert.equal(funded.status, 200, funded.text);
  return id;
}

const balance = (id: string) => balanceOf(client(server, server.apiKey), id, 'BASE');

describe('POST /bff/transactions/transfer', () => {
  test("sends from the session's customer; the same Idempotency-Key replays the same transfer, and it shows in the history", async () => {
    const id = await fundedCustomer('30');
    const bff = await sessionFor(id);
    const body = { currency: 'USDC', blockchain: 'BASE', to: outside, amount: '12.5' };
    const headers = key('withdraw');
    const sent = await bff.post('/bff/transactions/transfer', body, headers);
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.body.type, 'TRANSFER');
    assert.equal(sent.body.customerId, id);
    assert.equal(sent.body.request.from, id);
    const again = await bff.post('/bff/transactions/transfer', body, headers);
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.id, sent.body.id, 'a retry with the same key is the same transfer');
    assert.equal(await balance(id), '17.500000', 'debited once');
    const listed = (await bff.get('/bff/transactions')).body.data;
    assert.deepEqual(listed.map((t: { id: string }) => t.id), [sent.body.id]);
  });

  test("the browser cannot name who pays, nor send to a customer id; another customer's money stays where it is", async () => {
    const mine = await fundedCustomer('5');
    const theirs = await fundedCustomer('50');
    const bff = await sessionFor(mine);
    for (const [extra, path] of [
      [{ from: theirs }, 'from'],
      [{ customerId: theirs }, 'customerId'],
    ] as const) {
      const res = await bff.post('/bff/transactions/transfer', { currency: 'USDC', blockchain: 'BASE', to: outside, amount: '40', ...extra }, key('foreign'));
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path), [path]);
    }
    const toCustomer = await bff.post('/bff/transactions/transfer', { currency: 'USDC', blockchain: 'BASE', to: theirs, amount: '1' }, key('to-id'));
    assert.equal(toCustomer.status, 400, toCustomer.text);
    assert.equal(toCustomer.body.errors[0].path, 'to');
    // Asking for the other customer's amount only ever spends this customer's wallet: refused, nothing moves.
    const over = await bff.post('/bff/transactions/transfer', { currency: 'USDC', blockchain: 'BASE', to: outside, amount: '40' }, key('over'));
    assert.equal(over.status, 422, over.text);
    assert.equal(over.body.code, 'INSUFFICIENT_BALANCE');
    assert.equal(await balance(theirs), '50.000000');
    assert.equal(await balance(mine), '5.000000');
  });

  test('a bad address is a 400 naming `to`; a missing Idempotency-Key a 400 naming it; nothing is sent', async () => {
    const id = await fundedCustomer('10');
    const bff = await sessionFor(id);
    // A TRON address on an EVM chain, and an EVM address with a broken checksum.
    for (const to of ['TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', '0x52908400098527886e0F7030069857D2E4169EE7']) {
      const res = await bff.post('/bff/transactions/transfer', { currency: 'USDC', blockchain: 'BASE', to, amount: '1' }, key('bad'));
      assert.equal(res.status, 400, `${to}: ${res.text}`);
      assert.equal(res.body.errors[0].path, 'to');
    }
    const unkeyed = await bff.post('/bff/transactions/transfer', { currency: 'USDC', blockchain: 'BASE', to: outside, amount: '1' });
    assert.equal(unkeyed.status, 400, unkeyed.text);
    assert.equal(unkeyed.body.errors[0].path, 'header.Idempotency-Key');
    assert.equal(await balance(id), '10.000000');
    assert.deepEqual((await bff.get('/bff/transactions')).body.data, []);
  });

  test('withdrawals racing for one balance: those that fit go through, the rest are 422, the balance never goes negative', async () => {
    const id = await fundedCustomer('10');
    const bff = await sessionFor(id);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => bff.post('/bff/transactions/transfer', { currency: 'USDC', blockchain: 'BASE', to: outside, amount: '3' }, key(`race-${i}`))),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 201, 201, 422, 422], results.map((r) => r.text).join('\n'));
    for (const refused of results.filter((r) => r.status === 422)) assert.equal(refused.body.code, 'INSUFFICIENT_BALANCE');
    assert.equal(await balance(id), '1.000000');
  });

  test('no session, no transfer', async () => {
    const res = await client(server).post('/bff/transactions/transfer', { currency: 'USDC', blockchain: 'BASE', to: outside, amount: '1' }, key('anon'));
    assert.equal(res.status, 401);
  });
});

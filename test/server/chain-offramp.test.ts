// Off-ramps and transfers on a real node (anvil, automining): the customer's stablecoin leaves the wallet signed with the
// wallet's own key, its gas funded by the treasury first (never from the stablecoin); a refund moves it back; a transfer
// is one transaction to its destination; the books equal the chain.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DEV_ACCOUNTS } from '../../scripts/devnet/anvil.mjs';
import { fromBaseUnits, toBaseUnits } from '../../server/domain/chain/amounts';
import type { Address, Hex } from '../../server/domain/chain/chain-client';
import { transferOf } from '../../server/store/queries/chain-transfers';
import { type TestServer, startTestServer } from './harness';
import { type ChainNode, startChainNode } from './support/chain-node';
import { chainLegs } from './support/chain-legs';
import { payouts } from './support/payouts';
import { settle } from './transactions-helpers';

const seed = randomBytes(32).toString('hex');
let chain: ChainNode;
let server: TestServer;
let p: ReturnType<typeof payouts>;
let legs: ReturnType<typeof chainLegs>;

before(async () => {
  chain = await startChainNode({ chainId: 31_406, blockchain: 'BASE', seed, usdc: '1000', native: 10n ** 19n });
  server = await startTestServer({ RAMP_WALLET_SEED: seed, RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_CHAIN_POLL_MS: '50', ...chain.env(undefined, 1) });
  p = payouts(server);
  legs = chainLegs(server, p, chain);
  await p.monitor.scanDeposits();
});

after(async () => {
  await p?.monitor.stop();
  await server?.close();
  await chain?.stop();
});

describe('off-ramps on a configured chain', () => {
  test('the stablecoin moves wallet → treasury, the wallet’s gas paid by the treasury first; TRADING only once confirmed, with the real hash', async () => {
    const c = await legs.fundedCustomer('40');
    const treasuryBefore = await chain.balanceOf(chain.usdc, chain.treasury);
    const id = await legs.offRamp(c.accountId, '25.000000');
    assert.equal(await p.statusOf(id), 'TRANSFERRING_STABLECOIN');
    assert.equal(await p.apiBalance(c.customerId, 'BASE'), '15.000000', 'the ledger takes it at once, as before');
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] }, 'queued: still on the chain, already off the ledger');
    assert.equal(await chain.pub.getBalance({ address: c.wallet as Address }), 0n, 'a fresh wallet has no gas');
    await p.until(id, (r) => r.status === 'CONFIRMED', 'the off-ramp transfer confirms', 30_000);
    const leg = await p.transferRow(id);
    assert.equal(leg.kind, 'OFFRAMP');
    assert.equal(leg.fromAddress, c.wallet);
    assert.equal(leg.toAddress, chain.treasury);
    const gas = await transferOf(server.deps.store.db, 'GAS', id);
    assert.equal(gas?.status, 'CONFIRMED', 'the wallet was funded with gas by the treasury');
    assert.equal(gas?.fromAddress, chain.treasury);
    const receipt = await chain.pub.getTransactionReceipt({ hash: leg.hash as Hex });
    assert.equal(receipt.from.toLowerCase(), c.wallet.toLowerCase(), 'signed by the customer’s own wallet');
    assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdc, c.wallet), 6), '15.000000', 'the gas did not come out of the stablecoin');
    assert.equal((await chain.balanceOf(chain.usdc, chain.treasury)) - treasuryBefore, toBaseUnits('25', 6));
    const t = (await p.api.get(`/v2/transactions/${id}`)).body;
    assert.equal(t.state.status, 'TRADING');
    assert.equal(t.state.receipt.transactionHash, leg.hash);
    await settle(server);
    assert.equal(await p.statusOf(id), 'SUCCESS');
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] });
  });

  test('a failure after the stablecoin arrived refunds it on the chain: REFUNDED once the treasury’s transfer back is confirmed', async () => {
    const c = await legs.fundedCustomer('30');
    const id = await legs.offRamp(c.accountId, '10.000000');
    await p.until(id, (r) => r.status === 'CONFIRMED', 'the off-ramp transfer confirms', 30_000);
    assert.equal(await p.statusOf(id), 'TRADING');
    assert.equal((await p.api.post(`/v2/sandbox/transactions/${id}/fail`)).status, 200);
    assert.equal(await p.statusOf(id), 'REFUNDING');
    await settle(server, 5); // queues the refund
    const refund = await transferOf(server.deps.store.db, 'REFUND', id);
    assert.equal(refund?.toAddress, c.wallet);
    assert.equal(await p.apiBalance(c.customerId, 'BASE'), '20.000000', 'credited back only when the refund is confirmed');
    for (let i = 0; i < 200 && (await transferOf(server.deps.store.db, 'REFUND', id))?.status !== 'CONFIRMED'; i++) await p.check();
    assert.equal(await p.statusOf(id), 'REFUNDED');
    assert.equal(await p.apiBalance(c.customerId, 'BASE'), '30.000000');
    assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdc, c.wallet), 6), '30.000000');
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] });
  });

  test('an off-ramp whose stablecoin is on its way cannot be failed (it may land): 409', async () => {
    const c = await legs.fundedCustomer('5');
    const id = await legs.offRamp(c.accountId, '5.000000');
    assert.equal((await p.transferRow(id)).status, 'QUEUED');
    const fail = await p.api.post(`/v2/sandbox/transactions/${id}/fail`);
    assert.equal(fail.status, 409, fail.text);
    await p.until(id, (r) => r.status === 'CONFIRMED', 'it completes', 30_000);
    assert.equal(await p.statusOf(id), 'TRADING');
  });
});

describe('transfers on a configured chain', () => {

  test('to an outside address: one transaction from the wallet to that address, SUCCESS once confirmed, with its hash', async () => {
    const c = await legs.fundedCustomer('20');
    const outside = DEV_ACCOUNTS[3]!.address as Address;
    const before = await chain.balanceOf(chain.usdc, outside);
    const id = await legs.transfer(c.customerId, outside, '8');
    assert.equal(await p.statusOf(id), 'TRANSFERRING_STABLECOIN');
    await p.until(id, (r) => r.status === 'CONFIRMED', 'the transfer confirms', 30_000);
    const leg = await transferOf(server.deps.store.db, 'TRANSFER', id);
    const receipt = await chain.pub.getTransactionReceipt({ hash: leg!.hash as Hex });
    assert.equal(receipt.from.toLowerCase(), c.wallet.toLowerCase());
    assert.equal((await chain.balanceOf(chain.usdc, outside)) - before, toBaseUnits('8', 6), 'straight to the address: one transfer, not two');
    const t = (await p.api.get(`/v2/transactions/${id}`)).body;
    assert.equal(t.state.status, 'SUCCESS');
    assert.equal(t.state.receipt.transactionHash, leg!.hash);
    assert.equal(await p.apiBalance(c.customerId, 'BASE'), '12.000000');
    assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdc, c.wallet), 6), '12.000000');
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] });
  });

  test('to another customer: wallet to wallet on the chain, credited once by the transfer, never again as a deposit', async () => {
    const a = await legs.fundedCustomer('15');
    const b = await legs.fundedCustomer('1');
    const id = await legs.transfer(a.customerId, b.customerId, '6');
    await p.until(id, (r) => r.status === 'CONFIRMED', 'the transfer confirms', 30_000);
    assert.equal(await p.statusOf(id), 'SUCCESS');
    await p.monitor.scanDeposits();
    await chain.mine(2);
    await p.monitor.scanDeposits();
    assert.equal(await p.apiBalance(b.customerId, 'BASE'), '7.000000');
    assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdc, b.wallet), 6), '7.000000');
    assert.equal(await p.apiBalance(a.customerId, 'BASE'), '9.000000');
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] });
  });
});

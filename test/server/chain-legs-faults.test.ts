// A customer's own on-chain legs through the faults of a real node (anvil behind a proxy the tests take down): the off-ramp's
// move into the treasury and the treasury's gas for it, the refund back, a transfer out, and the deposit watcher. For
// each, a node that is down or erroring (the leg waits, never FAILED, and moves once when the node is back) and a node
// whose answer to a broadcast is lost after it took the transaction (found on the chain, never sent twice). Judged by
// what the chain holds, not by our rows.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS } from '../../scripts/devnet/anvil.mjs';
import { mint } from '../../scripts/devnet/token.mjs';
import { fromBaseUnits, toBaseUnits } from '../../server/domain/chain/amounts';
import type { Address, Hex } from '../../server/domain/chain/chain-client';
import { checkTransfer } from '../../server/flows/chain/monitor';
import { cursorOf } from '../../server/store/queries/chain-deposits';
import { transferOf } from '../../server/store/queries/chain-transfers';
import { chainDeposits } from '../../server/store/schema/index';
import { type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { type ChainNode, chainFaultEnv, startChainNode } from './support/chain-node';
import { chainLegs } from './support/chain-legs';
import { payouts } from './support/payouts';
import { type RpcProxy, startRpcProxy } from './support/rpc-proxy';
import { settle } from './transactions-helpers';

const seed = randomBytes(32).toString('hex');
let chain: ChainNode; // automining: what the node takes is in a block at once
let proxy: RpcProxy;
let server: TestServer;
let p: ReturnType<typeof payouts>;
let legs: ReturnType<typeof chainLegs>;

before(async () => {
  chain = await startChainNode({ chainId: 31_407, blockchain: 'BASE', seed, usdc: '1000', native: 10n ** 19n });
  proxy = await startRpcProxy(chain.rpcUrl);
  server = await startTestServer({
    RAMP_WALLET_SEED: seed,
    ...chainFaultEnv,
    ...chain.env(proxy.url, 1),
  });
  p = payouts(server);
  legs = chainLegs(server, p, chain);
  await p.monitor.scanDeposits();
});

after(async () => {
  await p?.monitor.stop();
  await server?.close();
  await proxy?.close();
  await chain?.stop();
});

const nonceOf = (address: string) => chain.pub.getTransactionCount({ address: address as Address });
const usdcOf = async (address: string) => fromBaseUnits(await chain.balanceOf(chain.usdc, address), 6);
const db = () => server.deps.store.db;
const readyz = async () => (await (await server.app.request('/readyz')).json()) as any;

/** The node gone (connections reset), then answering every call with an error, until the leg has waited through both. */
async function nodeDownThrough(kind: 'GAS' | 'OFFRAMP' | 'REFUND' | 'TRANSFER', id: string) {
  proxy.mode = 'down';
  const gone = await p.untilLeg(kind, id, (r) => r.waitReason === 'NODE_UNAVAILABLE', `the ${kind} leg waits for the node that is gone`);
  proxy.mode = 'error';
  const erroring = await p.untilLeg(kind, id, (r) => r.failures >= gone.failures + 2, `the ${kind} leg waits through an erroring node`);
  assert.equal(erroring.waitReason, 'NODE_UNAVAILABLE');
  const ready = await readyz();
  assert.equal(ready.chains.BASE.status, 'waiting');
  assert.ok(ready.chains.BASE.waiting.some((w: { reason: string }) => w.reason === 'NODE_UNAVAILABLE'), JSON.stringify(ready.chains.BASE));
  await settle(server); // the jobs run meanwhile: they do not give up on it either
  proxy.mode = 'pass';
  return erroring;
}

describe('an off-ramp through a node that is down or loses answers', () => {
  test('node down under the gas funding and under the move: each waits (never FAILED) and happens once when the node is back', async () => {
    const c = await legs.fundedCustomer('40');
    const treasuryNonce = await nonceOf(chain.treasury);
    const treasuryUsdc = await chain.balanceOf(chain.usdc, chain.treasury);
    proxy.mode = 'down';
    const id = await legs.offRamp(c.accountId, '25.000000');
    await nodeDownThrough('OFFRAMP', id);
    assert.equal(await p.statusOf(id), 'TRANSFERRING_STABLECOIN');
    // Back for one check of the move alone: the wallet has no gas, so the treasury's GAS transfer is queued (and nothing
    // else runs); the node goes away again under it.
    await checkTransfer(server.deps, p.monitor.timing, (await transferOf(db(), 'OFFRAMP', id))!);
    assert.equal((await transferOf(db(), 'OFFRAMP', id))!.waitReason, 'AWAITING_GAS');
    assert.equal((await transferOf(db(), 'GAS', id))!.status, 'QUEUED');
    const gas = await nodeDownThrough('GAS', id);
    assert.equal(gas.status, 'QUEUED', 'nothing signed without the node');
    assert.equal(await chain.pub.getBalance({ address: c.wallet as Address }), 0n);
    assert.equal(await p.statusOf(id), 'TRANSFERRING_STABLECOIN');
    await p.untilLeg('OFFRAMP', id, (r) => r.status === 'CONFIRMED', 'the move confirms', 30_000);
    assert.equal(await p.statusOf(id), 'TRADING');
    // The chain: one gas transfer from the treasury, one move from the wallet.
    assert.equal(await nonceOf(chain.treasury), treasuryNonce + 1, 'the treasury sent one transaction: the gas');
    assert.equal(await nonceOf(c.wallet), 1, 'the wallet sent one transaction: the move');
    assert.equal((await chain.balanceOf(chain.usdc, chain.treasury)) - treasuryUsdc, toBaseUnits('25', 6));
    assert.equal(await usdcOf(c.wallet), '15.000000');
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] });
  });

  test('the answers to the gas funding and to the move lost after the node took them: found on the chain, neither sent twice', async () => {
    const c = await legs.fundedCustomer('30');
    const treasuryNonce = await nonceOf(chain.treasury);
    const lostBefore = proxy.lost.length;
    proxy.mode = 'lose-answer';
    const id = await legs.offRamp(c.accountId, '12.000000');
    // Every broadcast's answer is lost until the move is confirmed: each leg must be found on the chain from its record.
    const move = await p.untilLeg('OFFRAMP', id, (r) => r.status === 'CONFIRMED', 'the move confirms from its record', 30_000);
    proxy.mode = 'pass';
    const gas = (await transferOf(db(), 'GAS', id))!;
    assert.equal(gas.status, 'CONFIRMED');
    assert.deepEqual(proxy.lost.slice(lostBefore), [gas.raw, move.raw], 'each broadcast once, its answer lost, none sent again');
    assert.equal(await nonceOf(chain.treasury), treasuryNonce + 1);
    assert.equal(await nonceOf(c.wallet), 1);
    assert.equal(await usdcOf(c.wallet), '18.000000');
    assert.equal((await p.api.get(`/v2/transactions/${id}`)).body.state.receipt.transactionHash, move.hash);
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] });
  });

  test('the refund through a node that is down, then one that loses its answer: back in the wallet once, REFUNDED', async () => {
    const c = await legs.fundedCustomer('20');
    const id = await legs.offRamp(c.accountId, '8.000000');
    await p.untilLeg('OFFRAMP', id, (r) => r.status === 'CONFIRMED', 'the move confirms', 30_000);
    assert.equal((await p.api.post(`/v2/sandbox/transactions/${id}/fail`)).status, 200);
    const treasuryNonce = await nonceOf(chain.treasury);
    proxy.mode = 'down';
    await settle(server, 5); // queues the refund
    await nodeDownThrough('REFUND', id);
    assert.equal(await p.statusOf(id), 'REFUNDING');
    assert.equal(await p.apiBalance(c.customerId, 'BASE'), '12.000000', 'not credited back before the chain moved it');
    const lostBefore = proxy.lost.length;
    proxy.mode = 'lose-answer';
    const sent = await p.untilLeg('REFUND', id, (r) => r.status === 'CONFIRMED', 'the refund confirms from its record');
    proxy.mode = 'pass';
    assert.deepEqual(proxy.lost.slice(lostBefore), [sent.raw], 'sent once, its answer lost, never sent again');
    assert.equal(await p.statusOf(id), 'REFUNDED');
    assert.equal(await nonceOf(chain.treasury), treasuryNonce + 1, 'one refund from the treasury');
    const refunds = (await chain.transfersTo(chain.usdc, c.wallet)).filter((t) => t.hash === sent.hash);
    assert.equal(refunds.length, 1);
    assert.equal(await usdcOf(c.wallet), '20.000000');
    assert.equal(await p.apiBalance(c.customerId, 'BASE'), '20.000000');
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] });
  });
});

describe('a transfer through a node that is down or loses answers', () => {
  test('to an outside address: waits through the outage, then its answer (and its gas funding’s) lost: one transaction on the chain, SUCCESS', async () => {
    const c = await legs.fundedCustomer('20');
    const outside = privateKeyToAccount(generatePrivateKey()).address;
    const before = await chain.transfersTo(chain.usdc, outside);
    proxy.mode = 'down';
    const id = await legs.transfer(c.customerId, outside, '7');
    await nodeDownThrough('TRANSFER', id);
    assert.equal(await p.statusOf(id), 'TRANSFERRING_STABLECOIN');
    // Every broadcast's answer lost from here: the gas funding's and the transfer's.
    const lostBefore = proxy.lost.length;
    proxy.mode = 'lose-answer';
    const sent = await p.untilLeg('TRANSFER', id, (r) => r.status === 'CONFIRMED', 'the transfer confirms from its record', 30_000);
    proxy.mode = 'pass';
    const gas = (await transferOf(db(), 'GAS', id))!;
    assert.equal(gas.status, 'CONFIRMED');
    assert.deepEqual(proxy.lost.slice(lostBefore), [gas.raw, sent.raw], 'each broadcast once, its answer lost, none sent again');
    assert.equal(await p.statusOf(id), 'SUCCESS');
    const arrived = (await chain.transfersTo(chain.usdc, outside)).slice(before.length);
    assert.deepEqual(arrived.map((t) => [t.hash, t.value]), [[sent.hash, toBaseUnits('7', 6)]], 'one transfer, the one recorded');
    assert.equal(await nonceOf(c.wallet), 1);
    assert.equal(await usdcOf(c.wallet), '13.000000');
    assert.equal(await p.apiBalance(c.customerId, 'BASE'), '13.000000');
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] });
  });
});

describe('deposits through a node that is down or answers twice', () => {
  test('a scan with the node down or erroring credits nothing and keeps its cursor; once back, the deposit is credited once', async () => {
    const customerId = await approvedIndividual(server, p.api, server.apiKey);
    const wallet = (await p.api.get(`/v2/customers/${customerId}`)).body.wallets.find((w: { blockchain: string }) => w.blockchain === 'BASE').address as Address;
    await p.monitor.scanDeposits();
    const cursor = (await cursorOf(db(), 'BASE'))!.scannedBlock;
    await mint(chain.rpcUrl, { token: chain.usdc, to: wallet, amount: toBaseUnits('9.5', 6), ownerKey: DEV_ACCOUNTS[0]!.privateKey as Hex });
    for (const mode of ['down', 'error'] as const) {
      proxy.mode = mode;
      assert.equal(await p.monitor.scanDeposits(), 0, `node ${mode}: nothing credited`);
      assert.equal((await cursorOf(db(), 'BASE'))!.scannedBlock, cursor, `node ${mode}: the cursor stays`);
    }
    assert.equal((await p.api.get(`/v2/customers/${customerId}`)).status, 200, 'the API answers meanwhile');
    proxy.mode = 'pass';
    assert.equal(await p.monitor.scanDeposits(), 1);
    await chain.mine(2);
    await p.monitor.scanDeposits();
    assert.equal(await p.apiBalance(customerId, 'BASE'), '9.500000');
    assert.equal((await db().select().from(chainDeposits).where(eq(chainDeposits.customerId, customerId))).length, 1);
  });

  test('a node that answers the same Transfer log twice: credited once', async () => {
    const customerId = await approvedIndividual(server, p.api, server.apiKey);
    const wallet = (await p.api.get(`/v2/customers/${customerId}`)).body.wallets.find((w: { blockchain: string }) => w.blockchain === 'BASE').address as Address;
    await p.monitor.scanDeposits();
    proxy.rewrite.set('eth_getLogs', (logs) => (Array.isArray(logs) ? [...logs, ...logs] : logs));
    try {
      await mint(chain.rpcUrl, { token: chain.usdc, to: wallet, amount: toBaseUnits('4', 6), ownerKey: DEV_ACCOUNTS[0]!.privateKey as Hex });
      assert.equal(await p.monitor.scanDeposits(), 1, 'one credit for the log answered twice');
    } finally {
      proxy.rewrite.delete('eth_getLogs');
    }
    assert.equal(await p.apiBalance(customerId, 'BASE'), '4.000000');
    assert.equal(await usdcOf(wallet), '4.000000');
    assert.deepEqual(await legs.books(), { ok: true, discrepancies: [], errors: [] });
  });
});

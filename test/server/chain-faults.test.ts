// Payouts through the faults of a real chain: a node down or erroring, a broadcast lost after the payout was recorded, a nonce
// gap, the treasury's nonce taken behind the service's back, a payout stuck under low fees, a treasury short of token or gas.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { encodeAbiParameters, keccak256, pad } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fromBaseUnits } from '../../server/domain/chain/amounts';
import type { Hex } from '../../server/domain/chain/chain-client';
import { chainNonces } from '../../server/store/schema/index';
import { client, type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { type ChainNode, chainFaultEnv, startChainNode } from './support/chain-node';
import { payouts } from './support/payouts';
import { type RpcProxy, startRpcProxy } from './support/rpc-proxy';
import { settle } from './transactions-helpers';

const seed = randomBytes(32).toString('hex');
let base: ChainNode; // through `proxy`, which the tests take down
let polygon: ChainNode; // its treasury starts with nothing
let proxy: RpcProxy;
let server: TestServer;
let p: ReturnType<typeof payouts>;

before(async () => {
  [base, polygon] = await Promise.all([
    startChainNode({ chainId: 31_402, blockchain: 'BASE', seed, usdc: '100000', native: 10n ** 19n }),
    startChainNode({ chainId: 31_403, blockchain: 'POLYGON', seed }),
  ]);
  await Promise.all([base.manual(), polygon.manual()]);
  proxy = await startRpcProxy(base.rpcUrl);
  server = await startTestServer({
    RAMP_WALLET_SEED: seed,
    ...chainFaultEnv,
    RAMP_CHAIN_REPLACE_AFTER_MS: '1000',
    ...base.env(proxy.url, 1),
    ...polygon.env(undefined, 1),
  });
  p = payouts(server);
});

after(async () => {
  await p?.monitor.stop();
  await server?.close();
  await proxy?.close();
  await Promise.all([base?.stop(), polygon?.stop()]);
});

const readyz = async () => {
  const res = await server.app.request('/readyz');
  return { status: res.status, body: (await res.json()) as any };
};
const onBase = (sourceAmount?: string) => p.paidOnRamp('BASE', sourceAmount);
/** The node's record of a transaction, or null when it does not know it. */
const nodeReceipt = (hash: string) => base.pub.getTransactionReceipt({ hash: hash as Hex }).catch(() => null);

describe('payouts through a node that is down or erroring', () => {
  test('the node down: the payout waits and retries (never FAILED), the API keeps answering, and it completes once the node is back', async () => {
    const t = await onBase('90.00');
    // First a node that answers every call with an error of its own, then one that is gone.
    proxy.mode = 'error';
    const erroring = await p.until(t.id, (r) => r.waitReason === 'NODE_UNAVAILABLE', 'waits for the erroring node');
    assert.equal(erroring.status, 'QUEUED', 'nothing signed without fees from the node');
    proxy.mode = 'down';
    const waiting = await p.until(t.id, (r) => r.failures > erroring.failures, 'waits for the node that is gone');
    assert.equal(waiting.waitReason, 'NODE_UNAVAILABLE');
    // Several retries while it is down (the backoff is short in this file), jobs running too: still waiting, not failed.
    await p.until(t.id, (r) => r.failures >= 3, 'retried');
    await settle(server);
    assert.equal(await p.statusOf(t.id), 'TRANSFERRING_STABLECOIN');
    const ready = await readyz();
    assert.equal(ready.status, 200, 'one chain down does not make the service unready');
    assert.equal(ready.body.status, 'ready');
    assert.equal(ready.body.chains.BASE.status, 'waiting');
    assert.equal(ready.body.chains.BASE.waiting[0].reason, 'NODE_UNAVAILABLE');
    assert.equal(ready.body.chains.POLYGON.status, 'ok');
    assert.equal((await p.api.get(`/v2/transactions/${t.id}`)).status, 200);

    proxy.mode = 'pass';
    await p.until(t.id, (r) => r.status === 'SENT', 'sent once the node is back');
    // Down again while it waits for its block: the block is mined, but nobody can tell the service.
    proxy.mode = 'down';
    await base.mine(1);
    await p.until(t.id, (r) => r.waitReason === 'NODE_UNAVAILABLE', 'waits again');
    assert.equal(await p.statusOf(t.id), 'TRANSFERRING_STABLECOIN');
    proxy.mode = 'pass';
    await p.until(t.id, (r) => r.status === 'CONFIRMED', 'confirmed once the node answers');
    assert.equal(await p.statusOf(t.id), 'SUCCESS');
    assert.equal((await readyz()).body.chains.BASE.status, 'ok');
    assert.equal(fromBaseUnits(await base.balanceOf(base.usdc, t.wallet), 6), t.amount);
    assert.equal(await p.apiBalance(t.customerId, 'BASE'), t.amount);
  });

  test('a broadcast lost after the payout was recorded is sent again from the record: paid once', async () => {
    const t = await onBase('70.00');
    proxy.mode = 'no-send';
    const recorded = await p.until(t.id, (r) => r.status === 'SIGNED' && r.waitReason === 'NODE_UNAVAILABLE', 'recorded, not sent');
    assert.deepEqual(proxy.dropped.slice(-1), [recorded.raw]);
    assert.equal(await nodeReceipt(recorded.hash!), null);
    assert.equal(await base.pub.getTransactionCount({ address: base.treasury, blockTag: 'pending' }), recorded.nonce, 'the node never saw it');
    proxy.mode = 'pass';
    await p.until(t.id, (r) => r.status === 'SENT', 'sent from the record');
    await base.mine(1);
    await p.until(t.id, (r) => r.status === 'CONFIRMED', 'confirmed');
    const done = (await p.api.get(`/v2/transactions/${t.id}`)).body;
    assert.equal(done.state.receipt.transactionHash, recorded.hash, 'the very transaction recorded before it was sent');
    assert.deepEqual((await base.transfersTo(base.usdc, t.wallet)).map((x) => x.hash), [recorded.hash]);
  });

  test('a nonce gap (a payout recorded but lost while the next went out) closes when the first is sent again', async () => {
    const [a, b] = [await onBase('40.00'), await onBase('41.00')];
    proxy.mode = 'no-send';
    const first = await p.until(a.id, (r) => r.status === 'SIGNED', 'a recorded');
    const second = await p.until(b.id, (r) => r.status === 'SIGNED', 'b recorded');
    const [lost, sent] = first.nonce! < second.nonce! ? [first, second] : [second, first];
    proxy.refuse.add(lost.raw!);
    proxy.mode = 'pass';
    await p.until(sent.transactionId, (r) => r.status === 'SENT', 'the later nonce sent');
    await base.mine(1);
    await p.check();
    assert.equal(await nodeReceipt(sent.hash!), null, 'stuck behind the gap');
    assert.equal((await p.transferRow(sent.transactionId)).status, 'SENT');
    proxy.refuse.delete(lost.raw!);
    await p.until(lost.transactionId, (r) => r.status === 'SENT', 'the lost one sent again');
    await base.mine(1);
    for (const id of [a.id, b.id]) await p.until(id, (r) => r.status === 'CONFIRMED', 'both confirmed');
    for (const t of [a, b]) assert.equal(fromBaseUnits(await base.balanceOf(base.usdc, t.wallet), 6), t.amount);
    assert.equal(await base.pub.getTransactionCount({ address: base.treasury }), sent.nonce! + 1);
  });

  test('the treasury’s nonce taken behind the service’s back: the payout is signed again on a fresh nonce and paid once', async () => {
    const t = await onBase('55.00');
    proxy.mode = 'no-send';
    const recorded = await p.until(t.id, (r) => r.status === 'SIGNED', 'recorded, not sent');
    // An operator spends from the treasury at that nonce, straight on the node.
    const account = privateKeyToAccount(base.treasuryKey);
    const fees = await base.pub.estimateFeesPerGas();
    const raw = await account.signTransaction({ chainId: 31_402, nonce: recorded.nonce!, to: account.address, value: 0n, gas: 21_000n, type: 'eip1559', ...fees });
    await base.pub.sendRawTransaction({ serializedTransaction: raw });
    await base.mine(1);
    proxy.mode = 'pass';
    const again = await p.until(t.id, (r) => r.status === 'SENT' && r.nonce !== recorded.nonce, 'signed again on a new nonce');
    assert.equal(again.nonce, recorded.nonce! + 1);
    assert.deepEqual(again.hashes, [again.hash]);
    assert.deepEqual(again.retiredHashes, [recorded.hash], 'the first kept for the record, never taken for this payout again');
    await base.mine(1);
    await p.until(t.id, (r) => r.status === 'CONFIRMED', 'confirmed');
    assert.deepEqual((await base.transfersTo(base.usdc, t.wallet)).map((x) => x.hash), [again.hash]);
    const [nonceRow] = await server.deps.store.db.select().from(chainNonces).where(and(eq(chainNonces.blockchain, 'BASE'), eq(chainNonces.address, base.treasury)));
    assert.equal(nonceRow!.nextNonce, again.nonce! + 1);
  });

  test('a payout stuck under low fees is replaced on its nonce, fees up at least 12.5 %, and the replacement that lands is the one counted', async () => {
    const t = await onBase('65.00');
    const sent = await p.until(t.id, (r) => r.status === 'SENT', 'sent');
    // The base fee jumps above what the payout offers: it stays in the pool, block after block.
    await base.test.request({ method: 'anvil_setNextBlockBaseFeePerGas', params: [`0x${(BigInt(sent.maxFeePerGas!) * 4n).toString(16)}`] } as never);
    await base.mine(1);
    assert.equal(await nodeReceipt(sent.hash!), null);
    // Sent again, the node says it has it (as geth does), so only its age can get it replaced.
    proxy.pooled.add(sent.raw!);
    const replaced = await p.until(t.id, (r) => r.hashes.length === 2, 'replaced after RAMP_CHAIN_REPLACE_AFTER_MS');
    assert.equal(replaced.nonce, sent.nonce);
    assert.deepEqual(replaced.hashes, [sent.hash, replaced.hash]);
    assert.ok(BigInt(replaced.maxFeePerGas!) * 8n >= BigInt(sent.maxFeePerGas!) * 9n, `maxFeePerGas ${sent.maxFeePerGas} → ${replaced.maxFeePerGas}`);
    assert.ok(BigInt(replaced.maxPriorityFeePerGas!) * 8n >= BigInt(sent.maxPriorityFeePerGas!) * 9n, `maxPriorityFeePerGas ${sent.maxPriorityFeePerGas} → ${replaced.maxPriorityFeePerGas}`);
    await base.mine(1);
    await p.until(t.id, (r) => r.status === 'CONFIRMED', 'confirmed');
    const done = (await p.api.get(`/v2/transactions/${t.id}`)).body;
    assert.equal(done.state.receipt.transactionHash, replaced.hash);
    assert.equal(await nodeReceipt(sent.hash!), null, 'the first one never landed');
    assert.deepEqual((await base.transfersTo(base.usdc, t.wallet)).map((x) => x.hash), [replaced.hash]);
    assert.equal(await p.apiBalance(t.customerId, 'BASE'), t.amount);
  });
});

describe('a payout that reverts on chain', () => {
  test('the treasury emptied under a sent payout: it reverts, is signed again on a new nonce once funded, and is paid once', async () => {
    const t = await onBase('45.00');
    const sent = await p.until(t.id, (r) => r.status === 'SENT', 'sent');
    // The treasury's USDC balance slot (balanceOf is the token's 4th slot) set to zero while the payout waits for a block.
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [base.treasury, 3n]));
    await base.test.setStorageAt({ address: base.usdc, index: slot, value: pad('0x0') });
    await base.mine(1);
    assert.equal((await nodeReceipt(sent.hash!))?.status, 'reverted');
    const queued = await p.until(t.id, (r) => r.status === 'QUEUED' && r.waitReason === 'INSUFFICIENT_TOKEN', 'back in the queue, waiting for token');
    assert.deepEqual(queued.retiredHashes.slice(-1), [sent.hash]);
    assert.deepEqual(queued.hashes, []);
    assert.equal(await p.statusOf(t.id), 'TRANSFERRING_STABLECOIN');
    await base.fund({ usdc: '100000' });
    const again = await p.until(t.id, (r) => r.status === 'SENT', 'signed again');
    assert.equal(again.nonce, sent.nonce! + 1);
    await base.mine(1);
    await p.until(t.id, (r) => r.status === 'CONFIRMED', 'confirmed');
    // More checks and blocks change nothing: the reverted hash never counts as this payout again.
    await p.mineAndCheck(() => base.mine(1), 3);
    assert.deepEqual((await base.transfersTo(base.usdc, t.wallet)).map((x) => x.hash), [again.hash]);
    assert.equal(await base.pub.getTransactionCount({ address: base.treasury }), again.nonce! + 1);
    assert.equal(await p.apiBalance(t.customerId, 'BASE'), t.amount);
    assert.equal((await p.api.get(`/v2/transactions/${t.id}`)).body.state.receipt.transactionHash, again.hash);
  });
});

describe('a treasury short of funds', () => {
  test('short of token, then of gas: the payout waits, /readyz names why for that chain alone, and it pays once funded', async () => {
    const t = await p.paidOnRamp('POLYGON', '50.00');
    const short = await p.until(t.id, (r) => r.waitReason === 'INSUFFICIENT_TOKEN', 'waits for token');
    assert.equal(short.status, 'QUEUED');
    assert.equal(short.nonce, null, 'no nonce taken while it cannot be paid');
    let ready = await readyz();
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, 'ready');
    assert.equal(ready.body.chains.POLYGON.status, 'waiting');
    assert.equal(ready.body.chains.POLYGON.treasury, polygon.treasury);
    assert.match(ready.body.chains.POLYGON.waiting[0].detail, new RegExp(`treasury ${polygon.treasury} holds 0\\.000000 USDC`));
    assert.equal(ready.body.chains.BASE.status, 'ok');

    await polygon.fund({ usdc: '1000' });
    await p.until(t.id, (r) => r.waitReason === 'INSUFFICIENT_GAS', 'then waits for gas');
    ready = await readyz();
    assert.equal(ready.body.chains.POLYGON.waiting[0].reason, 'INSUFFICIENT_GAS');
    assert.equal(await p.statusOf(t.id), 'TRANSFERRING_STABLECOIN');

    await polygon.fund({ native: 10n ** 18n });
    await p.until(t.id, (r) => r.status === 'SENT', 'sent once funded');
    await polygon.mine(1);
    await p.until(t.id, (r) => r.status === 'CONFIRMED', 'confirmed');
    assert.equal((await readyz()).body.chains.POLYGON.status, 'ok');
    assert.equal(fromBaseUnits(await polygon.balanceOf(polygon.usdc, t.wallet), 6), t.amount);
    assert.equal(await p.apiBalance(t.customerId, 'POLYGON'), t.amount);
  });
});

describe('sandbox beside a configured chain', () => {
  test('an unconfigured chain stays simulated; a configured one makes no credit up', async () => {
    const api = client(server, server.apiKey);
    const customerId = await approvedIndividual(server, api, server.apiKey);
    const created = await api.post('/v2/transactions/on-ramp', { customerId, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDT', sourceAmount: '20.00', blockchain: 'TRON' });
    assert.equal((await api.post(`/v2/sandbox/transactions/${created.body.id}/pay`)).status, 200);
    await settle(server);
    const done = (await api.get(`/v2/transactions/${created.body.id}`)).body;
    assert.equal(done.state.status, 'SUCCESS', 'TRON: the simulated rails, as before');
    assert.match(done.state.receipt.blockExplorerUrl, /^https:\/\/nile\.tronscan\.org\/#\/transaction\/[0-9a-f]{64}$/);
    const t = { customerId };
    const fund = await api.post('/v2/sandbox/wallets/fund', { customerId: t.customerId, blockchain: 'BASE', stablecoin: 'USDC', amount: '10' });
    assert.equal(fund.status, 409, 'no made-up credit on a chain whose balances are the chain’s');
  });
});

// On-ramp payouts on a real node (anvil, blocks mined by hand): the receipt is a real transaction, balances agree with
// balanceOf, SUCCESS only after the configured confirmations, a reorg sends the payout back and it is counted once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { fromBaseUnits, toBaseUnits } from '../../server/domain/chain/amounts';
import type { Hex } from '../../server/domain/chain/chain-client';
import { chainMonitor } from '../../server/workers/chain-monitor';
import { type TestServer, startTestServer } from './harness';
import { type ChainNode, startChainNode } from './support/chain-node';
import { payouts } from './support/payouts';

const CONFIRMATIONS = 3;
const seed = randomBytes(32).toString('hex');
let chain: ChainNode;
let server: TestServer;
let p: ReturnType<typeof payouts>;

before(async () => {
  chain = await startChainNode({ chainId: 31_401, blockchain: 'BASE', seed, usdc: '100000', native: 10n ** 19n });
  await chain.manual();
  server = await startTestServer({ RAMP_WALLET_SEED: seed, RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_CHAIN_POLL_MS: '50', ...chain.env(undefined, CONFIRMATIONS) });
  p = payouts(server);
});

after(async () => {
  await p?.monitor.stop();
  await server?.close();
  await chain?.stop();
});

const paidOnRamp = (sourceAmount?: string, coin?: string) => p.paidOnRamp('BASE', sourceAmount, coin);
const check = () => p.check();
const mineAndCheck = (n: number) => p.mineAndCheck(() => chain.mine(1), n);
const statusOf = (id: string) => p.statusOf(id);
const transferRow = (id: string) => p.transferRow(id);
const apiBalance = (customerId: string, coin = 'USDC') => p.apiBalance(customerId, 'BASE', coin);

describe('on-chain payout of an on-ramp', () => {
  test('a paid on-ramp ends in SUCCESS whose receipt is a real transfer on the node, and balanceOf equals the balance the API reports', async () => {
    const t = await paidOnRamp('150.00');
    await check(); // signs, records, sends
    const sent = await transferRow(t.id);
    assert.equal(sent.status, 'SENT');
    assert.equal(sent.fromAddress, chain.treasury);
    assert.equal(sent.toAddress, t.wallet);
    await mineAndCheck(CONFIRMATIONS);
    const done = (await p.api.get(`/v2/transactions/${t.id}`)).body;
    assert.equal(done.state.status, 'SUCCESS');
    const hash = done.state.receipt.transactionHash as Hex;
    assert.equal(hash, sent.hash);
    assert.equal(done.state.receipt.blockExplorerUrl, `https://sepolia.basescan.org/tx/${hash}`);
    assert.equal(done.state.receipt.targetAmount, t.amount);
    // The node's own record of that hash: a successful call of the token's transfer, from the treasury.
    const receipt = await chain.pub.getTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success');
    assert.equal(receipt.from.toLowerCase(), chain.treasury.toLowerCase());
    assert.equal(receipt.to?.toLowerCase(), chain.usdc.toLowerCase());
    assert.deepEqual(await chain.transfersTo(chain.usdc, t.wallet), [{ hash, value: toBaseUnits(t.amount, 6), blockHash: receipt.blockHash }]);
    const onChain = await chain.balanceOf(chain.usdc, t.wallet);
    assert.equal(fromBaseUnits(onChain, 6), await apiBalance(t.customerId));
    assert.equal(fromBaseUnits(onChain, 6), t.amount);
  });

  test('SUCCESS comes only with the configured confirmations, counting the including block as the first', async () => {
    const t = await paidOnRamp('80.00', 'USDT');
    await check();
    await mineAndCheck(1);
    assert.equal((await transferRow(t.id)).status, 'INCLUDED');
    for (let seen = 1; seen < CONFIRMATIONS; seen++) {
      assert.equal(await statusOf(t.id), 'TRANSFERRING_STABLECOIN', `after ${seen} of ${CONFIRMATIONS} blocks`);
      assert.equal(await apiBalance(t.customerId, 'USDT'), '0.000000', 'nothing credited before the confirmations');
      await mineAndCheck(1);
    }
    assert.equal(await statusOf(t.id), 'SUCCESS');
    assert.equal(await apiBalance(t.customerId, 'USDT'), t.amount);
    assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdt, t.wallet), 6), t.amount);
  });

  test('a reorg before the confirmations takes the transfer out: it is sent again and counted once, after confirmations in its new block', async () => {
    const t = await paidOnRamp('120.00');
    await check();
    await mineAndCheck(2); // in a block, one confirmation short
    const before = await transferRow(t.id);
    assert.equal(before.status, 'INCLUDED');
    // Both blocks replaced by empty ones: anvil drops the transfer (a real node would put it back in its pool).
    await chain.test.request({ method: 'anvil_reorg', params: [2, []] } as never);
    assert.equal(await chain.balanceOf(chain.usdc, t.wallet), 0n);
    await check();
    const back = await transferRow(t.id);
    assert.equal(back.status, 'SENT', 'noticed: no receipt any more');
    assert.equal(back.includedBlockHash, null);
    assert.equal(await statusOf(t.id), 'TRANSFERRING_STABLECOIN');
    await mineAndCheck(CONFIRMATIONS - 1);
    const again = await transferRow(t.id);
    assert.equal(again.status, 'INCLUDED');
    assert.notEqual(again.includedBlockHash, before.includedBlockHash, 'a different block now');
    assert.equal(await statusOf(t.id), 'TRANSFERRING_STABLECOIN', 'its old confirmations do not count');
    await mineAndCheck(1);
    assert.equal(await statusOf(t.id), 'SUCCESS');
    assert.equal((await chain.transfersTo(chain.usdc, t.wallet)).length, 1, 'one transfer on chain');
    assert.equal(await apiBalance(t.customerId), t.amount, 'credited once');
    assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdc, t.wallet), 6), t.amount);
  });

  test('a reorg that swaps the including block for another: the confirmations count again from the new one', async () => {
    const t = await paidOnRamp('60.00');
    await check();
    const raw = (await transferRow(t.id)).raw!;
    await mineAndCheck(2);
    const first = await transferRow(t.id);
    // The last two blocks replaced, the transfer put back in the first new one (as a node re-including it would).
    await chain.test.request({ method: 'anvil_reorg', params: [2, [[raw, 0]]] } as never);
    await check();
    const moved = await transferRow(t.id);
    assert.equal(moved.status, 'INCLUDED');
    assert.notEqual(moved.includedBlockHash, first.includedBlockHash);
    assert.equal(await statusOf(t.id), 'TRANSFERRING_STABLECOIN');
    await mineAndCheck(1);
    assert.equal(await statusOf(t.id), 'SUCCESS');
    assert.equal(await apiBalance(t.customerId), t.amount);
    assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdc, t.wallet), 6), t.amount);
  });

  test('two monitors (two processes) checking at once: every payout signed once, on nonces of its own, paid once', async () => {
    const list = [];
    for (const amount of ['21.00', '22.00', '23.00', '24.00']) list.push(await paidOnRamp(amount));
    const other = chainMonitor(server.deps);
    await new Promise((r) => setTimeout(r, 60));
    await Promise.all([p.monitor.runDue(), other.runDue(), p.monitor.runDue()]);
    const rows = await Promise.all(list.map((t) => transferRow(t.id)));
    assert.deepEqual(rows.map((r) => r.status), ['SENT', 'SENT', 'SENT', 'SENT']);
    const nonces = rows.map((r) => r.nonce!).sort((a, b) => a - b);
    assert.deepEqual(nonces, [0, 1, 2, 3].map((i) => nonces[0]! + i), 'consecutive, none shared');
    assert.ok(rows.every((r) => r.hashes.length === 1), 'each signed once');
    await mineAndCheck(CONFIRMATIONS);
    for (const t of list) {
      assert.equal(await statusOf(t.id), 'SUCCESS');
      assert.equal((await chain.transfersTo(chain.usdc, t.wallet)).length, 1);
    }
  });

  test('nonces are allocated in the database, one per payout, from the node’s nonce on first use', async () => {
    const [a, b] = [await paidOnRamp('30.00'), await paidOnRamp('31.00')];
    await check();
    const [ra, rb] = [await transferRow(a.id), await transferRow(b.id)];
    assert.equal(Math.abs(ra.nonce! - rb.nonce!), 1);
    await mineAndCheck(CONFIRMATIONS);
    assert.deepEqual([await statusOf(a.id), await statusOf(b.id)], ['SUCCESS', 'SUCCESS']);
    assert.equal(await chain.pub.getTransactionCount({ address: chain.treasury }), Math.max(ra.nonce!, rb.nonce!) + 1);
  });
});

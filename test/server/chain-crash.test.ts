// Real server processes SIGKILLed in the middle of a payout (RAMP_CHAIN_CRASH_AT, a hook inert unless set in sandbox): between
// recording the signed payout and sending it, and between sending it and recording that; the next process loses nothing,
// pays nothing twice, and closes the nonce gap a crash leaves behind a payout made meanwhile.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { fromBaseUnits } from '../../server/domain/chain/amounts';
import type { Hex } from '../../server/domain/chain/chain-client';
import { type ChainNode, startChainNode } from './support/chain-node';
import { apiCaller, approvedCustomer, type Call, eventually, killedBySignal, sharedServerEnv, startServerProcess } from './support/server-process';

const seed = randomBytes(32).toString('hex');
let chain: ChainNode;

before(async () => {
  // A block per transaction: what a process sends is mined at once.
  chain = await startChainNode({ chainId: 31_405, blockchain: 'BASE', seed, usdc: '100000', native: 10n ** 19n });
});
after(async () => {
  await chain?.stop();
});

/** A paid on-ramp on BASE: the process's workers take it to its payout by themselves. */
async function paidOnRamp(call: Call, base: string, customerId: string, sourceAmount: string) {
  const { status, body } = await call(base, 'POST', '/v2/transactions/on-ramp', { customerId, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount, blockchain: 'BASE' });
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal((await call(base, 'POST', `/v2/sandbox/transactions/${body.id}/pay`)).status, 200);
  return { id: body.id as string, amount: body.quote.finalTargetAmount as string };
}

const statusOf = async (call: Call, base: string, id: string) => (await call(base, 'GET', `/v2/transactions/${id}`)).body.state as { status: string; receipt?: { transactionHash: string } };

describe('a server process killed in the middle of a payout', () => {
  test('between recording and sending: the next process sends it from the record, closes the nonce gap a later payout left, and pays each once', async (t) => {
    const { env, apiKey } = sharedServerEnv(t, 'chaincrash1');
    const call = apiCaller(apiKey);
    const common = {
      ...env,
      ...chain.env(undefined, 1),
      RAMP_WALLET_SEED: seed,
      RAMP_SANDBOX_STEP_MS: '100',
      RAMP_SANDBOX_REVIEW_MS: '600000',
      RAMP_CHAIN_POLL_MS: '100',
      // Room for a node slowed by a busy machine; the first process's lease (3 × its timeout) must still outlast the second's start.
      RAMP_CHAIN_RPC_TIMEOUT_MS: '3000',
    };
    // The lease the dying process writes on its payout is 3 × its RPC timeout: 30 s, time for the next process to start
    // and pay another payout before the first comes back to it.
    const a = await startServerProcess({ ...common, RAMP_CHAIN_RPC_TIMEOUT_MS: '10000', RAMP_CHAIN_CRASH_AT: 'after-record' });
    const first = await approvedCustomer(call, apiKey, a.base, 'BASE');
    const second = await approvedCustomer(call, apiKey, a.base, 'BASE');
    const p1 = await paidOnRamp(call, a.base, first.id, '100.00');
    assert.equal(await killedBySignal(a), 'SIGKILL', 'died right after recording the payout');
    assert.equal(await chain.pub.getTransactionCount({ address: chain.treasury, blockTag: 'pending' }), 0, 'nothing reached the node');

    const b = await startServerProcess(common);
    const p2 = await paidOnRamp(call, b.base, second.id, '50.00');
    // The second payout goes out on nonce 1 while nonce 0 (recorded by the dead process) is not sent yet: a gap.
    await eventually('the second payout waiting behind the gap', async () => {
      const pool = (await chain.test.request({ method: 'txpool_status' } as never)) as { queued: Hex };
      return BigInt(pool.queued) === 1n && (await statusOf(call, b.base, p1.id)).status === 'TRANSFERRING_STABLECOIN';
    }, b);
    const done = await eventually('both paid', async () => {
      const [s1, s2] = [await statusOf(call, b.base, p1.id), await statusOf(call, b.base, p2.id)];
      return s1.status === 'SUCCESS' && s2.status === 'SUCCESS' && ([s1, s2] as const);
    }, b);
    for (const [paid, customer, state] of [[p1, first, done[0]], [p2, second, done[1]]] as const) {
      const transfers = await chain.transfersTo(chain.usdc, customer.wallet);
      assert.deepEqual(transfers.map((x) => x.hash), [state.receipt!.transactionHash], 'one transfer, the one in the receipt');
      assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdc, customer.wallet), 6), paid.amount);
      const { body } = await call(b.base, 'GET', `/v2/customers/${customer.id}?includeBalances=true`);
      const balance = body.wallets.find((w: { blockchain: string }) => w.blockchain === 'BASE').balances.find((x: { stablecoin: string }) => x.stablecoin === 'USDC').balance;
      assert.equal(balance, paid.amount, 'the books say what the chain says');
    }
    assert.equal(await chain.pub.getTransactionCount({ address: chain.treasury }), 2);
    await b.kill();
  });

  test('between sending and recording it: the next process finds it on the chain and counts it once, sending nothing new', async (t) => {
    const { env, apiKey } = sharedServerEnv(t, 'chaincrash2');
    const call = apiCaller(apiKey);
    const common = { ...env, ...chain.env(undefined, 1), RAMP_WALLET_SEED: seed, RAMP_SANDBOX_STEP_MS: '100', RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_CHAIN_POLL_MS: '100', RAMP_CHAIN_RPC_TIMEOUT_MS: '1000' };
    const nonceBefore = await chain.pub.getTransactionCount({ address: chain.treasury });
    const c = await startServerProcess({ ...common, RAMP_CHAIN_CRASH_AT: 'after-broadcast' });
    const customer = await approvedCustomer(call, apiKey, c.base, 'BASE');
    const paid = await paidOnRamp(call, c.base, customer.id, '75.00');
    assert.equal(await killedBySignal(c), 'SIGKILL', 'died right after sending the payout');
    const sent = await chain.transfersTo(chain.usdc, customer.wallet);
    assert.equal(sent.length, 1, 'the node has it');

    const d = await startServerProcess(common);
    const state = await eventually('paid', async () => {
      const s = await statusOf(call, d.base, paid.id);
      return s.status === 'SUCCESS' && s;
    }, d);
    assert.equal(state.receipt!.transactionHash, sent[0]!.hash);
    assert.equal((await chain.transfersTo(chain.usdc, customer.wallet)).length, 1, 'nothing sent twice');
    assert.equal(await chain.pub.getTransactionCount({ address: chain.treasury }), nonceBefore + 1);
    assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdc, customer.wallet), 6), paid.amount);
    await d.kill();
  });
});

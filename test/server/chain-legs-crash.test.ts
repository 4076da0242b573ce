// Real server processes SIGKILLed between the node's answer and our record of it (RAMP_CHAIN_CRASH_AT, a hook inert unless
// set in sandbox), at each leg of a customer's own money: a deposit read from the node but not yet credited, the treasury's
// gas for the wallet and the off-ramp's move sent but not recorded as sent, the refund recorded but not sent, a transfer
// out sent but not recorded. Each next process finds what the last one left and finishes it; the chain is the judge: every
// transfer on it once, the books equal to it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, type TestContext, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS } from '../../scripts/devnet/anvil.mjs';
import { mint } from '../../scripts/devnet/token.mjs';
import { fromBaseUnits, toBaseUnits } from '../../server/domain/chain/amounts';
import type { Address, Hex } from '../../server/domain/chain/chain-client';
import { type ChainNode, startChainNode } from './support/chain-node';
import { apiCaller, approvedCustomer, eventually, killedBySignal, type ServerProcess, sharedServerEnv, startServerProcess } from './support/server-process';
import { pixAccount } from './transactions-helpers';

const seed = randomBytes(32).toString('hex');
let chain: ChainNode;

before(async () => {
  chain = await startChainNode({ chainId: 31_408, blockchain: 'BASE', seed, usdc: '1000', native: 10n ** 19n });
});
after(async () => {
  await chain?.stop();
});

const nonceOf = (address: string) => chain.pub.getTransactionCount({ address: address as Address });
const usdcOf = async (address: string) => fromBaseUnits(await chain.balanceOf(chain.usdc, address), 6);

describe('a server process killed between the node’s answer and its record, at every leg of a customer’s money', () => {
  // One customer's money through five crashes, a test per stretch (each has a deadline of its own); every test goes on
  // from where the one before left the database and the chain.
  const { env, apiKey } = sharedServerEnv({ after: (fn: () => Promise<void>) => after(fn) } as unknown as TestContext, 'legcrash');
  const call = apiCaller(apiKey);
  // Sandbox steps an hour apart, moved on by the partner's clock: the off-ramp waits at TRADING for the test to fail it.
  const common = {
    ...env,
    RAMP_WALLET_SEED: seed,
    RAMP_SANDBOX_STEP_MS: '3600000',
    RAMP_SANDBOX_REVIEW_MS: '3600000',
    RAMP_CHAIN_POLL_MS: '100',
    // A node slowed by a busy machine still answers within it; a dead process's lease on a transfer is 3 × this.
    RAMP_CHAIN_RPC_TIMEOUT_MS: '2000',
  };
  let proc = undefined as unknown as ServerProcess;
  const start = async (crashAt?: string) => (proc = await startServerProcess({ ...common, ...chain.env(undefined, 1), ...(crashAt ? { RAMP_CHAIN_CRASH_AT: crashAt } : {}) }));
  const died = async (where: string) => assert.equal(await killedBySignal(proc), 'SIGKILL', `died ${where}`);
  const steps = async () => assert.equal((await call(proc.base, 'POST', '/v2/sandbox/clock/advance', { seconds: 3700 })).status, 200);
  const tx = async (id: string) => (await call(proc.base, 'GET', `/v2/transactions/${id}`)).body;
  const balance = async (customerId: string) => {
    const { body } = await call(proc.base, 'GET', `/v2/customers/${customerId}?includeBalances=true`);
    return body.wallets.find((w: { blockchain: string }) => w.blockchain === 'BASE').balances.find((b: { stablecoin: string }) => b.stablecoin === 'USDC').balance as string;
  };
  const until = <T>(what: string, probe: () => Promise<T | false>) => eventually(what, async () => (await probe()) || undefined, proc, 60_000);
  let customer: Awaited<ReturnType<typeof approvedCustomer>>;
  let wallet: string;
  let off: { body: any } = { body: undefined };
  let treasuryNonce = 0;

  test('a deposit read from the node, the process dead before crediting it: the next process credits it once', async () => {
    await start('deposits-read');
    customer = await approvedCustomer(call, apiKey, proc.base, 'BASE');
    wallet = customer.wallet;
    await mint(chain.rpcUrl, { token: chain.usdc, to: wallet as Address, amount: toBaseUnits('50', 6), ownerKey: DEV_ACCOUNTS[0]!.privateKey as Hex });
    await died('after reading the deposit from the node');
    await start('after-broadcast:GAS');
    await until('the deposit credited', async () => (await balance(customer.id)) === '50.000000');
  });

  test('the treasury’s gas for the wallet, then the off-ramp’s move, sent and the process dead before recording it: each found on the chain, sent once', async () => {
    const { body: me } = await call(proc.base, 'GET', `/v2/customers/${customer.id}`);
    const account = await call(proc.base, 'POST', '/v2/bank-accounts', { ...pixAccount(customer.id), holder: { ...pixAccount(customer.id).holder, relationship: 'SELF', name: me.name, taxId: me.taxId } });
    assert.equal(account.status, 201, JSON.stringify(account.body));
    await steps();
    treasuryNonce = await nonceOf(chain.treasury);
    // The holder's check is a job: the off-ramp is refused (409) until the process has run it.
    off = await until('the off-ramp made once the account holder is approved', async () => {
      const r = await call(proc.base, 'POST', '/v2/transactions/off-ramp', { bankAccountId: account.body.id, purpose: 'PERSONAL_ACCOUNT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '20.000000', blockchain: 'BASE' });
      assert.ok(r.status === 201 || r.status === 409, JSON.stringify(r.body));
      return r.status === 201 && r;
    });
    await steps(); // queues the move; the wallet has no gas, so the treasury's GAS transfer first
    await died('after sending the gas');
    assert.equal(await nonceOf(chain.treasury), treasuryNonce + 1, 'the gas reached the node');
    const gasWei = await chain.pub.getBalance({ address: wallet as Address });
    assert.ok(gasWei > 0n);

    // The move wallet → treasury sent, the process dead before recording that.
    await start('after-broadcast:OFFRAMP');
    await died('after sending the move');
    assert.equal(await nonceOf(wallet), 1, 'the move reached the node');
    assert.equal(await usdcOf(wallet), '30.000000');
    assert.equal(await nonceOf(chain.treasury), treasuryNonce + 1, 'the gas was not sent again');
  });

  test('the refund recorded and the process dead before sending it; a transfer out sent and the process dead before recording it: each finished once', async () => {
    await start('after-record:REFUND');
    await until('the move confirmed: TRADING', async () => (await tx(off.body.id)).state.status === 'TRADING');
    assert.equal((await call(proc.base, 'POST', `/v2/sandbox/transactions/${off.body.id}/fail`)).status, 200);
    await steps(); // queues the refund
    await died('after recording the refund');
    assert.equal(await nonceOf(chain.treasury), treasuryNonce + 1, 'the refund never reached the node');

    // The refund sent from the record; then a transfer out sent, the process dead before recording that.
    await start('after-broadcast:TRANSFER');
    await until('REFUNDED', async () => (await tx(off.body.id)).state.status === 'REFUNDED');
    assert.equal(await usdcOf(wallet), '50.000000');
    assert.equal(await balance(customer.id), '50.000000');
    const outside = privateKeyToAccount(generatePrivateKey()).address;
    const out = await call(proc.base, 'POST', '/v2/transactions/transfer', { currency: 'USDC', from: customer.id, to: outside, amount: '5', blockchain: 'BASE' });
    assert.equal(out.status, 201, JSON.stringify(out.body));
    await steps(); // queues the transfer
    await died('after sending the transfer');
    assert.equal(await usdcOf(outside), '5.000000', 'the transfer reached the node');

    // A process without a crash finds it on the chain and finishes it.
    await start();
    await until('the transfer SUCCESS', async () => (await tx(out.body.id)).state.status === 'SUCCESS');
    const sent = await chain.transfersTo(chain.usdc, outside);
    assert.equal(sent.length, 1, 'the transfer once');
    assert.equal((await tx(out.body.id)).state.receipt.transactionHash, sent[0]!.hash);
    const refunds = (await chain.transfersTo(chain.usdc, wallet)).filter((x) => x.value === toBaseUnits('20', 6));
    assert.equal(refunds.length, 1, 'the refund once');
    assert.equal(await nonceOf(wallet), 2, 'the wallet sent two transactions: the move and the transfer');
    assert.equal(await usdcOf(wallet), '45.000000');
    assert.equal(await balance(customer.id), '45.000000', 'the books say what the chain says');
    await proc.kill();
  });
});

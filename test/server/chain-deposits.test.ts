// Deposits on a real node (anvil, blocks mined by hand): stablecoin sent to a customer's wallet from anywhere is credited
// after the confirmations, exactly once (rescans, two watchers, a reorg before the confirmations), with its event.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS } from '../../scripts/devnet/anvil.mjs';
import { DepositSchema } from '../../src/contract/deposits';
import { compileTestToken, mint } from '../../scripts/devnet/token.mjs';
import { fromBaseUnits, toBaseUnits } from '../../server/domain/chain/amounts';
import type { Address, Hex } from '../../server/domain/chain/chain-client';
import { depositsOf } from '../../server/store/queries/chain-deposits';
import { chainCursors, events } from '../../server/store/schema/index';
import { chainMonitor } from '../../server/workers/chain-monitor';
import { type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { type ChainNode, startChainNode } from './support/chain-node';
import { payouts } from './support/payouts';

const CONFIRMATIONS = 3;
const seed = randomBytes(32).toString('hex');
const [owner, sender] = [DEV_ACCOUNTS[0]!, DEV_ACCOUNTS[1]!];
let chain: ChainNode;
let server: TestServer;
let p: ReturnType<typeof payouts>;

before(async () => {
  chain = await startChainNode({ chainId: 31_404, blockchain: 'POLYGON', seed, usdc: '100000', native: 10n ** 19n });
  await chain.manual();
  server = await startTestServer({ RAMP_WALLET_SEED: seed, RAMP_SANDBOX_REVIEW_MS: '600000', RAMP_CHAIN_POLL_MS: '50', ...chain.env(undefined, CONFIRMATIONS) });
  p = payouts(server);
  // The chain's first watch starts its cursor near the head: every deposit below comes after it.
  assert.equal((await p.monitor.scanDeposits()), 0);
});

after(async () => {
  await p?.monitor.stop();
  await server?.close();
  await chain?.stop();
});

/** Runs `fn` with the node mining each transaction at once, then back to mining by hand. */
async function mined<T>(fn: () => Promise<T>): Promise<T> {
  await chain.test.setAutomine(true);
  try {
    return await fn();
  } finally {
    await chain.test.setAutomine(false);
  }
}

/** `amount` USDC from an outside account (minted to it first) to `to`, in a block of its own; answers the hash. */
async function sendFromOutside(to: string, amount: string, token = chain.usdc): Promise<Hex> {
  return mined(async () => {
    await mint(chain.rpcUrl, { token, to: sender.address, amount: toBaseUnits(amount, 6), ownerKey: owner.privateKey });
    const wallet = createWalletClient({ account: privateKeyToAccount(sender.privateKey as Hex), transport: http(chain.rpcUrl, { retryCount: 0 }) });
    const hash = await wallet.writeContract({ address: token, abi: compileTestToken().abi, functionName: 'transfer', args: [to as Address, toBaseUnits(amount, 6)], chain: null });
    await chain.pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return hash;
  });
}

async function customerWithWallet() {
  const customerId = await approvedIndividual(server, p.api, server.apiKey);
  const { body } = await p.api.get(`/v2/customers/${customerId}`);
  return { customerId, wallet: body.wallets.find((w: { blockchain: string }) => w.blockchain === 'POLYGON').address as string };
}

const balance = (customerId: string, coin = 'USDC') => p.apiBalance(customerId, 'POLYGON', coin);
const depositEvents = async (customerId: string) =>
  (await server.deps.store.db.select().from(events).where(eq(events.customerId, customerId))).filter((e) => e.eventType === 'deposit.confirmed');

describe('deposits to customer wallets', () => {
  test('a transfer from an outside address is credited after the confirmations, once, with a deposit.confirmed event; balanceOf equals the API balance', async () => {
    const c = await customerWithWallet();
    const hash = await sendFromOutside(c.wallet, '42.50');
    for (let seen = 1; seen < CONFIRMATIONS; seen++) {
      await p.monitor.scanDeposits();
      assert.equal(await balance(c.customerId), '0.000000', `not credited with ${seen} of ${CONFIRMATIONS} confirmations`);
      await chain.mine(1);
    }
    assert.equal(await p.monitor.scanDeposits(), 1);
    assert.equal(await balance(c.customerId), '42.500000');
    assert.equal(fromBaseUnits(await chain.balanceOf(chain.usdc, c.wallet), 6), '42.500000');
    const [deposit, ...more] = await depositsOf(server.deps.store.db, server.deps.partnerId!, c.customerId);
    assert.equal(more.length, 0);
    assert.equal(deposit!.transactionHash, hash);
    assert.equal(deposit!.fromAddress.toLowerCase(), sender.address.toLowerCase());
    const [event, ...others] = await depositEvents(c.customerId);
    assert.equal(others.length, 0);
    DepositSchema.parse(event!.data); // the contract the webhook documents
    assert.deepEqual(
      { ...(event!.data as Record<string, unknown>), id: undefined, createdAt: undefined, blockNumber: undefined },
      {
        id: undefined,
        createdAt: undefined,
        blockNumber: undefined,
        customerId: c.customerId,
        blockchain: 'POLYGON',
        stablecoin: 'USDC',
        amount: '42.500000',
        fromAddress: deposit!.fromAddress,
        toAddress: c.wallet,
        transactionHash: hash,
        logIndex: deposit!.logIndex,
        blockExplorerUrl: `https://amoy.polygonscan.com/tx/${hash}`,
      },
    );
    // Seen again (more blocks, more passes): nothing more.
    await chain.mine(2);
    await p.monitor.scanDeposits();
    assert.equal(await balance(c.customerId), '42.500000');
  });

  test('a rescan of blocks already credited (the cursor set back, as after a crash before its move) credits nothing twice', async () => {
    const c = await customerWithWallet();
    await sendFromOutside(c.wallet, '10.00');
    await chain.mine(CONFIRMATIONS);
    await p.monitor.scanDeposits();
    assert.equal(await balance(c.customerId), '10.000000');
    const db = server.deps.store.db;
    await db.update(chainCursors).set({ scannedBlock: sql`greatest(${chainCursors.scannedBlock} - 20, 0)` }).where(eq(chainCursors.blockchain, 'POLYGON'));
    await p.monitor.scanDeposits();
    const [cursor] = await db.select().from(chainCursors).where(eq(chainCursors.blockchain, 'POLYGON'));
    const head = await chain.pub.getBlockNumber();
    assert.equal(cursor!.scannedBlock, head - BigInt(CONFIRMATIONS) + 1n, 'the rescan went through to the confirmed head');
    assert.equal(await balance(c.customerId), '10.000000');
    assert.equal((await depositEvents(c.customerId)).length, 1);
  });

  test('the treasury’s own payouts to a wallet are the on-ramp’s, not deposits: credited once, by the on-ramp', async () => {
    const t = await p.paidOnRamp('POLYGON', '50.00');
    await p.check();
    await p.mineAndCheck(() => chain.mine(1), CONFIRMATIONS);
    assert.equal(await p.statusOf(t.id), 'SUCCESS');
    await p.monitor.scanDeposits();
    assert.equal(await balance(t.customerId), t.amount);
    assert.deepEqual(await depositsOf(server.deps.store.db, server.deps.partnerId!, t.customerId), []);
  });

  test('a deposit taken out by a reorg before its confirmations is never credited', async () => {
    const c = await customerWithWallet();
    await sendFromOutside(c.wallet, '7.00');
    await p.monitor.scanDeposits();
    // The transfer's block and the mint's block replaced by empty ones.
    await chain.test.request({ method: 'anvil_reorg', params: [2, []] } as never);
    assert.equal(await chain.balanceOf(chain.usdc, c.wallet), 0n);
    await chain.mine(CONFIRMATIONS + 1);
    await p.monitor.scanDeposits();
    assert.equal(await balance(c.customerId), '0.000000');
    assert.deepEqual(await depositEvents(c.customerId), []);
  });

  test('one watcher per chain at a time: a second process waits while the lease runs, and takes over when the first stops', async () => {
    const other = chainMonitor(server.deps);
    const c = await customerWithWallet();
    await sendFromOutside(c.wallet, '3.00');
    await chain.mine(CONFIRMATIONS);
    // The first monitor leads (it scanned before): the other's pass does nothing, however often it runs.
    await Promise.all([other.scanDeposits(), other.scanDeposits()]);
    const [cursor] = await server.deps.store.db.select().from(chainCursors).where(eq(chainCursors.blockchain, 'POLYGON'));
    assert.equal(cursor!.leader, p.monitor.watcher);
    assert.equal(await balance(c.customerId), '0.000000');
    await p.monitor.stop(); // lets its lease go
    assert.equal(await other.scanDeposits(), 1);
    assert.equal(await balance(c.customerId), '3.000000');
    const [taken] = await server.deps.store.db.select().from(chainCursors).where(eq(chainCursors.blockchain, 'POLYGON'));
    assert.equal(taken!.leader, other.watcher);
    // A leader that dies keeps its lease until it runs out; then the next process takes over.
    await server.deps.store.db.update(chainCursors).set({ leaseUntil: new Date(Date.now() - 1) }).where(eq(chainCursors.blockchain, 'POLYGON'));
    const third = chainMonitor(server.deps);
    await third.scanDeposits();
    const [back] = await server.deps.store.db.select().from(chainCursors).where(eq(chainCursors.blockchain, 'POLYGON'));
    assert.equal(back!.leader, third.watcher);
    await Promise.all([other.stop(), third.stop()]);
  });
});

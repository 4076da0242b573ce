// Settlement benchmark: on-chain payouts per second through the service's chain monitor (sign, record the nonce and raw,
// send, follow into a block, confirm: every database write and node call a payout makes) against a bare viem loop sending
// the same ERC-20 transfers to the same anvil node, interleaved (bare, service, bare, service) in one run. Payouts are
// queued straight into chain_transfers (the on-ramps before them are the HTTP bench's business); one confirmation.
// BENCH_PAYOUTS (per round) and BENCH_ROUNDS tune it. Writes bench/settlement.json.
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS } from '../scripts/devnet/anvil.mjs';
import { mint } from '../scripts/devnet/token.mjs';
import { toBaseUnits } from '../server/domain/chain/amounts';
import type { Address, Hex } from '../server/domain/chain/chain-client';
import { queueChainTransfer } from '../server/store/queries/chain-transfers';
import { chainTransfers } from '../server/store/schema/index';
import { chainMonitor } from '../server/workers/chain-monitor';
import { startTestServer } from '../test/server/harness';
import { startChainNode } from '../test/server/support/chain-node';

const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const seed = randomBytes(32).toString('hex');
const chain = await startChainNode({ chainId: 31_499, blockchain: 'BASE', seed, usdc: String(PAYOUTS * ROUNDS * 2), native: 10n ** 21n });
const server = await startTestServer({ RAMP_WALLET_SEED: seed, RAMP_CHAIN_POLL_MS: '50', ...chain.env(undefined, 1) });
const db = server.deps.store.db;
const monitor = chainMonitor(server.deps);
const randomAddress = () => `0x${randomBytes(20).toString('hex')}` as Address;

// The bare loop's sender: a funded account of its own, so the two never share a nonce.
const sender = privateKeyToAccount(DEV_ACCOUNTS[1]!.privateKey as Hex);
await mint(chain.rpcUrl, { token: chain.usdc, to: sender.address, amount: toBaseUnits(String(PAYOUTS * ROUNDS), 6), ownerKey: DEV_ACCOUNTS[0]!.privateKey as Hex });
const transport = http(chain.rpcUrl, { retryCount: 0 });
const pub = createPublicClient({ transport, pollingInterval: 20 });
const wallet = createWalletClient({ account: sender, transport });

/** Signs and sends PAYOUTS transfers on consecutive nonces, then waits for every receipt: payouts per second. */
async function bare(): Promise<number> {
  const start = performance.now();
  let nonce = await pub.getTransactionCount({ address: sender.address, blockTag: 'pending' });
  const fees = await pub.estimateFeesPerGas();
  const chainId = await pub.getChainId();
  const hashes: Hex[] = [];
  for (let i = 0; i < PAYOUTS; i++) {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [randomAddress(), 1_000_000n] });
    const raw = await wallet.signTransaction({ type: 'eip1559', chainId, to: chain.usdc, data, nonce: nonce++, gas: 100_000n, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas, chain: null });
    hashes.push(await pub.sendRawTransaction({ serializedTransaction: raw }));
  }
  for (const hash of hashes) await pub.waitForTransactionReceipt({ hash });
  return PAYOUTS / ((performance.now() - start) / 1000);
}

/** Queues PAYOUTS payouts and runs the service's monitor until every one is CONFIRMED: payouts per second. */
async function service(): Promise<number> {
  const now = new Date();
  const confirmed = async () => (await db.select({ n: count() }).from(chainTransfers).where(eq(chainTransfers.status, 'CONFIRMED')))[0]!.n;
  const target = (await confirmed()) + PAYOUTS;
  for (let i = 0; i < PAYOUTS; i++) {
    await queueChainTransfer(
      db,
      { partnerId: server.deps.partnerId!, blockchain: 'BASE', kind: 'PAYOUT', transactionId: randomUUID(), asset: 'USDC', token: chain.usdc, fromAddress: chain.treasury, toAddress: randomAddress(), value: '1.000000' },
      now,
    );
  }
  const start = performance.now();
  monitor.start();
  while ((await confirmed()) < target) await new Promise((r) => setTimeout(r, 20));
  const rate = PAYOUTS / ((performance.now() - start) / 1000);
  await monitor.stop();
  return rate;
}

const rounds: { bare: number; service: number; ratio: number }[] = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    const b = await bare();
    const s = await service();
    rounds.push({ bare: b, service: s, ratio: s / b });
    console.log(`round ${r + 1}: bare viem ${b.toFixed(1)} payouts/s, service ${s.toFixed(1)} payouts/s, ratio ${(s / b).toFixed(3)}×`);
  }
} finally {
  await monitor.stop();
  await server.close();
  await chain.stop();
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const result = { payoutsPerRound: PAYOUTS, rounds, medianRatio: median(rounds.map((r) => r.ratio)), store: server.deps.store.kind };
console.log(`settlement: service ${median(rounds.map((r) => r.service)).toFixed(1)} payouts/s = ${result.medianRatio.toFixed(3)}× a bare viem loop (median of ${ROUNDS})`);
writeFileSync(new URL('./settlement.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);

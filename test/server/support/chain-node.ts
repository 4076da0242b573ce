// A real EVM node for the payout tests: anvil with test USDC and USDT, a funded treasury, and reads of what the chain holds.
import { createPublicClient, createTestClient, erc20Abi, http, parseAbiItem } from 'viem';
import { type AnvilNode, DEV_ACCOUNTS, startAnvil } from '../../../scripts/devnet/anvil.mjs';
import { compileTestToken, deployToken, mint, sendNative } from '../../../scripts/devnet/token.mjs';
import { toBaseUnits } from '../../../server/domain/chain/amounts';
import type { Address, Hex } from '../../../server/domain/chain/chain-client';
import type { EvmChain } from '../../../server/domain/chain/settings';
import { treasuryAccount } from '../../../server/domain/chain/treasury';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export interface ChainNode {
  node: AnvilNode;
  rpcUrl: string;
  blockchain: EvmChain;
  usdc: Address;
  usdt: Address;
  treasury: Address;
  /** The treasury's key, for a test that uses the treasury behind the service's back. */
  treasuryKey: Hex;
  test: ReturnType<typeof createTestClient>;
  pub: ReturnType<typeof createPublicClient>;
  /** Mines `n` blocks (the node mines nothing by itself once `manual()` ran). */
  mine(n?: number): Promise<void>;
  manual(): Promise<void>;
  balanceOf(token: Address, who: string): Promise<bigint>;
  /** Every Transfer of `token` to `to` on the node's current chain. */
  transfersTo(token: Address, to: string): Promise<{ hash: Hex; value: bigint; blockHash: Hex }[]>;
  /** The env that configures the service for this chain (the RPC URL may be a proxy's). */
  env(rpcUrl?: string, confirmations?: number): Record<string, string>;
  /** Gives the treasury `usdc` whole USDC (and USDT) and `native` wei, mined at once whatever the mining mode. */
  fund(p: { usdc?: string; native?: bigint }): Promise<void>;
  stop(): Promise<void>;
}

export async function startChainNode(p: { chainId: number; blockchain: EvmChain; seed: string; usdc?: string; native?: bigint; blockTime?: number }): Promise<ChainNode> {
  const starting = startAnvil({ chainId: p.chainId, blockTime: p.blockTime });
  compileTestToken();
  const node = await starting;
  const owner = DEV_ACCOUNTS[0];
  const usdc = await deployToken(node.rpcUrl, { name: 'USD Coin', symbol: 'USDC', decimals: 6, deployerKey: owner.privateKey });
  const usdt = await deployToken(node.rpcUrl, { name: 'Tether USD', symbol: 'USDT', decimals: 6, deployerKey: owner.privateKey });
  const account = treasuryAccount(p.seed, p.blockchain);
  const test = createTestClient({ mode: 'anvil', transport: http(node.rpcUrl, { retryCount: 0 }) });
  // No cache: viem keeps a block number for the client's cacheTime (4 s by default), and a test reads the head it just mined.
  const pub = createPublicClient({ cacheTime: 0, transport: http(node.rpcUrl, { retryCount: 0 }) });
  let manual = false;
  const chain: ChainNode = {
    node,
    rpcUrl: node.rpcUrl,
    blockchain: p.blockchain,
    usdc,
    usdt,
    treasury: account.address,
    treasuryKey: account.signingKey(),
    test,
    pub,
    mine: (n = 1) => test.mine({ blocks: n }),
    async manual() {
      manual = true;
      await test.setAutomine(false);
    },
    balanceOf: (token, who) => pub.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who as Address] }),
    async transfersTo(token, to) {
      const logs = await pub.getLogs({ address: token, event: transferEvent, args: { to: to as Address }, fromBlock: 0n, toBlock: 'latest', strict: true });
      return logs.map((l) => ({ hash: l.transactionHash, value: l.args.value, blockHash: l.blockHash }));
    },
    env: (rpcUrl = node.rpcUrl, confirmations = 1) => ({
      [`RAMP_CHAIN_RPC_${p.blockchain}`]: rpcUrl,
      [`RAMP_CHAIN_TOKEN_${p.blockchain}_USDC`]: usdc,
      [`RAMP_CHAIN_TOKEN_${p.blockchain}_USDT`]: usdt,
      [`RAMP_CHAIN_CONFIRMATIONS_${p.blockchain}`]: String(confirmations),
    }),
    async fund({ usdc: coins, native }) {
      // The devnet helpers wait for receipts: mined at once even while the test mines by hand.
      if (manual) await test.setAutomine(true);
      try {
        if (coins) {
          for (const token of [usdc, usdt]) await mint(node.rpcUrl, { token, to: account.address, amount: toBaseUnits(coins, 6), ownerKey: owner.privateKey });
        }
        if (native) await sendNative(node.rpcUrl, { to: account.address, value: native, fromKey: owner.privateKey });
      } finally {
        if (manual) await test.setAutomine(false);
      }
    },
    stop: () => node.stop(),
  };
  await chain.fund({ usdc: p.usdc, native: p.native });
  return chain;
}

/** A test server's settings for chain faults: a held review, fast polling, short retries and a short RPC timeout. */
export const chainFaultEnv = {
  RAMP_SANDBOX_REVIEW_MS: '600000',
  RAMP_CHAIN_POLL_MS: '50',
  RAMP_CHAIN_RETRY_MAX_MS: '200',
  RAMP_CHAIN_RPC_TIMEOUT_MS: '1000',
};

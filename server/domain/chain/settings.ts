// Which chains settle on-chain and how: the EVM chains, each one's settings from the environment, and the confirmation defaults.
import type { Stablecoin } from '../money';
import type { Blockchain } from '../wallets';
import type { Address } from './chain-client';

/** The chains that can settle on a real node (TRON stays simulated in sandbox). */
export const EVM_CHAINS = ['ETHEREUM', 'BASE', 'POLYGON'] as const;
export type EvmChain = (typeof EVM_CHAINS)[number];

export const isEvmChain = (b: Blockchain | string): b is EvmChain => (EVM_CHAINS as readonly string[]).includes(b);

/**
 * Blocks (the including block counts as the first) before a transfer counts, when RAMP_CHAIN_CONFIRMATIONS_<CHAIN> is unset.
 * ETHEREUM 12: post-merge reorgs deeper than a block or two have not happened; 12 (~2.5 min) is the custodians' usual
 * figure, well short of finality (~13 min). BASE 10: an OP-stack sequencer orders blocks every 2 s and rarely reorgs its
 * unsafe head; 10 is 20 s. POLYGON 64: Polygon PoS has reorged dozens of blocks deep (157 in 2023) before milestones
 * made finality quick; 64 is ~2 min.
 */
export const DEFAULT_CONFIRMATIONS: Readonly<Record<EvmChain, number>> = { ETHEREUM: 12, BASE: 10, POLYGON: 64 };

/** One configured chain: its node, its tokens (the coins it can pay), and how many blocks make a transfer count. */
export interface ChainSettings {
  blockchain: EvmChain;
  rpcUrl: string;
  /** EIP-55 addresses of the coins configured on this chain; a coin without one is not paid on this chain. */
  tokens: Partial<Record<Stablecoin, Address>>;
  confirmations: number;
}

// Rules of an on-chain payout: its states, what makes it count (confirmations), how fees rise to replace it, how long to wait after a failure.
import type { FeeQuote } from './chain-client';

/**
 * QUEUED: due, no nonce yet. SIGNED: nonce taken and the signed raw recorded, maybe not yet seen by the node (a crash
 * between recording and sending leaves it so; it is sent again). SENT: the node took it. INCLUDED: in a block, counting
 * confirmations. CONFIRMED: counted; the transaction it pays moved on in the same DB transaction.
 */
export const CHAIN_TRANSFER_STATUSES = ['QUEUED', 'SIGNED', 'SENT', 'INCLUDED', 'CONFIRMED'] as const;
export type ChainTransferStatus = (typeof CHAIN_TRANSFER_STATUSES)[number];

/** What a chain transfer does (see the `kind` column): who sends, who receives, and what its confirmation moves on. */
export const CHAIN_TRANSFER_KINDS = ['PAYOUT', 'OFFRAMP', 'REFUND', 'TRANSFER', 'GAS'] as const;
export type ChainTransferKind = (typeof CHAIN_TRANSFER_KINDS)[number];

/** The asset of a GAS transfer: the chain's native coin (ETH, POL), in wei. */
export const NATIVE_ASSET = 'NATIVE';

/**
 * Why a transfer is not moving; /readyz and `ops treasury` show it per chain. AWAITING_GAS: a customer wallet's transfer
 * waits for the GAS transfer that funds it.
 */
export type WaitReason = 'NODE_UNAVAILABLE' | 'INSUFFICIENT_TOKEN' | 'INSUFFICIENT_GAS' | 'AWAITING_GAS' | 'REJECTED';

/** Gas limit of a native-coin transfer (fixed by the protocol). */
export const NATIVE_GAS_LIMIT = 21_000n;

/** A wallet's gas is funded for this many of its transfers at today's fee, so one rise in fees does not strand it. */
export const GAS_FUNDING_MULTIPLE = 2n;

/** Blocks a transaction included at `included` has with the chain's head at `head`: its own block is the first. */
export function confirmationsOf(head: bigint, included: bigint): number {
  return head < included ? 0 : Number(head - included) + 1;
}

/**
 * The fees of a replacement: at least 12.5 % above the one it replaces on both fields (nodes refuse a same-nonce
 * replacement below +10 %; 12.5 % is geth's blob-pool rule and clears every pool), and at least what the node asks now.
 */
export function bumpFees(previous: FeeQuote, market: FeeQuote): FeeQuote {
  const up = (v: bigint) => (v * 9n + 7n) / 8n; // ceil(v × 1.125)
  const maxPriorityFeePerGas = max(up(previous.maxPriorityFeePerGas), market.maxPriorityFeePerGas);
  const maxFeePerGas = max(up(previous.maxFeePerGas), market.maxFeePerGas, maxPriorityFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

const max = (...v: bigint[]): bigint => v.reduce((a, b) => (b > a ? b : a));

/** The pause before the next try after `failures` in a row: doubling from `baseMs` to `maxMs`, with jitter so processes spread out. */
export function retryDelayMs(failures: number, baseMs: number, maxMs: number, random = Math.random()): number {
  const plain = Math.min(maxMs, baseMs * 2 ** Math.min(failures, 30));
  return Math.round(plain * (0.75 + random / 4));
}

/**
 * The gas limit a payout is signed with, fixed so signing needs no estimate from the node: an ERC-20 transfer costs
 * ~35 000–65 000 (more for a recipient's first balance, or a proxied token like USDC). Unused gas is not charged.
 */
export const PAYOUT_GAS_LIMIT = 100_000n;

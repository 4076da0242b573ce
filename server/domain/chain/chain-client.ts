// The ChainClient port: what the service needs from one EVM chain (reads, offline signing, broadcast, receipts, token
// Transfer logs), in plain types. The viem implementation is server/providers/chain/evm.ts; nothing here knows HTTP.

/** 0x-prefixed hex: hashes, raw transactions, private keys. */
export type Hex = `0x${string}`;
/** 0x + 40 hex digits, any case (the node accepts every case; we store EIP-55). */
export type Address = `0x${string}`;

export interface BlockRef {
  number: bigint;
  hash: Hex;
  /** Compared with the hash we saw at `number - 1` to notice a reorg under us. */
  parentHash: Hex;
}

export interface FeeQuote {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface SignedTransaction {
  /** keccak256 of `raw`: known before the node sees it, so it can be stored before broadcasting. */
  hash: Hex;
  raw: Hex;
}

export interface TxReceipt {
  blockNumber: bigint;
  blockHash: Hex;
  status: 'success' | 'reverted';
  gasUsed: bigint;
}

/** One ERC-20 Transfer event. `logIndex` is the log's position in its block, so (blockHash, logIndex) identifies it. */
export interface TransferLog {
  from: Address;
  to: Address;
  value: bigint;
  transactionHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hex;
}

/** The fee and nonce of a transaction are chosen by the caller: they are what makes a replacement replace. */
interface SignCommon {
  privateKey: Hex;
  to: Address;
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  /** Gas limit; the client's default for the kind of transfer when omitted (signing asks the node nothing). */
  gas?: bigint;
}

export interface TokenTransferRequest extends SignCommon {
  token: Address;
  /** Base units (see amounts.ts): 1.5 USDC is 1_500_000n. */
  amount: bigint;
}

export interface NativeTransferRequest extends SignCommon {
  /** Wei. */
  value: bigint;
}

export interface ChainClient {
  chainId(): Promise<number>;
  blockNumber(): Promise<bigint>;
  /** null when the chain has no block `number` yet. */
  block(number: bigint): Promise<BlockRef | null>;
  /** Read from the contract: a deployment's decimals are not assumed (USDC is 6 on these chains, 18 on others). */
  decimals(token: Address): Promise<number>;
  tokenBalance(token: Address, address: Address): Promise<bigint>;
  nativeBalance(address: Address): Promise<bigint>;
  /** The next nonce counting transactions waiting in the node's pool; `latestNonce` counts mined ones only. */
  pendingNonce(address: Address): Promise<number>;
  latestNonce(address: Address): Promise<number>;
  /** EIP-1559 fees that should get a transaction into the next few blocks. */
  fees(): Promise<FeeQuote>;
  estimateTokenTransferGas(p: { token: Address; from: Address; to: Address; amount: bigint }): Promise<bigint>;
  /** Signs without sending: the caller stores `hash` and `raw` first, so a crash between signing and sending loses nothing. */
  signTokenTransfer(p: TokenTransferRequest): Promise<SignedTransaction>;
  signNativeTransfer(p: NativeTransferRequest): Promise<SignedTransaction>;
  /**
   * Sends a signed transaction; returns its hash. Idempotent: sending a raw the node already has (pooled or mined) again
   * succeeds, so a retry after a timeout is safe. A refusal that sending again cannot cure is a `TransactionRejectedError`;
   * any other failure, including a refusal the client cannot name, is a `ChainUnavailableError` (retry the same raw).
   */
  broadcast(raw: Hex): Promise<Hex>;
  /** null while the transaction is not in a block of the node's current chain (pending, dropped, or reorged out). */
  receipt(hash: Hex): Promise<TxReceipt | null>;
  /** Transfer events of `token` in [fromBlock, toBlock], optionally only those to `to`, in chain order. */
  transferLogs(token: Address, fromBlock: bigint, toBlock: bigint, filter?: { to?: Address[] }): Promise<TransferLog[]>;
}

// ---------------------------------------------------------------------------------------------------------
// Errors: what a caller does next differs, so each is its own type.

/** The node could not be reached or answered with an error of its own (timeout, 5xx, rate limit): wait and retry. */
export class ChainUnavailableError extends Error {
  override name = 'ChainUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Why the node refused a transaction; `nonce-too-low` means another transaction took the nonce. */
export type RejectionReason = 'nonce-too-low' | 'insufficient-funds' | 'underpriced' | 'invalid';

/** The node refused the transaction itself: sending it again will not help; it must be re-signed or abandoned. */
export class TransactionRejectedError extends Error {
  override name = 'TransactionRejectedError';
  constructor(
    readonly reason: RejectionReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A contract call reverted or returned nothing: not a token at that address, or a transfer that would fail. */
export class ContractCallError extends Error {
  override name = 'ContractCallError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

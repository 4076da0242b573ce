// The ChainClient of an EVM chain (ETHEREUM, BASE, POLYGON) over JSON-RPC, with viem: reads, offline EIP-1559 signing, idempotent broadcast.
import {
  BaseError,
  BlockNotFoundError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  ExecutionRevertedError,
  http,
  InternalRpcError,
  keccak256,
  parseAbiItem,
  RpcError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  type Address,
  type ChainClient,
  ChainUnavailableError,
  ContractCallError,
  type Hex,
  type RejectionReason,
  type SignedTransaction,
  TransactionRejectedError,
} from '../../domain/chain/chain-client';

export interface EvmChainClientOptions {
  rpcUrl: string;
  /** Per HTTP request; a node that does not answer in time is unavailable. */
  timeoutMs: number;
  /** Retries of an idempotent read after a network error, 5xx or rate limit, with viem's backoff (150 ms doubling). */
  retryCount: number;
}

/**
 * Gas limits used when the caller passes none, so that signing stays offline. 21 000 is exact for a plain transfer to an
 * account without code; an ERC-20 transfer costs about 35 000–65 000 (more when the recipient's balance slot is new),
 * so 100 000 leaves room for proxied tokens such as USDC without asking the node. Unused gas is not charged.
 */
export const DEFAULT_TOKEN_TRANSFER_GAS = 100_000n;
export const DEFAULT_NATIVE_TRANSFER_GAS = 21_000n;

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** The node's words, as deep in viem's cause chain as they go (viem's own message adds version and docs noise). */
function nodeMessage(err: unknown): string {
  if (err instanceof BaseError) {
    const rpc = err.walk((e) => e instanceof RpcError);
    if (rpc instanceof BaseError) return rpc.details || rpc.shortMessage;
    return err.details || err.shortMessage;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * What every read turns an error into. A revert (or no code at the address) is the caller's problem; anything else means
 * the node gave no usable answer — including a 200 with an empty or malformed body, which viem reports as a plain
 * TypeError while formatting it — and a read can always be retried.
 */
function readError(err: unknown, what: string): Error {
  if (err instanceof BaseError) {
    const revert = err.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError || e instanceof ExecutionRevertedError);
    // viem calls every JSON-RPC internal error (-32603) of a contract call a revert (old dev nodes reported reverts so);
    // from a real node it is the node's trouble unless it says "revert".
    const rpc = err.walk((e) => e instanceof RpcError);
    const internal = rpc instanceof RpcError && rpc.code === InternalRpcError.code && !/revert/i.test(nodeMessage(rpc));
    if (revert && !internal) return new ContractCallError(`${what}: ${nodeMessage(revert)}`, { cause: err });
  }
  return new ChainUnavailableError(`${what}: ${nodeMessage(err)}`, { cause: err });
}

/**
 * Sorts a node's refusal of eth_sendRawTransaction by its message: nodes (geth, erigon, reth, anvil) agree on the words,
 * not on codes. Only refusals that sending again cannot cure are named; the rest (a full pool, a nonce gap some
 * providers refuse) are left to be retried.
 */
function rejectionReason(message: string): RejectionReason | null {
  if (/nonce too low|nonce is too low|OldNonce/i.test(message)) return 'nonce-too-low';
  if (/insufficient funds|not enough funds/i.test(message)) return 'insufficient-funds';
  if (/underpriced|fee cap (is )?(too )?low|less than (the )?block base fee|max fee per gas less than|tip too low/i.test(message)) return 'underpriced';
  if (
    /intrinsic gas|exceeds block gas limit|invalid (sender|signature|chain id)|(incorrect|mismatched) chain id|oversized data|exceeds the configured cap|higher than max fee|transaction type not supported|rlp/i.test(
      message,
    )
  ) {
    return 'invalid';
  }
  return null;
}
const ALREADY_KNOWN = /already known|known transaction|already imported|already exists|ALREADY_EXISTS|transaction already in (the )?pool/i;

export function evmChainClient(options: EvmChainClientOptions): ChainClient {
  const client = createPublicClient({
    transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: options.retryCount }),
    // No caching of block numbers or anything else: a confirmation count must come from the node, not from 4 s ago.
    cacheTime: 0,
  });

  const read = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw readError(err, what);
    }
  };

  // A chain's id never changes behind one URL; asked once (signing needs it) and kept once known.
  let knownChainId: number | undefined;
  const chainId = async (): Promise<number> => {
    knownChainId ??= await read('eth_chainId', () => client.getChainId());
    return knownChainId;
  };

  const sign = async (p: { privateKey: Hex; to: Address; nonce: number; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; gas: bigint; data?: Hex; value?: bigint }): Promise<SignedTransaction> => {
    if (!Number.isSafeInteger(p.nonce) || p.nonce < 0) throw new RangeError(`nonce must be a non-negative integer, not ${p.nonce}`);
    if (p.maxPriorityFeePerGas > p.maxFeePerGas) throw new RangeError('maxPriorityFeePerGas cannot exceed maxFeePerGas');
    let account: ReturnType<typeof privateKeyToAccount>;
    try {
      account = privateKeyToAccount(p.privateKey);
    } catch {
      // Without the library's message or cause: nothing about a key goes into an error that may be logged.
      throw new RangeError('privateKey is not a valid secp256k1 private key (0x and 64 hex digits)');
    }
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId: await chainId(),
      nonce: p.nonce,
      to: p.to,
      data: p.data,
      value: p.value ?? 0n,
      gas: p.gas,
      maxFeePerGas: p.maxFeePerGas,
      maxPriorityFeePerGas: p.maxPriorityFeePerGas,
    });
    return { hash: keccak256(raw), raw };
  };

  /** Whether the node knows the transaction (pooled or mined): then a refusal to take it again is not a refusal. */
  const known = async (hash: Hex): Promise<boolean> => {
    try {
      await client.getTransaction({ hash });
      return true;
    } catch (err) {
      if (err instanceof TransactionNotFoundError) return false;
      throw readError(err, `eth_getTransactionByHash ${hash}`);
    }
  };

  return {
    chainId,

    blockNumber: () => read('eth_blockNumber', () => client.getBlockNumber()),

    block: (number) =>
      read(`eth_getBlockByNumber ${number}`, async () => {
        try {
          const b = await client.getBlock({ blockNumber: number });
          if (b.hash === null || b.number === null) return null; // only a pending block lacks them
          return { number: b.number, hash: b.hash, parentHash: b.parentHash };
        } catch (err) {
          if (err instanceof BlockNotFoundError) return null;
          throw err;
        }
      }),

    decimals: (token) => read(`decimals() of ${token}`, () => client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' })),

    tokenBalance: (token, address) =>
      read(`balanceOf(${address}) of ${token}`, () => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] })),

    nativeBalance: (address) => read(`eth_getBalance ${address}`, () => client.getBalance({ address })),

    pendingNonce: (address) => read(`eth_getTransactionCount ${address} pending`, () => client.getTransactionCount({ address, blockTag: 'pending' })),

    latestNonce: (address) => read(`eth_getTransactionCount ${address} latest`, () => client.getTransactionCount({ address, blockTag: 'latest' })),

    fees: () =>
      read('fees', async () => {
        // viem: the latest block's base fee × 1.2 (room for a few fuller blocks) plus eth_maxPriorityFeePerGas.
        const f = await client.estimateFeesPerGas({ type: 'eip1559', chain: undefined });
        return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
      }),

    estimateTokenTransferGas: ({ token, from, to, amount }) =>
      read(`estimate transfer of ${token}`, () =>
        client.estimateGas({ account: from, to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }) }),
      ),

    signTokenTransfer: async (p) => {
      if (p.amount < 0n) throw new RangeError('a token amount cannot be negative');
      // The transaction goes to the token contract; the recipient and amount are the call's arguments.
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [p.to, p.amount] });
      return sign({ ...p, to: p.token, data, gas: p.gas ?? DEFAULT_TOKEN_TRANSFER_GAS });
    },

    signNativeTransfer: async (p) => {
      if (p.value < 0n) throw new RangeError('a value cannot be negative');
      return sign({ ...p, gas: p.gas ?? DEFAULT_NATIVE_TRANSFER_GAS });
    },

    async broadcast(raw) {
      const hash = keccak256(raw);
      try {
        await client.sendRawTransaction({ serializedTransaction: raw });
        return hash;
      } catch (err) {
        const message = nodeMessage(err);
        // Sent before (a retry after a timeout, or a second worker): the node has it, which is what we wanted.
        if (ALREADY_KNOWN.test(message)) return hash;
        const reason = rejectionReason(message);
        if (reason === 'nonce-too-low' && (await known(hash))) return hash; // mined already: its nonce is used by itself
        if (reason) throw new TransactionRejectedError(reason, `eth_sendRawTransaction ${hash}: ${message}`, { cause: err });
        // Anything else is retried, never taken for a refusal: sending the same raw again is harmless, while a payout
        // given up on a guess (and refunded) could still be mined later.
        throw new ChainUnavailableError(`eth_sendRawTransaction ${hash}: ${message}`, { cause: err });
      }
    },

    receipt: (hash) =>
      read(`eth_getTransactionReceipt ${hash}`, async () => {
        try {
          const r = await client.getTransactionReceipt({ hash });
          return { blockNumber: r.blockNumber, blockHash: r.blockHash, status: r.status, gasUsed: r.gasUsed };
        } catch (err) {
          if (err instanceof TransactionReceiptNotFoundError) return null;
          throw err;
        }
      }),

    transferLogs: (token, fromBlock, toBlock, filter) =>
      read(`Transfer logs of ${token} in ${fromBlock}–${toBlock}`, async () => {
        if (filter?.to?.length === 0) return []; // no recipients: viem would read an empty list as "any"
        const logs = await client.getLogs({ address: token, event: transferEvent, args: filter?.to ? { to: filter.to } : undefined, fromBlock, toBlock, strict: true });
        // A removed log, or one without a block (pending), is not a Transfer that happened.
        return logs.flatMap((l) =>
          l.removed || l.blockHash === null || l.blockNumber === null || l.transactionHash === null || l.logIndex === null
            ? []
            : [{ from: l.args.from, to: l.args.to, value: l.args.value, transactionHash: l.transactionHash, logIndex: l.logIndex, blockNumber: l.blockNumber, blockHash: l.blockHash }],
        );
      }),
  };
}

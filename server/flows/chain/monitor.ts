// One check of a claimed chain transfer: sign and record it (nonce and raw in one DB transaction), send it, follow it into a
// block and through its confirmations, replace it when stuck, wait when the node or the treasury cannot serve it.
// Every talk with the node happens outside a DB transaction; every write is versioned, so a stale claimer changes nothing.
import { formatEther } from 'viem';
import { ChainUnavailableError, type Hex, TransactionRejectedError, type TxReceipt } from '../../domain/chain/chain-client';
import { fromBaseUnits, toBaseUnits } from '../../domain/chain/amounts';
import { bumpFees, confirmationsOf, GAS_FUNDING_MULTIPLE, NATIVE_ASSET, NATIVE_GAS_LIMIT, PAYOUT_GAS_LIMIT, retryDelayMs, type WaitReason } from '../../domain/chain/payout';
import { customerAccount } from '../../domain/chain/treasury';
import type { Stablecoin } from '../../domain/money';
import type { Deps } from '../../deps';
import {
  allocateNonce,
  type ChainTransferRow,
  type ChainTransferSet,
  lockTransferAt,
  queueChainTransfer,
  transferOf,
  unminedUnits,
  updateTransferAt,
} from '../../store/queries/chain-transfers';
import type { ChainRuntime } from './chains';
import { crashPoint } from './crash-point';
import { confirmTransfer } from './payouts';
import { inTransaction } from '../../store/db';

export interface MonitorTiming {
  pollMs: number;
  retryMaxMs: number;
  replaceAfterMs: number;
  /** How long a claim (and a signed transfer not yet known sent) is left to its process before another may take it. */
  leaseMs: number;
}

/** A newer claim wrote the row: this check's copy is stale and it stops. */
class Superseded extends Error {}

/** An error's first line, without any URL (an RPC URL can carry its provider's API key). */
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/\bhttps?:\/\/\S+/g, '<rpc>').slice(0, 500);

export async function checkTransfer(deps: Deps, timing: MonitorTiming, row: ChainTransferRow): Promise<void> {
  const chain = deps.chains.get(row.blockchain);
  if (!chain) return;
  const check = new Check(deps, timing, chain, row);
  try {
    await check.run();
  } catch (err) {
    if (err instanceof Superseded) return;
    if (err instanceof ChainUnavailableError) return check.wait('NODE_UNAVAILABLE', describe(err)).catch(() => undefined);
    deps.logger.error({ transferId: row.id, blockchain: row.blockchain, reason: describe(err) }, 'chain transfer check failed; retried after a pause');
    // A database that is away too: the claim's lease brings the transfer back.
    await check.wait('REJECTED', describe(err)).catch(() => undefined);
  }
}

class Check {
  private replaced = false;
  constructor(
    private readonly deps: Deps,
    private readonly timing: MonitorTiming,
    private readonly chain: ChainRuntime,
    private row: ChainTransferRow,
  ) {}

  private get db() {
    return this.deps.store.db;
  }
  private get client() {
    return this.chain.client;
  }
  private log(extra: Record<string, unknown> = {}) {
    const r = this.row;
    return { transferId: r.id, transactionId: r.transactionId, blockchain: r.blockchain, nonce: r.nonce, hash: r.hash, ...extra };
  }
  private later(ms: number): Date {
    return new Date(Date.now() + ms);
  }

  private async write(set: ChainTransferSet): Promise<void> {
    const next = await updateTransferAt(this.db, this.row.id, this.row.version, set, new Date());
    if (!next) throw new Superseded();
    this.row = next;
  }

  async run(): Promise<void> {
    switch (this.row.status) {
      case 'QUEUED':
        return this.signAndSend();
      case 'SIGNED':
      case 'SENT':
        return this.followPending();
      case 'INCLUDED':
        return this.followIncluded();
      case 'CONFIRMED':
        return;
    }
  }

  /** Held back with a reason (/readyz shows it), checked again after a pause that doubles while it lasts. */
  async wait(reason: WaitReason, detail: string): Promise<void> {
    if (this.row.waitReason !== reason) this.deps.logger.warn(this.log({ reason, detail }), 'chain transfer waits');
    await this.write(this.waiting(reason, detail));
  }

  private waiting(reason: WaitReason, detail: string): ChainTransferSet {
    const failures = this.row.failures + 1;
    return { waitReason: reason, lastError: detail, failures, nextCheckAt: this.later(retryDelayMs(failures, this.timing.pollMs, this.timing.retryMaxMs)) };
  }

  /** The key of the account this transfer is sent from: the treasury, or the customer's wallet (checked to be that address). */
  private signingKey(): Hex {
    const { row, chain } = this;
    if (row.fromAddress === chain.treasury.address) return chain.treasury.signingKey();
    if (!row.customerId) throw new Error(`chain transfer ${row.id} is sent from ${row.fromAddress}, which is neither the treasury nor a customer's`);
    const account = customerAccount(this.deps.walletSeed, row.customerId, chain.settings.blockchain);
    if (account.address !== row.fromAddress) throw new Error(`chain transfer ${row.id}: ${row.fromAddress} is not the wallet of customer ${row.customerId}`);
    return account.signingKey();
  }

  /** QUEUED: funds checked, then the nonce taken and the signed raw recorded in one DB transaction, and only then sent. */
  private async signAndSend(): Promise<void> {
    const { row, chain, client } = this;
    const native = row.asset === NATIVE_ASSET;
    const from = row.fromAddress as Hex;
    const gas = native ? NATIVE_GAS_LIMIT : PAYOUT_GAS_LIMIT;
    const [fees, pending, balance] = await Promise.all([client.fees(), client.pendingNonce(from), client.nativeBalance(from)]);
    await client.chainId(); // signing needs it: asked here, not inside the DB transaction
    let amount: bigint;
    if (native) {
      amount = BigInt(row.amount!);
    } else {
      const coin = row.asset as Stablecoin;
      const decimals = await chain.decimals(coin);
      amount = toBaseUnits(row.value, decimals);
      const tokens = await client.tokenBalance(row.token as Hex, from);
      const owed = amount + (await unminedUnits(this.db, chain.settings.blockchain, from, row.token, row.id));
      if (tokens < owed) {
        return this.wait('INSUFFICIENT_TOKEN', `${from === chain.treasury.address ? 'treasury ' : 'wallet '}${from} holds ${fromBaseUnits(tokens, decimals)} ${coin} on ${row.blockchain}; the transfers in flight and this one need ${fromBaseUnits(owed, decimals)}`);
      }
    }
    const gasCost = gas * fees.maxFeePerGas;
    const needed = gasCost + (native ? amount : 0n);
    if (balance < needed) {
      if (from !== chain.treasury.address) return this.fundGas(gasCost, balance);
      return this.wait('INSUFFICIENT_GAS', `treasury ${from} holds ${formatEther(balance)} of ${row.blockchain}'s native coin; this transfer may need ${formatEther(needed)}`);
    }
    const now = new Date();
    const signed = await inTransaction(this.db, async (tx) => {
      const locked = await lockTransferAt(tx, row.id, row.version);
      if (locked?.status !== 'QUEUED') throw new Superseded();
      const nonce = await allocateNonce(tx, chain.settings.blockchain, from, pending, now);
      const common = { privateKey: this.signingKey(), to: row.toAddress as Hex, nonce, gas, ...fees };
      const s = native ? await client.signNativeTransfer({ ...common, value: amount }) : await client.signTokenTransfer({ ...common, token: row.token as Hex, amount });
      return updateTransferAt(
        tx,
        row.id,
        row.version,
        {
          status: 'SIGNED',
          nonce,
          amount: amount.toString(),
          gas: gas.toString(),
          maxFeePerGas: fees.maxFeePerGas.toString(),
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
          raw: s.raw,
          hash: s.hash,
          hashes: [...row.hashes, s.hash],
          signedAt: now,
          failures: 0,
          waitReason: null,
          lastError: null,
          nextCheckAt: new Date(now.getTime() + this.timing.leaseMs),
        },
        now,
      );
    });
    if (!signed) throw new Superseded();
    this.row = signed;
    this.deps.logger.info(this.log({ kind: row.kind, to: row.toAddress, amount: native ? amount.toString() : row.value, asset: row.asset }), 'chain transfer signed and recorded; sending');
    crashPoint(this.deps, 'after-record', row.kind);
    await this.send();
  }

  /**
   * A customer wallet short of gas for its own transfer: the treasury sends it enough for GAS_FUNDING_MULTIPLE such
   * transfers at today's fee (a GAS transfer of this transaction, queued once), and this one waits for it. Gas is the
   * service's cost: it never comes out of the customer's stablecoin.
   */
  private async fundGas(gasCost: bigint, balance: bigint): Promise<void> {
    const { row, chain } = this;
    const existing = await transferOf(this.db, 'GAS', row.transactionId);
    if (existing?.status === 'CONFIRMED') {
      return this.wait('INSUFFICIENT_GAS', `${row.fromAddress} was funded with gas for this transfer and is short again (${formatEther(balance)} of ${formatEther(gasCost)}): fees rose; a person must fund it`);
    }
    // The gas transfer and this transfer's wait for it are one step: written together or not at all.
    const value = gasCost * GAS_FUNDING_MULTIPLE - balance;
    const now = new Date();
    const next = await inTransaction(this.db, async (tx) => {
      if (!existing) {
        await queueChainTransfer(
          tx,
          { partnerId: row.partnerId, customerId: row.customerId, blockchain: chain.settings.blockchain, kind: 'GAS', transactionId: row.transactionId, asset: NATIVE_ASSET, token: '', fromAddress: chain.treasury.address, toAddress: row.fromAddress, value: '0', amount: value.toString() },
          now,
        );
      }
      const waiting = await updateTransferAt(tx, row.id, row.version, this.waiting('AWAITING_GAS', `waiting for the treasury's gas transfer to ${row.fromAddress}`), now);
      if (!waiting) throw new Superseded();
      return waiting;
    });
    if (!existing) this.deps.logger.info(this.log({ wei: value.toString() }), 'customer wallet short of gas: funded from the treasury first');
    this.row = next;
  }

  /** Sends the raw in force (again: the node takes a raw it already has as a success). */
  private async send(): Promise<void> {
    try {
      await this.client.broadcast(this.row.raw as Hex);
    } catch (err) {
      if (err instanceof TransactionRejectedError) return this.rejected(err);
      throw err;
    }
    crashPoint(this.deps, 'after-broadcast', this.row.kind);
    await this.write({ status: 'SENT', sentAt: this.row.sentAt ?? new Date(), failures: 0, waitReason: null, lastError: null, nextCheckAt: this.later(this.timing.pollMs) });
  }

  /** A receipt for any hash this transfer has had, newest first (a replaced one may be the one that landed). */
  private async landed(): Promise<{ hash: Hex; receipt: TxReceipt } | undefined> {
    for (const hash of [...this.row.hashes].reverse() as Hex[]) {
      const receipt = await this.client.receipt(hash);
      if (receipt) return { hash, receipt };
    }
    return undefined;
  }

  /** SIGNED or SENT: in a block yet? If not, replaced when stuck past its age, else sent again. */
  private async followPending(): Promise<void> {
    const found = await this.landed();
    if (found) return this.included(found);
    // Stuck is counted from when the node took it: a transfer held back (a node down, a broadcast lost) was not waiting
    // in anyone's pool meanwhile, and replacing it at once would only raise its fees.
    const age = this.row.sentAt ? Date.now() - this.row.sentAt.getTime() : 0;
    if (this.row.status === 'SENT' && age >= this.timing.replaceAfterMs) return this.replace(`not in a block ${Math.round(age / 1000)} s after the node took it`);
    await this.send();
  }

  private async included({ hash, receipt }: { hash: Hex; receipt: TxReceipt }): Promise<void> {
    const moved = this.row.status === 'INCLUDED';
    await this.write({ status: 'INCLUDED', hash, includedBlockNumber: receipt.blockNumber, includedBlockHash: receipt.blockHash, failures: 0, waitReason: null, lastError: null, nextCheckAt: this.later(this.timing.pollMs) });
    this.deps.logger.info(this.log({ block: receipt.blockNumber.toString() }), moved ? 'payout now in another block (reorg); confirmations count from it' : 'payout in a block; counting confirmations');
    await this.countConfirmations(receipt);
  }

  /** INCLUDED: still in the same block? Then counted once deep enough; gone (a reorg) sends it back to be sent again. */
  private async followIncluded(): Promise<void> {
    const found = await this.landed();
    if (!found) {
      this.deps.logger.warn(this.log({ block: this.row.includedBlockNumber?.toString() }), 'payout left the chain (reorg): sent again, counted only once confirmed again');
      await this.write({ status: 'SENT', hash: this.row.hashes.at(-1)!, includedBlockNumber: null, includedBlockHash: null });
      return this.send();
    }
    if (found.hash !== this.row.hash || found.receipt.blockHash !== this.row.includedBlockHash) return this.included(found);
    await this.countConfirmations(found.receipt);
  }

  private async countConfirmations(receipt: TxReceipt): Promise<void> {
    const need = this.chain.settings.confirmations;
    const head = await this.client.blockNumber();
    if (confirmationsOf(head, receipt.blockNumber) < need) {
      await this.write({ nextCheckAt: this.later(this.timing.pollMs) });
      return;
    }
    // The block at that height must still be the one the receipt named: a reorg between the two reads is seen here.
    const block = await this.client.block(receipt.blockNumber);
    if (block?.hash !== this.row.includedBlockHash) {
      await this.write({ nextCheckAt: new Date() });
      return;
    }
    if (receipt.status === 'reverted') {
      // The nonce is spent and nothing moved: signed again on a new nonce (it waits first if the treasury is short).
      this.deps.logger.error(this.log({ block: receipt.blockNumber.toString() }), 'payout reverted on chain; signed again on a new nonce');
      await this.write({ ...this.retired(), lastError: `transfer ${this.row.hash} reverted in block ${receipt.blockNumber}` });
      return;
    }
    const done = await confirmTransfer(this.db, this.deps, this.row, this.row.hash!);
    if (!done) throw new Superseded();
    this.row = done;
    this.deps.logger.info(this.log({ block: receipt.blockNumber.toString(), confirmations: need }), 'payout confirmed; on-ramp SUCCESS');
  }

  /**
   * Back to QUEUED, to be signed on a new nonce: this one is spent by something that did not pay (a revert, another
   * transaction). Its hashes are retired: a receipt of theirs (a revert) must never again count as this payout landing.
   */
  private retired(): ChainTransferSet {
    const r = this.row;
    return { status: 'QUEUED', nonce: null, raw: null, hash: null, hashes: [], retiredHashes: [...r.retiredHashes, ...r.hashes], signedAt: null, sentAt: null, includedBlockNumber: null, includedBlockHash: null, nextCheckAt: new Date() };
  }

  /** Signed again on its nonce with fees at least 12.5 % higher on both fields; every earlier hash stays recognised. */
  private async replace(why: string): Promise<void> {
    const { row, client, chain } = this;
    const fees = bumpFees({ maxFeePerGas: BigInt(row.maxFeePerGas!), maxPriorityFeePerGas: BigInt(row.maxPriorityFeePerGas!) }, await client.fees());
    await client.chainId();
    const now = new Date();
    const next = await inTransaction(this.db, async (tx) => {
      if (!(await lockTransferAt(tx, row.id, row.version))) throw new Superseded();
      const common = { privateKey: this.signingKey(), to: row.toAddress as Hex, nonce: row.nonce!, gas: BigInt(row.gas!), ...fees };
      const s = row.asset === NATIVE_ASSET ? await client.signNativeTransfer({ ...common, value: BigInt(row.amount!) }) : await client.signTokenTransfer({ ...common, token: row.token as Hex, amount: BigInt(row.amount!) });
      return updateTransferAt(
        tx,
        row.id,
        row.version,
        { raw: s.raw, hash: s.hash, hashes: [...row.hashes, s.hash], maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(), signedAt: now, sentAt: null, nextCheckAt: new Date(now.getTime() + this.timing.leaseMs) },
        now,
      );
    });
    if (!next) throw new Superseded();
    this.deps.logger.warn(this.log({ replaces: row.hash, hash: next.hash, why, maxFeePerGas: fees.maxFeePerGas.toString() }), 'payout replaced on its nonce with higher fees');
    this.row = next;
    this.replaced = true;
    await this.send();
  }

  private async rejected(err: TransactionRejectedError): Promise<void> {
    const { row } = this;
    switch (err.reason) {
      case 'nonce-too-low': {
        // One of our own hashes took the nonce (a replaced one landed)? Then that is this payout.
        const found = await this.landed();
        if (found) return this.included(found);
        const latest = await this.client.latestNonce(row.fromAddress as Hex);
        if (row.nonce !== null && latest > row.nonce) {
          // Another transaction of the treasury (sent by hand, say) used the nonce: this payout never happened, so it
          // is signed again on a fresh nonce (the allocator never goes below the node's).
          this.deps.logger.warn(this.log(), 'payout nonce taken by another transaction of the treasury; signed again on a new nonce');
          await this.write({ ...this.retired(), lastError: describe(err) });
          return;
        }
        return this.wait('REJECTED', describe(err));
      }
      case 'insufficient-funds':
        return this.wait('INSUFFICIENT_GAS', `treasury ${row.fromAddress} cannot pay the gas on ${row.blockchain}: ${describe(err)}`);
      case 'underpriced':
        if (!this.replaced) return this.replace('the node refused its fees');
        return this.wait('REJECTED', describe(err));
      case 'invalid':
        this.deps.logger.error(this.log({ reason: describe(err) }), 'payout refused by the node; it waits for a person');
        return this.wait('REJECTED', describe(err));
    }
  }
}

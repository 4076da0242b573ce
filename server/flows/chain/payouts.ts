// The on-chain legs of transactions on a configured chain: an on-ramp's payout, an off-ramp's stablecoin into the treasury
// and its refund, a transfer's move, each queued in the DB transaction of the step that reached it and moved on once confirmed.
import { AppError } from '../../domain/errors';
import type { ChainTransferKind } from '../../domain/chain/payout';
import type { Stablecoin } from '../../domain/money';
import { transactionExplorerUrl } from '../../domain/wallets';
import { type Db, inTransaction } from '../../store/db';
import { type ChainTransferRow, lockTransferAt, queueChainTransfer, transferOf, updateTransferAt } from '../../store/queries/chain-transfers';
import { partnerClockOffset } from '../../store/queries/partner-clocks';
import { lockTransaction, type TransactionRow } from '../../store/queries/transactions';
import { walletsOf } from '../../store/queries/wallets';
import type { TxDeps } from '../transactions/deps';
import { moveTo } from '../transactions/lifecycle';

type Leg = Exclude<ChainTransferKind, 'GAS'>;

/**
 * The on-chain leg `row` is at, on a configured chain: PAYOUT (an on-ramp at TRANSFERRING_STABLECOIN), OFFRAMP (an
 * off-ramp at TRANSFERRING_STABLECOIN), REFUND (an off-ramp at REFUNDING, whose stablecoin reached the treasury); else
 * undefined (the step is the ledger's alone).
 */
export async function chainLegOf(tx: Db, deps: Pick<TxDeps, 'chains'>, row: Pick<TransactionRow, 'id' | 'type' | 'status' | 'blockchain'>): Promise<Leg | undefined> {
  if (!deps.chains.get(row.blockchain)) return undefined;
  if (row.type === 'ON_RAMP' && row.status === 'TRANSFERRING_STABLECOIN') return 'PAYOUT';
  if (row.type === 'OFF_RAMP' && row.status === 'TRANSFERRING_STABLECOIN') return 'OFFRAMP';
  if (row.type === 'TRANSFER' && row.status === 'TRANSFERRING_STABLECOIN') return 'TRANSFER';
  // Refunded on the chain only when the stablecoin left the wallet; one that never left is the ledger's to give back.
  if (row.type === 'OFF_RAMP' && row.status === 'REFUNDING') return (await transferOf(tx, 'OFFRAMP', row.id))?.status === 'CONFIRMED' ? 'REFUND' : undefined;
  return undefined;
}

/**
 * Queues the leg `kind` of `row`, in the DB transaction of the step that found it: who pays whom, and how much (the
 * quote's final amount for a payout, its source amount for an off-ramp and its refund). The chain monitor signs, sends
 * and follows it; the transaction stays where it is until the transfer is confirmed.
 */
export async function queueLeg(tx: Db, deps: TxDeps, row: TransactionRow, kind: Leg): Promise<void> {
  const chain = deps.chains.get(row.blockchain)!;
  const q = row.quote as Record<string, string>;
  const coin = (kind === 'PAYOUT' ? q.targetCurrency : kind === 'TRANSFER' ? q.currency : q.sourceCurrency) as Stablecoin;
  const token = chain.settings.tokens[coin];
  // The chain's tokens changed since the transaction was made: parked (an AppError), for a person to configure it.
  if (!token) throw new AppError('BLOCKCHAIN_UNAVAILABLE', `${coin} is not configured on ${row.blockchain}: the ${kind.toLowerCase()} of ${row.id} waits`);
  const wallet = (await walletsOf(tx, row.partnerId, [row.customerId])).find((w) => w.blockchain === row.blockchain);
  if (!wallet) throw new AppError('INVALID_STATE', `the customer of ${row.id} has no ${row.blockchain} wallet`);
  const treasury = chain.treasury.address;
  let [fromAddress, toAddress] = kind === 'OFFRAMP' ? [wallet.address, treasury] : [treasury, wallet.address];
  let value = kind === 'PAYOUT' ? q.finalTargetAmount! : q.sourceAmount!;
  if (kind === 'TRANSFER') {
    // To an outside address or another partner's customer: the address given. To one of this partner's customers: their wallet.
    const to = q.address ?? (await walletsOf(tx, row.partnerId, [q.customerId!])).find((w) => w.blockchain === row.blockchain)?.address;
    if (!to) throw new AppError('INVALID_STATE', `the destination of ${row.id} has no ${row.blockchain} wallet`);
    [fromAddress, toAddress, value] = [wallet.address, to, q.amount!];
  }
  await queueChainTransfer(
    tx,
    { partnerId: row.partnerId, customerId: row.customerId, blockchain: chain.settings.blockchain, kind, transactionId: row.id, asset: coin, token, fromAddress, toAddress, value },
    new Date(),
  );
}

/** What a confirmed leg moves its transaction to (GAS moves nothing). */
const NEXT: Record<Leg, { type: TransactionRow['type']; from: TransactionRow['status']; to: TransactionRow['status'] }> = {
  PAYOUT: { type: 'ON_RAMP', from: 'TRANSFERRING_STABLECOIN', to: 'SUCCESS' },
  OFFRAMP: { type: 'OFF_RAMP', from: 'TRANSFERRING_STABLECOIN', to: 'TRADING' },
  REFUND: { type: 'OFF_RAMP', from: 'REFUNDING', to: 'REFUNDED' },
  TRANSFER: { type: 'TRANSFER', from: 'TRANSFERRING_STABLECOIN', to: 'SUCCESS' },
};

/**
 * A confirmed transfer: CONFIRMED, and its transaction moved on (an on-ramp to SUCCESS with the receipt of the hash that
 * landed, an off-ramp to TRADING, a refund to REFUNDED), in one DB transaction. Nothing happens if another process got
 * there first.
 */
export async function confirmTransfer(db: Db, deps: TxDeps, t: ChainTransferRow, hash: string): Promise<ChainTransferRow | undefined> {
  return inTransaction(db, async (tx) => {
    if (!(await lockTransferAt(tx, t.id, t.version))) return undefined;
    const now = new Date();
    const done = await updateTransferAt(tx, t.id, t.version, { status: 'CONFIRMED', hash, confirmedAt: now, failures: 0, waitReason: null, lastError: null }, now);
    if (t.kind === 'GAS') return done;
    const next = NEXT[t.kind];
    const row = await lockTransaction(tx, t.partnerId, t.transactionId);
    if (row?.type === next.type && row.status === next.from) {
      const receipt = t.kind === 'REFUND' ? row.receipt : { transactionHash: hash, blockExplorerUrl: transactionExplorerUrl(row.blockchain, hash, deps.config.sandbox) };
      // On the partner's clock, as the job that would have moved it runs.
      const offset = await partnerClockOffset(tx, row.partnerId);
      await deps.clock.within(offset, () => moveTo(tx, deps, { ...row, receipt }, next.to));
    }
    return done;
  });
}

/** Refuses to fail a transaction whose stablecoin is moving on a chain right now (it may land): it completes first. */
export async function assertNoLegInFlight(tx: Db, row: Pick<TransactionRow, 'id' | 'type'>): Promise<void> {
  if (row.type === 'ON_RAMP') return;
  const leg = await transferOf(tx, row.type === 'OFF_RAMP' ? 'OFFRAMP' : 'TRANSFER', row.id);
  if (leg && leg.status !== 'CONFIRMED') throw new AppError('INVALID_STATE', 'The stablecoin of this transaction is moving on the chain; it can fail once it has arrived.');
}

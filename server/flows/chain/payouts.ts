// On-ramp payouts on a configured chain: queued when the on-ramp reaches TRANSFERRING_STABLECOIN, and counted (SUCCESS) once confirmed.
import type { Stablecoin } from '../../domain/money';
import { AppError } from '../../domain/errors';
import { transactionExplorerUrl } from '../../domain/wallets';
import type { Db } from '../../store/db';
import { type ChainTransferRow, lockTransferAt, queueChainTransfer, updateTransferAt } from '../../store/queries/chain-transfers';
import { partnerClockOffset } from '../../store/queries/partner-clocks';
import { lockTransaction, type TransactionRow } from '../../store/queries/transactions';
import { walletsOf } from '../../store/queries/wallets';
import type { TxDeps } from '../transactions/deps';
import { moveTo } from '../transactions/lifecycle';

/** Whether `row`'s stablecoin leg is paid on a node rather than by the settlement provider. */
export const paysOnChain = (deps: Pick<TxDeps, 'chains'>, row: Pick<TransactionRow, 'type' | 'status' | 'blockchain'>): boolean =>
  row.type === 'ON_RAMP' && row.status === 'TRANSFERRING_STABLECOIN' && deps.chains.get(row.blockchain) !== undefined;

/**
 * Queues the payout of an on-ramp at TRANSFERRING_STABLECOIN, in the DB transaction of the step that found it there: the
 * treasury owes the customer's wallet the quote's final amount. The chain monitor signs, sends and follows it; the
 * on-ramp stays where it is until the transfer is confirmed.
 */
export async function queuePayout(tx: Db, deps: TxDeps, row: TransactionRow): Promise<void> {
  const chain = deps.chains.get(row.blockchain)!;
  const q = row.quote as Record<string, string>;
  const coin = q.targetCurrency as Stablecoin;
  const token = chain.settings.tokens[coin];
  // The chain's tokens changed since the on-ramp was made: parked (an AppError), for a person to configure it.
  if (!token) throw new AppError('BLOCKCHAIN_UNAVAILABLE', `${coin} is not configured on ${row.blockchain}: the payout of ${row.id} waits`);
  const wallet = (await walletsOf(tx, row.partnerId, [row.customerId])).find((w) => w.blockchain === row.blockchain);
  if (!wallet) throw new AppError('INVALID_STATE', `the customer of ${row.id} has no ${row.blockchain} wallet`);
  await queueChainTransfer(
    tx,
    {
      partnerId: row.partnerId,
      blockchain: chain.settings.blockchain,
      kind: 'PAYOUT',
      transactionId: row.id,
      asset: coin,
      token,
      fromAddress: chain.treasury.address,
      toAddress: wallet.address,
      value: q.finalTargetAmount!,
    },
    new Date(),
  );
}

/**
 * A confirmed payout: the transfer is CONFIRMED and its on-ramp moves to SUCCESS (crediting the ledger, with the receipt
 * of the hash that landed) in one DB transaction. Nothing happens if another process got there first.
 */
export async function confirmPayout(db: Db, deps: TxDeps, t: ChainTransferRow, hash: string): Promise<ChainTransferRow | undefined> {
  return db.transaction(async (tx) => {
    if (!(await lockTransferAt(tx, t.id, t.version))) return undefined;
    const now = new Date();
    const done = await updateTransferAt(tx, t.id, t.version, { status: 'CONFIRMED', hash, confirmedAt: now, failures: 0, waitReason: null, lastError: null }, now);
    const row = await lockTransaction(tx, t.partnerId, t.transactionId);
    if (row?.type === 'ON_RAMP' && row.status === 'TRANSFERRING_STABLECOIN') {
      const receipt = { transactionHash: hash, blockExplorerUrl: transactionExplorerUrl(row.blockchain, hash, deps.config.sandbox) };
      // On the partner's clock, as the job that would have moved it runs.
      const offset = await partnerClockOffset(tx, row.partnerId);
      await deps.clock.within(offset, () => moveTo(tx, deps, { ...row, receipt }, 'SUCCESS'));
    }
    return done;
  });
}

// The rails, through the SettlementProvider port: how an on-ramp is paid in, the chain receipt of a transfer of stablecoin,
// and when each next step (and expiry, and sandbox autopay) is due.
import type { TransactionRow } from '../../store/queries/transactions';
import type { Db } from '../../store/db';
import { enqueueJob } from '../../store/queries/jobs';
import type { TxDeps } from './deps';

export const TX_STEP_JOB = 'transaction.step';
export const TX_EXPIRE_JOB = 'transaction.expire';
export const TX_PAY_JOB = 'transaction.pay';

/** How long a PIX BR Code (or a bank-transfer instruction) can be paid. */
export const PAYMENT_WINDOW_SECONDS = 15 * 60;

/** The next step of `row` from its current status, after the provider's delay for it. */
export async function scheduleStep(tx: Db, deps: TxDeps, row: TransactionRow) {
  const delayMs = deps.settlement.stepDelayMs(row.type, row.status);
  await enqueueJob(tx, { partnerId: row.partnerId, kind: TX_STEP_JOB, payload: { transactionId: row.id, from: row.status }, runAt: new Date(deps.clock.now().getTime() + delayMs) });
}

/** An unpaid on-ramp fails when its window closes; in sandbox with autopay, it is paid by itself first. */
/** The jobs of an on-ramp's deadlines: expiry, and in sandbox with autopay, the payment. */
export function onRampDeadlines(deps: TxDeps, row: Pick<TransactionRow, 'id' | 'partnerId'>, expiresAt: Date) {
  return [
    { partnerId: row.partnerId, kind: TX_EXPIRE_JOB, payload: { transactionId: row.id }, runAt: expiresAt },
    ...(deps.config.sandbox && deps.settlement.autopayAfterMs > 0
      ? [{ partnerId: row.partnerId, kind: TX_PAY_JOB, payload: { transactionId: row.id }, runAt: new Date(deps.clock.now().getTime() + deps.settlement.autopayAfterMs) }]
      : []),
  ];
}

/** The receipt a status that moved stablecoin carries: kept once made (a retry shows the same hash). */
export function chainReceipt(deps: TxDeps, row: TransactionRow): { transactionHash: string; blockExplorerUrl: string } {
  const existing = row.receipt as { transactionHash?: string; blockExplorerUrl?: string } | null;
  if (existing?.transactionHash && existing.blockExplorerUrl) return { transactionHash: existing.transactionHash, blockExplorerUrl: existing.blockExplorerUrl };
  return deps.settlement.chainTransfer({ blockchain: row.blockchain, reference: row.id });
}

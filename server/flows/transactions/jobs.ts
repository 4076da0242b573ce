// Job handlers: the scheduled steps, expiries and sandbox autopay of transactions.
import { AppError } from '../../domain/errors';
import { nextStatus } from '../../domain/transactions';
import type { Db } from '../../store/db';
import { lockTransaction } from '../../store/queries/transactions';
import { chainLegOf, queueLeg } from '../chain/payouts';
import type { TxDeps } from './deps';
import { isPspPayout, queueOffRampPayout } from '../pix/payouts';
import { moveTo, payOnRamp } from './lifecycle';

/** Job: the next status on the happy path, if the transaction is still where the job found it. */
export async function stepJob(tx: Db, deps: TxDeps, job: { partnerId: string; payload: Record<string, unknown> }): Promise<void> {
  const row = await lockTransaction(tx, job.partnerId, String(job.payload.transactionId));
  if (!row || row.status !== job.payload.from) return;
  // On a configured chain the stablecoin leg is a real transfer: queued here, moved on by the chain monitor once confirmed.
  const leg = await chainLegOf(tx, deps, row);
  if (leg) return queueLeg(tx, deps, row, leg);
  // A PIX payout through the PSP: queued here (its idEnvio derived from the transaction), moved on by the PIX monitor.
  // Wall time, not the partner's sandbox clock: the monitor and the PSP live on the wall clock.
  if (isPspPayout(deps, row)) return queueOffRampPayout(tx, row, new Date());
  const to = nextStatus(row.type, row.status);
  if (to) await moveTo(tx, deps, row, to);
}

/** Job: an on-ramp still unpaid when its window closes fails with EXPIRED. */
export async function expireJob(tx: Db, deps: TxDeps, job: { partnerId: string; payload: Record<string, unknown> }): Promise<void> {
  const row = await lockTransaction(tx, job.partnerId, String(job.payload.transactionId));
  if (!row || row.status !== 'AWAITING_FUNDS') return;
  await moveTo(tx, deps, row, 'FAILED', { error: { code: 'EXPIRED', message: 'The payment window closed before the payment arrived.' } });
}

/** Job (sandbox autopay): pays an on-ramp as a payer would. */
export async function autopayJob(db: Db, deps: TxDeps, job: { partnerId: string; payload: Record<string, unknown> }): Promise<void> {
  await payOnRamp(db, deps, job.partnerId, String(job.payload.transactionId)).catch((err) => {
    if (!(err instanceof AppError)) throw err;
  });
}

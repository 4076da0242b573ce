// The life cycle after creation: each status change in its own DB transaction, with its ledger entries, receipt, estimate
// and event; the payer's payment and forced failures.
import type { AccountRail } from '../../domain/bank-accounts';
import { AppError } from '../../domain/errors';
import { failureStatus, eventType, isFinal, settlementEstimate, type TxStatus } from '../../domain/transactions';
import { type Db, inTransaction } from '../../store/db';
import type { Rider } from '../../store/reusable';
import { eventInsert, insertEvent, type NewEvent } from '../../store/queries/events';
import { postMovement } from '../../store/queries/ledger';
import { releaseReservation } from '../../store/queries/limits';
import { lockTransaction, type TransactionRow, updateTransaction } from '../../store/queries/transactions';
import type { TxDeps } from './deps';
import { interpartnerCredit, settlementEntries } from './ledger';
import { presentTransaction } from '../../presenters';
import { chainReceipt, scheduleStep } from './rails';
import { assertNoLegInFlight } from '../chain/payouts';

/** The event of a transaction's current status, written in the DB transaction of the change. */
const eventOf = (row: TransactionRow): NewEvent => ({ partnerId: row.partnerId, customerId: row.customerId, eventType: eventType(row.type, row.status), data: presentTransaction(row) });

/** Writes the event of `row`'s status. */
export async function record(tx: Db, deps: TxDeps, row: TransactionRow, now: Date) {
  await insertEvent(tx, eventOf(row), now);
}

/** `record` as a statement to send along the row's own insert (insertTransaction's riders), for a row not yet stored. */
export function recordRider(row: TransactionRow, now: Date): Rider {
  return eventInsert(eventOf(row), now);
}

/** Moves a locked transaction to `to`, with the ledger entries, receipt, estimate and event that status carries, and schedules what comes next. */
export async function moveTo(tx: Db, deps: TxDeps, row: TransactionRow, to: TxStatus, extra: Partial<TransactionRow> = {}): Promise<TransactionRow> {
  const now = deps.clock.now();
  const entries = settlementEntries(row, to);
  const credit = interpartnerCredit(row, to);
  const movements = [
    ...(entries.length ? [{ partnerId: row.partnerId, kind: `${row.type.toLowerCase()}.${to.toLowerCase()}`, entries }] : []),
    ...(credit ? [{ partnerId: credit.partnerId, kind: 'transfer.received', entries: credit.entries }] : []),
  ];
  // Ledgers in partner order: transfers between two partners in opposite directions lock their balance rows in one order, never a cycle.
  movements.sort((a, b) => a.partnerId.localeCompare(b.partnerId));
  for (const m of movements) await postMovement(tx, { ...m, reference: row.id }, now);
  const set: Partial<TransactionRow> = { status: to, updatedAt: now, ...extra };
  const q = row.quote as Record<string, string>;
  if (to === 'SUCCESS' || (row.type === 'OFF_RAMP' && to === 'TRADING')) {
    const targetAmount = row.type === 'ON_RAMP' ? q.finalTargetAmount : row.type === 'OFF_RAMP' ? q.finalTargetAmount : q.amount;
    set.receipt = { ...chainReceipt(deps, row), ...(to === 'SUCCESS' ? { targetAmount } : {}) };
  }
  if (row.type === 'OFF_RAMP' && to === 'TRANSFERRING_FIAT') {
    const payment = row.payment as { rail: AccountRail };
    set.estimatedSettlementAt = settlementEstimate(payment.rail, row.amountUsd, now);
  }
  if (to === 'FAILED' || to === 'REFUNDED') await releaseReservation(tx, row.partnerId, row.id, now);
  const moved = await updateTransaction(tx, row.id, set);
  await record(tx, deps, moved, now);
  // An on-ramp REFUNDING returns a Pix through the PSP: REFUNDED comes when the PSP says the devolução settled, not on a timer.
  if (!isFinal(to) && to !== 'AWAITING_FUNDS' && !(row.type === 'ON_RAMP' && to === 'REFUNDING')) await scheduleStep(tx, deps, moved);
  return moved;
}

export async function locked(tx: Db, partnerId: string, id: string): Promise<TransactionRow> {
  const row = await lockTransaction(tx, partnerId, id);
  if (!row) throw new AppError('NOT_FOUND', 'Transaction not found');
  return row;
}

/** The payer paid (sandbox: /pay, or the autopay job). Only an on-ramp awaiting funds, within its payment window. */
export async function payOnRamp(db: Db, deps: TxDeps, partnerId: string, id: string): Promise<TransactionRow> {
  return inTransaction(db, async (tx) => {
    const row = await locked(tx, partnerId, id);
    if (row.type !== 'ON_RAMP' || row.status !== 'AWAITING_FUNDS') {
      throw new AppError('INVALID_STATE', `Only an on-ramp AWAITING_FUNDS can be paid; this one is ${row.type} ${row.status}.`);
    }
    if (deps.pix && (row.payment as { rail?: string } | null)?.rail === 'PIX') {
      // A real PSP is configured: only a Pix it confirms pays a PIX on-ramp, in sandbox too.
      throw new AppError('CONFLICT', 'PIX goes through the configured PSP (RAMP_PIX_PSP_URL): this on-ramp is paid only by a real Pix to its BR Code, which the PSP confirms. The sandbox cannot fake it.');
    }
    const expiresAt = Date.parse(String((row.payment as { expiresAt?: string }).expiresAt));
    if (deps.clock.now().getTime() >= expiresAt) throw new AppError('INVALID_STATE', 'The payment window of this on-ramp has closed.');
    return moveTo(tx, deps, row, 'TRANSFERRING_FIAT');
  });
}

/** A failure (sandbox: /fail): an off-ramp is refunded, anything else fails; the limit reservation is released. */
export async function failTransaction(db: Db, deps: TxDeps, partnerId: string, id: string, error: { code: string; message: string }): Promise<TransactionRow> {
  return inTransaction(db, async (tx) => {
    const row = await locked(tx, partnerId, id);
    if (isFinal(row.status) || row.status === 'REFUNDING') throw new AppError('INVALID_STATE', `This transaction is already ${row.status}.`);
    if (row.type === 'ON_RAMP' && row.status !== 'AWAITING_FUNDS' && row.status !== 'TRANSFERRING_FIAT') {
      // The fiat is in and the trade ran: an on-ramp this far along is completed, not failed.
      throw new AppError('INVALID_STATE', `An on-ramp can fail while AWAITING_FUNDS or TRANSFERRING_FIAT, not ${row.status}.`);
    }
    await assertNoLegInFlight(tx, row);
    if (deps.pix && row.type === 'OFF_RAMP' && row.status === 'TRANSFERRING_FIAT' && (row.payment as { rail?: string } | null)?.rail === 'PIX') {
      throw new AppError('CONFLICT', 'This payout goes through the configured PSP (RAMP_PIX_PSP_URL): only its outcome (NAO_REALIZADO) fails it. The sandbox cannot fake it.');
    }
    return moveTo(tx, deps, row, failureStatus(row.type), { error });
  });
}

// PIX on-ramps through the PSP: the charge (`cob`) an on-ramp is paid with, each received Pix confirmed with the PSP before
// anything moves (a callback is only a hint), the poller's check of an open charge, refunds of money that cannot pay its
// on-ramp, and the removal of charges that closed unpaid. Every PSP call happens outside a DB transaction, except the
// creation of the charge, which the on-ramp's own transaction waits for (see createOnRamp).
import { Decimal } from 'decimal.js';
import { AppError } from '../../domain/errors';
import { type PixPsp, type PixCharge, PspRefusedError, PspUnavailableError, type ReceivedPix, type RefundStatus, refundIdOf, E2EID } from '../../domain/pix/pix-psp';
import type { Deps } from '../../deps';
import { getTransaction, lockTransaction, updateTransaction } from '../../store/queries/transactions';
import { chargeOf, insertReceipt, openRefunds, type PixChargeRow, type PixReceiptRow, receiptsOf, updateCharge, updateReceipt } from '../../store/queries/pix';
import { moveTo } from '../transactions/lifecycle';
import { crashPoint } from './crash';
import { inTransaction } from '../../store/db';

type PixDeps = Pick<Deps, 'store' | 'logger' | 'clock' | 'config' | 'rates' | 'settlement' | 'chains'> & { pix: PixPsp };

/** An error's first line, without any URL. */
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/\bhttps?:\/\/\S+/g, '<psp>').slice(0, 300);

/** What a request is answered when the PSP cannot be reached: 503 with Retry-After, nothing created. */
export const pspUnavailable = (err: unknown) => new AppError('PSP_UNAVAILABLE', `The PIX provider could not be reached (${describe(err)}). Nothing was created; retry after a few seconds, with the same Idempotency-Key.`);

/** How old a charge of the same txid may be to be taken as this request's own, created by a try that died before its commit. */
const FOUND_AGAIN_MS = 60_000;

/**
 * Creates the charge an on-ramp is paid with, under `req.txid`; a PSP that cannot be reached is PSP_UNAVAILABLE, a refusal
 * INTERNAL (our request was wrong). When the PSP already has that txid (a try of the same Idempotency-Key died between
 * the PSP's answer and our commit, which rolled back everything else), that charge is found again and used, if it is
 * open, for the same amount and key, and fresh; otherwise a new one is made under `fallbackTxid`.
 */
export async function createCharge(psp: PixPsp, req: Parameters<PixPsp['createCharge']>[0], fallbackTxid: string = req.txid): Promise<PixCharge> {
  try {
    try {
      return withBrCode(await psp.createCharge(req));
    } catch (err) {
      if (!(err instanceof PspRefusedError) || err.status !== 400) throw err;
      const existing = await psp.getCharge(req.txid);
      if (!existing) throw err;
      const fresh = Date.now() - Date.parse(existing.criacao) < FOUND_AGAIN_MS;
      if (existing.status === 'ATIVA' && fresh && new Decimal(existing.valor).eq(req.valor) && existing.pixCopiaECola) return existing;
      if (fallbackTxid === req.txid) throw err;
      return withBrCode(await psp.createCharge({ ...req, txid: fallbackTxid }));
    }
  } catch (err) {
    if (err instanceof PspUnavailableError) throw pspUnavailable(err);
    throw err;
  }
}

function withBrCode(charge: PixCharge): PixCharge {
  if (!charge.pixCopiaECola) throw new PspRefusedError(502, `PUT /cob/${charge.txid}: the PSP answered without pixCopiaECola`);
  return charge;
}

export type ConfirmOutcome = 'credited' | 'refund' | 'seen' | 'unknown' | 'not-ours';

/**
 * A Pix the PSP says it received: read back from the PSP (never taken from a callback's body), matched to its charge by
 * txid, recorded once, and then either it pays its on-ramp (exactly the amount due, within the window, the on-ramp still
 * awaiting funds) or it is to be returned in full. A Pix seen before does nothing more.
 */
export async function confirmPix(deps: PixDeps, e2eid: string, known?: ReceivedPix): Promise<ConfirmOutcome> {
  if (!E2EID.test(e2eid)) return 'unknown';
  const pix = known ?? (await deps.pix.getPix(e2eid));
  if (!pix || pix.endToEndId !== e2eid) return 'unknown';
  if (!pix.txid) return 'not-ours';
  const charge = await chargeOf(deps.store.db, pix.txid);
  if (!charge) return 'not-ours';
  crashPoint(deps, 'after-pix-read');
  const now = new Date();
  return inTransaction(deps.store.db, async (tx) => {
    const row = await lockTransaction(tx, charge.partnerId, charge.transactionId);
    if (!row) return 'not-ours';
    const inTime = Date.parse(pix.horario) < charge.expiresAt.getTime();
    const exact = new Decimal(pix.valor).eq(charge.valor);
    const credit = row.status === 'AWAITING_FUNDS' && exact && inTime;
    const reason: string | null = credit ? null : !inTime ? 'arrived after the payment window closed' : !exact ? `paid ${pix.valor}, ${charge.valor} was due` : `the on-ramp is ${row.status}`;
    const receipt = await insertReceipt(
      tx,
      { e2eid, partnerId: row.partnerId, transactionId: row.id, txid: charge.txid, valor: pix.valor, outcome: credit ? 'CREDITED' : 'REFUND', reason, refundId: credit ? null : refundIdOf(e2eid), refundStatus: null, receivedAt: new Date(pix.horario) },
      now,
    );
    if (!receipt) return 'seen';
    if (!credit) {
      deps.logger.warn({ transactionId: row.id, e2eid, valor: pix.valor, reason }, 'Pix received that cannot pay its on-ramp: returned in full');
      // An on-ramp that was waiting (or had closed unpaid) shows the return; one this Pix came too late for, after another
      // paid it, keeps its course: the extra money is returned all the same.
      if (row.status === 'AWAITING_FUNDS' || row.status === 'FAILED') {
        await moveTo(tx, deps, row, 'REFUNDING', { error: refundError(pix.valor, reason!, refundIdOf(e2eid), 'NOT_YET_ASKED') });
      }
      return 'refund';
    }
    await moveTo(tx, deps, row, 'TRANSFERRING_FIAT');
    await updateCharge(tx, charge.txid, { status: 'PAID' }, now);
    deps.logger.info({ transactionId: row.id, e2eid, valor: pix.valor }, 'Pix confirmed with the PSP; on-ramp paid');
    return 'credited';
  });
}

/** The pause before the `checks`-th check of an open charge: from the poll interval, doubling, at most 30 s. */
export function chargeBackoffMs(checks: number, pollMs: number): number {
  return Math.min(30_000, pollMs * 2 ** Math.min(checks, 10));
}

/**
 * One check of a claimed charge: an open one is read back and each Pix it shows confirmed; one whose on-ramp closed
 * unpaid is removed at the PSP (PATCH status REMOVIDA_PELO_USUARIO_RECEBEDOR). A PSP that cannot be reached leaves it
 * for a later check.
 */
export async function checkCharge(deps: PixDeps, row: PixChargeRow): Promise<void> {
  const now = new Date();
  const next = (checks: number) => new Date(now.getTime() + chargeBackoffMs(checks, deps.config.pix?.pollMs ?? 5000));
  try {
    const charge = await deps.pix.getCharge(row.txid);
    for (const pix of charge?.pix ?? []) await confirmPix(deps, pix.endToEndId, pix.txid ? pix : { ...pix, txid: row.txid });
    const status = (await getTransaction(deps.store.db, row.partnerId, row.transactionId))?.status;
    if (charge && charge.status === 'ATIVA' && status && status !== 'AWAITING_FUNDS') {
      // Paid (its Pix recorded) or closed unpaid: the charge must not take more money.
      await deps.pix.removeCharge(row.txid);
      await updateCharge(deps.store.db, row.txid, { status: 'CLOSED', lastError: null }, now);
      deps.logger.info({ transactionId: row.transactionId, txid: row.txid, status }, 'charge removed at the PSP');
      return;
    }
    if (!charge || charge.status !== 'ATIVA') {
      await updateCharge(deps.store.db, row.txid, { status: 'CLOSED', lastError: null }, now);
      return;
    }
    await updateCharge(deps.store.db, row.txid, { checks: row.checks + 1, nextCheckAt: next(row.checks + 1), lastError: null }, now);
  } catch (err) {
    deps.logger.warn({ txid: row.txid, transactionId: row.transactionId, reason: describe(err) }, 'charge check failed; retried after a pause');
    await updateCharge(deps.store.db, row.txid, { checks: row.checks + 1, nextCheckAt: next(row.checks + 1), lastError: describe(err) }, now).catch(() => undefined);
  }
}

/** Refunds to ask for or follow: asked with the derived id (a retry is the same devolução), then read back until settled. */
export async function followRefunds(deps: PixDeps, limit = 20): Promise<number> {
  const rows = await openRefunds(deps.store.db, limit);
  for (const r of rows) {
    try {
      const refund = r.refundStatus ? await deps.pix.getRefund(r.e2eid, r.refundId!) : null;
      const asked = refund ?? (await deps.pix.refund({ e2eid: r.e2eid, id: r.refundId!, valor: r.valor, descricao: `Ramp: ${r.reason ?? 'returned'}`.slice(0, 140) }));
      if (!refund) crashPoint(deps, 'after-refund-asked');
      if (asked.status !== r.refundStatus) await refundMoved(deps, r, asked.status);
    } catch (err) {
      deps.logger.warn({ e2eid: r.e2eid, reason: describe(err) }, 'refund not asked or read; retried on the next pass');
    }
  }
  return rows.length;
}

/** What an on-ramp REFUNDING (or REFUNDED) shows: the Pix returned, why, and the devolução's status at the PSP. */
const refundError = (valor: string, reason: string, refundId: string, status: string) => ({
  code: 'PAYMENT_RETURNED',
  message: `A Pix of BRL ${valor} could not pay this on-ramp (${reason}); it is returned in full to the payer (devolução ${refundId}: ${status}).`,
});

/**
 * A refund's status changed at the PSP: recorded on the receipt, and shown on its on-ramp; the on-ramp is REFUNDED once
 * every Pix it returns is DEVOLVIDO. One DB transaction.
 */
async function refundMoved(deps: PixDeps, r: PixReceiptRow, status: RefundStatus): Promise<void> {
  const now = new Date();
  await inTransaction(deps.store.db, async (tx) => {
    await updateReceipt(tx, r.e2eid, { refundStatus: status }, now);
    deps.logger.info({ e2eid: r.e2eid, refundId: r.refundId, status }, 'refund of a received Pix');
    if (!r.transactionId) return;
    const row = await lockTransaction(tx, r.partnerId, r.transactionId);
    if (!row || row.status !== 'REFUNDING') return;
    const error = refundError(r.valor, r.reason ?? 'returned', r.refundId!, status);
    const all = await receiptsOf(tx, row.id);
    const done = all.filter((x) => x.outcome === 'REFUND').every((x) => (x.e2eid === r.e2eid ? status : x.refundStatus) === 'DEVOLVIDO');
    if (done) await moveTo(tx, deps, row, 'REFUNDED', { error });
    else await updateTransaction(tx, row.id, { error, updatedAt: now });
  });
}

// `ops reconcile`, the PIX part: the Pix the PSP received (GET /pix?inicio&fim) and the payouts it made (Efí's list of
// Pix sent) against the books, over a window. Each difference is a discrepancy naming the end-to-end id: a Pix that
// matches no on-ramp, one the books have not recorded, an amount that differs, a payout the PSP has and we don't, a
// payout whose outcome differs; and what the books have that the PSP does not.
import { Decimal } from 'decimal.js';
import type { PixPsp } from '../../domain/pix/pix-psp';
import type { Db } from '../../store/db';
import { allPayouts, allReceipts, chargeOf } from '../../store/queries/pix';

export type PixDiscrepancyKind =
  | 'PIX_MATCHES_NO_ONRAMP'
  | 'PIX_NOT_RECORDED'
  | 'PIX_AMOUNT_DIFFERS'
  | 'PIX_MISSING_AT_PSP'
  | 'PAYOUT_NOT_OURS'
  | 'PAYOUT_AMOUNT_DIFFERS'
  | 'PAYOUT_STATUS_DIFFERS'
  | 'PAYOUT_MISSING_AT_PSP';

export interface PixDiscrepancy {
  rail: 'PIX';
  kind: PixDiscrepancyKind;
  /** The Pix's end-to-end id (a payout's, once the PSP gave it one). */
  e2eid: string | null;
  txid?: string;
  idEnvio?: string;
  transactionId?: string;
  partnerId?: string;
  /** What the books say, and what the PSP says (an amount or a status). */
  books: string | null;
  psp: string | null;
}

export interface PixReconcile {
  checked: number;
  discrepancies: PixDiscrepancy[];
}

/** Our payout statuses as the PSP would say them. */
const pspStatusOf = (s: string) => (s === 'SENT' ? 'EM_PROCESSAMENTO' : s);

export async function reconcilePix(db: Db, psp: PixPsp, window: { inicio: Date; fim: Date }): Promise<PixReconcile> {
  const out: PixDiscrepancy[] = [];
  const within = (d: Date) => d >= window.inicio && d <= window.fim;
  const [received, sent, receipts, payouts] = await Promise.all([psp.listReceived(window), psp.listPayouts(window), allReceipts(db), allPayouts(db)]);

  const receiptBy = new Map(receipts.map((r) => [r.e2eid, r]));
  for (const pix of received) {
    const r = receiptBy.get(pix.endToEndId);
    if (r) {
      if (!new Decimal(r.valor).eq(pix.valor)) out.push({ rail: 'PIX', kind: 'PIX_AMOUNT_DIFFERS', e2eid: pix.endToEndId, txid: pix.txid, transactionId: r.transactionId ?? undefined, partnerId: r.partnerId, books: r.valor, psp: pix.valor });
      continue;
    }
    const charge = pix.txid ? await chargeOf(db, pix.txid) : undefined;
    if (!charge) out.push({ rail: 'PIX', kind: 'PIX_MATCHES_NO_ONRAMP', e2eid: pix.endToEndId, ...(pix.txid ? { txid: pix.txid } : {}), books: null, psp: pix.valor });
    else out.push({ rail: 'PIX', kind: 'PIX_NOT_RECORDED', e2eid: pix.endToEndId, txid: pix.txid, transactionId: charge.transactionId, partnerId: charge.partnerId, books: null, psp: pix.valor });
  }
  const seen = new Set(received.map((p) => p.endToEndId));
  for (const r of receipts) {
    if (within(r.receivedAt) && !seen.has(r.e2eid)) out.push({ rail: 'PIX', kind: 'PIX_MISSING_AT_PSP', e2eid: r.e2eid, txid: r.txid ?? undefined, transactionId: r.transactionId ?? undefined, partnerId: r.partnerId, books: r.valor, psp: null });
  }

  const payoutBy = new Map(payouts.map((p) => [p.idEnvio, p]));
  for (const s of sent) {
    const ours = payoutBy.get(s.idEnvio);
    if (!ours) {
      out.push({ rail: 'PIX', kind: 'PAYOUT_NOT_OURS', e2eid: s.e2eId ?? null, idEnvio: s.idEnvio, books: null, psp: `${s.valor} ${s.status}` });
      continue;
    }
    const base = { rail: 'PIX' as const, e2eid: s.e2eId ?? ours.e2eId, idEnvio: s.idEnvio, transactionId: ours.transactionId, partnerId: ours.partnerId };
    if (!new Decimal(ours.valor).eq(s.valor)) out.push({ ...base, kind: 'PAYOUT_AMOUNT_DIFFERS', books: ours.valor, psp: s.valor });
    else if (pspStatusOf(ours.status) !== s.status) out.push({ ...base, kind: 'PAYOUT_STATUS_DIFFERS', books: pspStatusOf(ours.status), psp: s.status });
  }
  const sentIds = new Set(sent.map((s) => s.idEnvio));
  for (const p of payouts) {
    // QUEUED: not sent yet, the PSP cannot have it.
    if (p.status !== 'QUEUED' && within(p.createdAt) && !sentIds.has(p.idEnvio)) {
      out.push({ rail: 'PIX', kind: 'PAYOUT_MISSING_AT_PSP', e2eid: p.e2eId, idEnvio: p.idEnvio, transactionId: p.transactionId, partnerId: p.partnerId, books: `${p.valor} ${pspStatusOf(p.status)}`, psp: null });
    }
  }
  return { checked: received.length + sent.length, discrepancies: out };
}

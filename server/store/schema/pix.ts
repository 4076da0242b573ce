// PIX through a PSP: each on-ramp's charge (`cob`) as the poller follows it, and each Pix the PSP received for
// us, recorded once whoever saw it first (a callback, the poller, two processes), with what we did with it.
import { index, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, partnerId, updatedAt } from './columns';

export const PIX_CHARGE_STATUSES = ['OPEN', 'PAID', 'REMOVING', 'CLOSED'] as const;

export const pixCharges = pgTable(
  'pix_charges',
  {
    /** API Pix txid, derived from the transaction (txidOf). */
    txid: text('txid').primaryKey(),
    partnerId: partnerId(),
    transactionId: uuid('transaction_id').notNull().unique(),
    valor: numeric('valor', { precision: 14, scale: 2 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** OPEN: polled; PAID: its Pix was recorded; REMOVING: expired or failed unpaid, the PSP is asked to remove it; CLOSED: nothing more to do. */
    status: text('status', { enum: PIX_CHARGE_STATUSES }).notNull(),
    /** Checks so far: the pause before the next one grows with them (and a claim moves it past its lease). */
    checks: integer('checks').notNull().default(0),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('pix_charges_due_idx').on(t.status, t.nextCheckAt)],
);

export const PIX_RECEIPT_OUTCOMES = ['CREDITED', 'REFUND'] as const;

export const pixReceipts = pgTable(
  'pix_receipts',
  {
    /** The Pix's end-to-end id: a Pix is recorded once. */
    e2eid: text('e2eid').primaryKey(),
    partnerId: partnerId(),
    transactionId: uuid('transaction_id'),
    txid: text('txid'),
    valor: numeric('valor', { precision: 14, scale: 2 }).notNull(),
    /** CREDITED: it paid its on-ramp; REFUND: returned in full (late, extra, or for an on-ramp that cannot take it). */
    outcome: text('outcome', { enum: PIX_RECEIPT_OUTCOMES }).notNull(),
    reason: text('reason'),
    /** The devolução's id (derived, refundIdOf) and its status at the PSP. */
    refundId: text('refund_id'),
    refundStatus: text('refund_status'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('pix_receipts_transaction_idx').on(t.transactionId)],
);

export const PIX_PAYOUT_STATUSES = ['QUEUED', 'SENT', 'REALIZADO', 'NAO_REALIZADO'] as const;

/**
 * An off-ramp's payout (Efí envio de Pix), recorded with its derived idEnvio BEFORE the PSP is asked: a process that dies
 * after the PSP's answer finds it again by that id (GET …/id-envio/{idEnvio}) and never sends a second one.
 */
export const pixPayouts = pgTable(
  'pix_payouts',
  {
    idEnvio: text('id_envio').primaryKey(),
    partnerId: partnerId(),
    transactionId: uuid('transaction_id').notNull().unique(),
    valor: numeric('valor', { precision: 14, scale: 2 }).notNull(),
    favorecidoChave: text('favorecido_chave').notNull(),
    /** QUEUED: not known to the PSP yet; SENT: the PSP has it (EM_PROCESSAMENTO); REALIZADO / NAO_REALIZADO: its outcome. */
    status: text('status', { enum: PIX_PAYOUT_STATUSES }).notNull(),
    e2eId: text('e2e_id'),
    checks: integer('checks').notNull().default(0),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('pix_payouts_due_idx').on(t.status, t.nextCheckAt)],
);

// PIX charges and received Pix: the charge row that rides along its on-ramp's insert, the poller's claims (FOR UPDATE
// SKIP LOCKED, with a lease), and each received Pix recorded once.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db';
import type { Rider } from '../reusable';
import { rowsOf } from './idempotency';
import { pixCharges, pixPayouts, pixReceipts } from '../schema/index';

export type PixChargeRow = typeof pixCharges.$inferSelect;
export type PixReceiptRow = typeof pixReceipts.$inferSelect;
export type PixPayoutRow = typeof pixPayouts.$inferSelect;

/** The charge of a new on-ramp, inserted in the same statement as the transaction. */
export function pixChargeInsert(c: { txid: string; partnerId: string; transactionId: string; valor: string; expiresAt: Date }, now: Date): Rider {
  return { table: pixCharges, rows: [{ ...c, status: 'OPEN', checks: 0, nextCheckAt: now, createdAt: now, updatedAt: now }] };
}

/**
 * Claims up to `limit` rows of `table` in `statuses` whose next check is due: each one's next check moves `leaseMs` ahead
 * in the claiming statement, so another process (or this one's next pass) leaves it alone while this check runs; a
 * process that dies gives it back when the lease ends. Answers the claimed keys.
 */
async function claimDue(db: Db, table: typeof pixCharges | typeof pixPayouts, key: 'txid' | 'id_envio', statuses: string[], now: Date, leaseMs: number, limit: number): Promise<string[]> {
  const until = new Date(now.getTime() + leaseMs);
  const k = sql.identifier(key);
  const rows = await db.execute(sql`
    UPDATE ${table} SET next_check_at = ${until.toISOString()}, updated_at = ${now.toISOString()}
    WHERE ${k} IN (
      SELECT ${k} FROM ${table}
      WHERE status IN (${sql.join(statuses.map((st) => sql`${st}`), sql`, `)}) AND next_check_at <= ${now.toISOString()}
      ORDER BY next_check_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING ${k} AS key`);
  return rowsOf<{ key: string }>(rows).map((r) => r.key);
}

/** Claims the open charges (and those being removed) due for a check. */
export async function claimDueCharges(db: Db, now: Date, leaseMs: number, limit: number): Promise<PixChargeRow[]> {
  const txids = await claimDue(db, pixCharges, 'txid', ['OPEN', 'REMOVING'], now, leaseMs, limit);
  return txids.length ? db.select().from(pixCharges).where(inArray(pixCharges.txid, txids)) : [];
}

export async function updateCharge(db: Db, txid: string, set: Partial<typeof pixCharges.$inferInsert>, now: Date): Promise<void> {
  await db.update(pixCharges).set({ ...set, updatedAt: now }).where(eq(pixCharges.txid, txid));
}

export async function chargeOf(db: Db, txid: string): Promise<PixChargeRow | undefined> {
  const [row] = await db.select().from(pixCharges).where(eq(pixCharges.txid, txid));
  return row;
}

/** Records a received Pix; undefined when it was recorded before (it is then not acted on again). */
export async function insertReceipt(tx: Db, r: Omit<PixReceiptRow, 'createdAt' | 'updatedAt'>, now: Date): Promise<PixReceiptRow | undefined> {
  const [row] = await tx.insert(pixReceipts).values({ ...r, createdAt: now, updatedAt: now }).onConflictDoNothing({ target: pixReceipts.e2eid }).returning();
  return row;
}

export async function receiptOf(db: Db, e2eid: string): Promise<PixReceiptRow | undefined> {
  const [row] = await db.select().from(pixReceipts).where(eq(pixReceipts.e2eid, e2eid));
  return row;
}

export function receiptsOf(db: Db, transactionId: string): Promise<PixReceiptRow[]> {
  return db.select().from(pixReceipts).where(eq(pixReceipts.transactionId, transactionId));
}

/** Refunds asked for and not yet settled (the poller follows them). */
export function openRefunds(db: Db, limit: number): Promise<PixReceiptRow[]> {
  return db
    .select()
    .from(pixReceipts)
    .where(and(eq(pixReceipts.outcome, 'REFUND'), sql`coalesce(${pixReceipts.refundStatus}, '') NOT IN ('DEVOLVIDO', 'NAO_REALIZADO')`))
    .limit(limit);
}

export async function updateReceipt(db: Db, e2eid: string, set: Partial<typeof pixReceipts.$inferInsert>, now: Date): Promise<void> {
  await db.update(pixReceipts).set({ ...set, updatedAt: now }).where(eq(pixReceipts.e2eid, e2eid));
}

/** Queues an off-ramp's payout (once: a second step of the same transaction finds it queued). */
export async function queuePayout(tx: Db, p: { idEnvio: string; partnerId: string; transactionId: string; valor: string; favorecidoChave: string }, now: Date): Promise<void> {
  await tx.insert(pixPayouts).values({ ...p, status: 'QUEUED', checks: 0, nextCheckAt: now, createdAt: now, updatedAt: now }).onConflictDoNothing({ target: pixPayouts.idEnvio });
}

/** Claims the payouts queued or sent that are due for a check. */
export async function claimDuePayouts(db: Db, now: Date, leaseMs: number, limit: number): Promise<PixPayoutRow[]> {
  const ids = await claimDue(db, pixPayouts, 'id_envio', ['QUEUED', 'SENT'], now, leaseMs, limit);
  return ids.length ? db.select().from(pixPayouts).where(inArray(pixPayouts.idEnvio, ids)) : [];
}

export async function payoutOf(db: Db, idEnvio: string): Promise<PixPayoutRow | undefined> {
  const [row] = await db.select().from(pixPayouts).where(eq(pixPayouts.idEnvio, idEnvio));
  return row;
}

export async function updatePayout(db: Db, idEnvio: string, set: Partial<typeof pixPayouts.$inferInsert>, now: Date): Promise<void> {
  await db.update(pixPayouts).set({ ...set, updatedAt: now }).where(eq(pixPayouts.idEnvio, idEnvio));
}

/** Every payout and every received Pix (reconciliation). */
export const allPayouts = (db: Db): Promise<PixPayoutRow[]> => db.select().from(pixPayouts);
export const allReceipts = (db: Db): Promise<PixReceiptRow[]> => db.select().from(pixReceipts);

/** For /readyz: charges open, payouts in flight, and those whose last check failed (with the reason), a few of each. */
export async function pixWaits(db: Db, limit = 10) {
  const [charges, payouts, refunds] = await Promise.all([
    db.select({ txid: pixCharges.txid, transactionId: pixCharges.transactionId, lastError: pixCharges.lastError }).from(pixCharges).where(eq(pixCharges.status, 'OPEN')),
    db.select({ idEnvio: pixPayouts.idEnvio, transactionId: pixPayouts.transactionId, status: pixPayouts.status, lastError: pixPayouts.lastError }).from(pixPayouts).where(inArray(pixPayouts.status, ['QUEUED', 'SENT'])),
    openRefunds(db, 1000),
  ]);
  return {
    openCharges: charges.length,
    payoutsInFlight: payouts.length,
    refundsInFlight: refunds.length,
    waiting: [
      ...charges.filter((c) => c.lastError).map((c) => ({ txid: c.txid, transactionId: c.transactionId, reason: c.lastError!.slice(0, 300) })),
      ...payouts.filter((p) => p.lastError).map((p) => ({ idEnvio: p.idEnvio, transactionId: p.transactionId, status: p.status, reason: p.lastError!.slice(0, 300) })),
    ].slice(0, limit),
  };
}

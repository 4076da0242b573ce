// Document rows of a customer and its parties.
import { and, count, desc, eq, inArray, sql, sum } from 'drizzle-orm';
import type { Db } from '../db';
import { documents } from '../schema/index';

export type DocumentRow = typeof documents.$inferSelect;

export async function insertDocument(tx: Db, row: typeof documents.$inferInsert): Promise<DocumentRow> {
  const [inserted] = await tx.insert(documents).values(row).returning();
  return inserted!;
}

export function listDocuments(db: Db, partnerId: string, customerId: string): Promise<DocumentRow[]> {
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.partnerId, partnerId), eq(documents.customerId, customerId)))
    .orderBy(desc(documents.id));
}

export async function markDocuments(
  tx: Db,
  partnerId: string,
  customerId: string,
  ids: string[],
  set: { status: DocumentRow['status']; comment?: string | null; rejectLabels?: string[] | null },
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(documents)
    .set({ ...set, updatedAt: at })
    .where(and(eq(documents.partnerId, partnerId), eq(documents.customerId, customerId), inArray(documents.id, ids)));
}

/** The bytes of all a partner's documents (its quota; uploads in flight for other customers may pass it by their size). */
export async function partnerDocumentBytes(tx: Db, partnerId: string): Promise<number> {
  const [row] = await tx.select({ bytes: sum(documents.size) }).from(documents).where(eq(documents.partnerId, partnerId));
  return Number(row?.bytes ?? 0);
}

/** How many documents a customer has and their bytes, for the per-customer quota (read under the customer's row lock). */
export async function documentUsage(tx: Db, partnerId: string, customerId: string): Promise<{ documents: number; bytes: number }> {
  const [row] = await tx
    .select({ documents: count(), bytes: sum(documents.size) })
    .from(documents)
    .where(and(eq(documents.partnerId, partnerId), eq(documents.customerId, customerId)));
  return { documents: Number(row?.documents ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/**
 * Serialises everything that publishes or removes the file of one content hash, until the transaction ends: an upload holds it
 * from before its file is published until its document row commits, and the orphan sweep removes a file only while holding it.
 */
export async function lockFileHash(tx: Db, sha256: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`ramp-file:${sha256}`}, 0))`);
}

/** True when any document (of any partner) names this file. */
export async function isFileReferenced(tx: Db, sha256: string): Promise<boolean> {
  const rows = await tx.select({ id: documents.id }).from(documents).where(eq(documents.sha256, sha256)).limit(1);
  return rows.length > 0;
}

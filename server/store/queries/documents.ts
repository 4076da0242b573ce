// Document rows of a customer and its parties.
import { and, desc, eq, inArray } from 'drizzle-orm';
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

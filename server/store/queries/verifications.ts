// Verification rows: the reviews of a customer, newest first.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db';
import { verifications } from '../schema/index';

export type VerificationRow = typeof verifications.$inferSelect;

export async function insertVerification(tx: Db, row: typeof verifications.$inferInsert): Promise<VerificationRow> {
  const [inserted] = await tx.insert(verifications).values(row).returning();
  return inserted!;
}

export async function latestVerification(db: Db, partnerId: string, customerId: string): Promise<VerificationRow | undefined> {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.partnerId, partnerId), eq(verifications.customerId, customerId)))
    .orderBy(desc(verifications.id))
    .limit(1);
  return row;
}

/** The latest review's status reason of each of these customers of the partner, in one statement (a page of a list). */
export async function latestStatusReasons(db: Db, partnerId: string, customerIds: string[]): Promise<Map<string, VerificationRow['statusReason']>> {
  if (customerIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([verifications.customerId], { customerId: verifications.customerId, statusReason: verifications.statusReason })
    .from(verifications)
    .where(and(eq(verifications.partnerId, partnerId), inArray(verifications.customerId, customerIds)))
    .orderBy(verifications.customerId, desc(verifications.id));
  return new Map(rows.map((r) => [r.customerId, r.statusReason]));
}

export async function getVerification(db: Db, partnerId: string, customerId: string, id: string): Promise<VerificationRow | undefined> {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.partnerId, partnerId), eq(verifications.customerId, customerId), eq(verifications.id, id)));
  return row;
}

export function listVerifications(db: Db, partnerId: string, customerId: string): Promise<VerificationRow[]> {
  return db
    .select()
    .from(verifications)
    .where(and(eq(verifications.partnerId, partnerId), eq(verifications.customerId, customerId)))
    .orderBy(desc(verifications.id));
}

export async function updateVerification(tx: Db, id: string, set: Partial<typeof verifications.$inferInsert>): Promise<void> {
  await tx.update(verifications).set(set).where(eq(verifications.id, id));
}

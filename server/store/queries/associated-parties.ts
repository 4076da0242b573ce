// Associated-party rows of a business customer.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { associatedParties } from '../schema/index';

export type PartyRow = typeof associatedParties.$inferSelect;

export async function insertParty(tx: Db, row: typeof associatedParties.$inferInsert): Promise<PartyRow> {
  const [inserted] = await tx.insert(associatedParties).values(row).returning();
  return inserted!;
}

export function listParties(db: Db, partnerId: string, customerId: string): Promise<PartyRow[]> {
  return db
    .select()
    .from(associatedParties)
    .where(and(eq(associatedParties.partnerId, partnerId), eq(associatedParties.customerId, customerId)))
    .orderBy(asc(associatedParties.id));
}

export async function setPartiesStatus(tx: Db, partnerId: string, customerId: string, status: PartyRow['verificationStatus'], at: Date) {
  await tx
    .update(associatedParties)
    .set({ verificationStatus: status, updatedAt: at })
    .where(and(eq(associatedParties.partnerId, partnerId), eq(associatedParties.customerId, customerId)));
}

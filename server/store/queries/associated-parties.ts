// Associated-party rows of a business customer.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { associatedParties, documents } from '../schema/index';

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

export async function updateParty(tx: Db, partnerId: string, partyId: string, set: Partial<typeof associatedParties.$inferInsert>): Promise<PartyRow> {
  const [row] = await tx
    .update(associatedParties)
    .set(set)
    .where(and(eq(associatedParties.partnerId, partnerId), eq(associatedParties.id, partyId)))
    .returning();
  return row!;
}

/** Removes a party and the documents sent for it. */
export async function deleteParty(tx: Db, partnerId: string, partyId: string): Promise<void> {
  await tx.delete(documents).where(and(eq(documents.partnerId, partnerId), eq(documents.associatedPartyId, partyId)));
  await tx.delete(associatedParties).where(and(eq(associatedParties.partnerId, partnerId), eq(associatedParties.id, partyId)));
}

// Partner-fee rows.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { partnerFees } from '../schema/index';
import { paginate } from './paginate';

export type PartnerFeeRow = typeof partnerFees.$inferSelect;

export async function insertPartnerFee(db: Db, row: typeof partnerFees.$inferInsert): Promise<PartnerFeeRow> {
  const [inserted] = await db.insert(partnerFees).values(row).returning();
  return inserted!;
}

export async function getPartnerFee(db: Db, partnerId: string, id: string): Promise<PartnerFeeRow | undefined> {
  const [row] = await db
    .select()
    .from(partnerFees)
    .where(and(eq(partnerFees.partnerId, partnerId), eq(partnerFees.id, id)));
  return row;
}

export const listPartnerFees = (db: Db, partnerId: string, page: { size: number; cursor?: string }) =>
  paginate<PartnerFeeRow>(db, partnerFees, eq(partnerFees.partnerId, partnerId), page);

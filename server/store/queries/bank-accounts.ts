// Bank-account rows: create, read, list (newest first, by customer), soft-delete, and the holder's verification status.
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db';
import { bankAccounts } from '../schema/index';
import { paginate } from './paginate';

export type BankAccountRow = typeof bankAccounts.$inferSelect;

export async function insertBankAccount(tx: Db, row: typeof bankAccounts.$inferInsert): Promise<BankAccountRow> {
  const [inserted] = await tx.insert(bankAccounts).values(row).returning();
  return inserted!;
}

export async function getBankAccount(db: Db, partnerId: string, id: string): Promise<BankAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.partnerId, partnerId), eq(bankAccounts.id, id), isNull(bankAccounts.deletedAt)));
  return row;
}

export const listBankAccounts = (db: Db, partnerId: string, f: { customerId?: string }, page: { size: number; cursor?: string }) =>
  paginate<BankAccountRow>(
    db,
    bankAccounts,
    and(eq(bankAccounts.partnerId, partnerId), isNull(bankAccounts.deletedAt), f.customerId ? eq(bankAccounts.customerId, f.customerId) : undefined),
    page,
  );

export async function lockBankAccount(tx: Db, partnerId: string, id: string): Promise<BankAccountRow | undefined> {
  const [row] = await tx
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.partnerId, partnerId), eq(bankAccounts.id, id)))
    .for('update');
  return row;
}

export async function updateBankAccount(tx: Db, id: string, set: Partial<typeof bankAccounts.$inferInsert>): Promise<BankAccountRow | undefined> {
  const [row] = await tx.update(bankAccounts).set(set).where(eq(bankAccounts.id, id)).returning();
  return row;
}

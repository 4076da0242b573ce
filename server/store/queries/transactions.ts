// Transaction rows: insert, lock for a status change, read, list with filters.
import { and, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { insertWithRiders, type Rider } from '../reusable';
import { transactions } from '../schema/index';
import { paginate } from './paginate';

export type TransactionRow = typeof transactions.$inferSelect;

/**
 * Inserts the row; `riders` are other inserts of the same change (a limit reservation) sent in the same statement as
 * data-modifying CTEs, one round trip for all: while a transaction holds its customer's row lock, each saved round
 * trip shortens the wait of the next transaction of that customer.
 */
export async function insertTransaction(tx: Db, row: typeof transactions.$inferInsert, riders: Rider[] = []): Promise<TransactionRow> {
  return insertWithRiders<TransactionRow>(tx, transactions, row, riders);
}

/** The row that inserting `values` stores: the columns left out are null (none has another default, bar the timestamps, which every insert gives). */
export function asInserted(values: typeof transactions.$inferInsert & Pick<TransactionRow, 'createdAt' | 'updatedAt'>): TransactionRow {
  return { quote: null, payment: null, receipt: null, error: null, bankAccountId: null, exchangeRateId: null, estimatedSettlementAt: null, ...values };
}

export async function getTransaction(db: Db, partnerId: string, id: string): Promise<TransactionRow | undefined> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.partnerId, partnerId), eq(transactions.id, id)));
  return row;
}

/** Reads and locks a transaction until the caller's transaction ends: every status change goes through here. */
export async function lockTransaction(tx: Db, partnerId: string, id: string): Promise<TransactionRow | undefined> {
  const [row] = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.partnerId, partnerId), eq(transactions.id, id)))
    .for('update');
  return row;
}

export async function updateTransaction(tx: Db, id: string, set: Partial<typeof transactions.$inferInsert>): Promise<TransactionRow> {
  const [row] = await tx.update(transactions).set(set).where(eq(transactions.id, id)).returning();
  return row!;
}

export function listTransactions(
  db: Db,
  partnerId: string,
  f: { customerId?: string; type?: TransactionRow['type']; status?: TransactionRow['status'] },
  page: { size: number; cursor?: string },
) {
  const conds: (SQL | undefined)[] = [
    eq(transactions.partnerId, partnerId),
    f.customerId ? eq(transactions.customerId, f.customerId) : undefined,
    f.type ? eq(transactions.type, f.type) : undefined,
    f.status ? eq(transactions.status, f.status) : undefined,
  ];
  return paginate<TransactionRow>(db, transactions, and(...conds), page);
}

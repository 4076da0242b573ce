// Reading a partner's transactions: one by id (another partner's is 404), or a page of them by customer, type and status.
import { notFound } from '../../domain/errors';
import type { Db } from '../../store/db';
import { getTransaction, listTransactions, type TransactionRow } from '../../store/queries/transactions';

export async function readTransaction(db: Db, partnerId: string, id: string): Promise<TransactionRow> {
  const row = await getTransaction(db, partnerId, id);
  if (!row) throw notFound('Transaction');
  return row;
}

export const listPartnerTransactions = (db: Db, partnerId: string, filter: Parameters<typeof listTransactions>[2], pageQuery: Parameters<typeof listTransactions>[3]) =>
  listTransactions(db, partnerId, filter, pageQuery);

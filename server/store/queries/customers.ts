// Customer rows: insert (one per taxId per partner), read one, list with filters.
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { reusable } from '../reusable';
import { customers } from '../schema/index';
import { type LimitUsage, limitUsageOf, lockedLimitUsageSql } from './limits';
import { paginate } from './paginate';

export type CustomerRow = typeof customers.$inferSelect;
export type NewCustomerRow = typeof customers.$inferInsert;

/**
 * Inserts unless the partner already has this taxId or this externalUserId; then answers the existing row's id and which
 * of the two it holds (the user's own customer first: a racing first session of the same user is that user's).
 */
export async function insertCustomer(tx: Db, row: NewCustomerRow): Promise<{ row: CustomerRow } | { existingId: string; taken: 'externalUserId' | 'taxId' }> {
  // No conflict target: either unique index (tax id, or the partial one on externalUserId) makes it a no-op.
  const [inserted] = await tx.insert(customers).values(row).onConflictDoNothing().returning();
  if (inserted) return { row: inserted };
  if (row.externalUserId) {
    const sameUser = await getCustomerByExternalUserId(tx, row.partnerId, row.externalUserId);
    if (sameUser) return { existingId: sameUser.id, taken: 'externalUserId' };
  }
  const [existing] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.partnerId, row.partnerId), eq(customers.taxId, row.taxId)));
  return { existingId: existing!.id, taken: 'taxId' };
}

/** The partner's customer for its user `externalUserId`; another partner's never. */
export async function getCustomerByExternalUserId(db: Db, partnerId: string, externalUserId: string): Promise<CustomerRow | undefined> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.partnerId, partnerId), eq(customers.externalUserId, externalUserId)));
  return row;
}

export async function getCustomer(db: Db, partnerId: string, id: string): Promise<CustomerRow | undefined> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.partnerId, partnerId), eq(customers.id, id)));
  return row;
}

/**
 * Customers are never deleted, so once this process has seen one it exists for good: a floating quote (which needs only
 * that its customer is the partner's) asks the database once per customer and minute, not per quote. Only what was seen
 * is remembered (an unknown id asks every time), keyed by partner and id, so tenancy is the query's.
 */
const seenCustomers = new Map<string, number>();
const SEEN_CUSTOMER_MS = 60_000;

export async function customerExists(db: Db, partnerId: string, id: string): Promise<boolean> {
  const key = `${partnerId}/${id}`;
  const now = Date.now();
  if ((seenCustomers.get(key) ?? 0) > now) return true;
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.partnerId, partnerId), eq(customers.id, id)));
  if (!row) return false;
  if (seenCustomers.size >= 50_000) seenCustomers.clear();
  seenCustomers.set(key, now + SEEN_CUSTOMER_MS);
  return true;
}

/** Reads a customer and locks its row until the transaction ends: every status change of one customer goes through here. */
const lockRow = reusable<{ partnerId: string; id: string }, CustomerRow[]>('lock_customer', (db, p) =>
  db
    .select()
    .from(customers)
    .where(and(eq(customers.partnerId, p('partnerId')), eq(customers.id, p('id'))))
    .for('update'),
);

export async function lockCustomer(tx: Db, partnerId: string, id: string): Promise<CustomerRow | undefined> {
  const [row] = await lockRow(tx, { partnerId, id });
  return row;
}

const lockWithUsage = reusable<{ partnerId: string; id: string; dayStart: string; monthStart: string; add: string }, (CustomerRow & { usage: Parameters<typeof limitUsageOf>[0] })[]>('lock_customer_with_usage', (db, p) => {
  const locked = db
    .select()
    .from(customers)
    .where(and(eq(customers.partnerId, p('partnerId')), eq(customers.id, p('id'))))
    .for('update')
    .as('locked');
  const columns = Object.fromEntries(Object.keys(getTableColumns(customers)).map((k) => [k, locked[k as keyof typeof locked]])) as unknown as ReturnType<typeof getTableColumns<typeof customers>>;
  return db
    .select({
      ...columns,
      // Computed on the row after the subquery locked it: ramp_limit_usage_locked is VOLATILE, so its statements take
      // snapshots of their own, after the lock was granted (migrations 0011, 0012).
      usage: lockedLimitUsageSql(locked.partnerId, locked.id, p('dayStart'), p('monthStart'), p('add')),
    })
    .from(locked);
});

/**
 * lockCustomer, and in the same round trip the customer's limit usage as of the moment the lock was granted (so it
 * counts every reservation committed by the transaction that held the lock before): a transaction's limit check needs
 * no statement of its own while the customer's row is locked. `add`: this transaction's own reservation, already
 * inserted (USD), which the running totals take in here (the usage answered counts it); '0' when there is none yet.
 */
export async function lockCustomerWithUsage(tx: Db, partnerId: string, id: string, windows: { dayStart: Date; monthStart: Date }, add = '0'): Promise<(CustomerRow & { usage: LimitUsage }) | undefined> {
  const [found] = await lockWithUsage(tx, { partnerId, id, dayStart: windows.dayStart.toISOString(), monthStart: windows.monthStart.toISOString(), add });
  if (!found) return undefined;
  const { usage, ...row } = found;
  return { ...row, usage: limitUsageOf(usage) };
}

export async function updateCustomer(tx: Db, partnerId: string, id: string, set: Partial<NewCustomerRow>): Promise<CustomerRow> {
  const [row] = await tx
    .update(customers)
    .set(set)
    .where(and(eq(customers.partnerId, partnerId), eq(customers.id, id)))
    .returning();
  return row!;
}

export interface CustomerFilter {
  type?: CustomerRow['type'];
  status?: CustomerRow['verificationStatus'];
  taxId?: string;
  email?: string;
  externalUserId?: string;
}

export function listCustomers(db: Db, partnerId: string, f: CustomerFilter, page: { size: number; cursor?: string }) {
  const conds: (SQL | undefined)[] = [
    eq(customers.partnerId, partnerId),
    f.type ? eq(customers.type, f.type) : undefined,
    f.status ? eq(customers.verificationStatus, f.status) : undefined,
    f.taxId ? eq(customers.taxId, f.taxId) : undefined,
    f.email ? sql`lower(${customers.email}) = lower(${f.email})` : undefined,
    f.externalUserId ? eq(customers.externalUserId, f.externalUserId) : undefined,
  ];
  return paginate<CustomerRow>(db, customers, and(...conds), page);
}

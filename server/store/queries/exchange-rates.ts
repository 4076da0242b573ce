// Locked quotes: store, and redeem at most once before expiry with one conditional UPDATE.
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Quote } from '../../../src/contract/exchange-rates';
import { AppError, unknownReference } from '../../domain/errors';
import type { Db } from '../db';
import { reusable } from '../reusable';
import { exchangeRates } from '../schema/index';

type LockedQuoteRow = { id: string; partnerId: string; customerId: string | null; quote: Quote; expiresAt: Date; createdAt: Date };
const insertLocked = reusable<LockedQuoteRow, unknown>('insert_locked_quote', (db, p) =>
  db.insert(exchangeRates).values({ id: p('id'), partnerId: p('partnerId'), customerId: p('customerId'), quote: p('quote'), expiresAt: p('expiresAt'), createdAt: p('createdAt') }),
);

export async function insertLockedQuote(tx: Db, row: LockedQuoteRow) {
  await insertLocked(tx, row);
}

type Redemption = { partnerId: string; customerId?: string; id: string; usedBy: string; now: string };
/**
 * The redemption, in its two shapes: for a customer (a lock made without one is bound to it, and one bound to another
 * customer is not found), or for any.
 */
const redemption = (forCustomer: boolean) =>
  reusable<Redemption, (typeof exchangeRates.$inferSelect)[]>(forCustomer ? 'redeem_quote_for_customer' : 'redeem_quote', (db, p) =>
    db
      .update(exchangeRates)
      .set({ usedAt: sql`${p('now')}::timestamptz`, usedBy: sql`${p('usedBy')}`, ...(forCustomer ? { customerId: sql`coalesce(${exchangeRates.customerId}, ${p('customerId')}::uuid)` } : {}) })
      .where(
        and(
          eq(exchangeRates.id, p('id')),
          eq(exchangeRates.partnerId, p('partnerId')),
          forCustomer ? or(eq(exchangeRates.customerId, p('customerId')), isNull(exchangeRates.customerId)) : undefined,
          isNull(exchangeRates.usedAt),
          gt(exchangeRates.expiresAt, p('now')),
        ),
      )
      .returning(),
  );
const redeemFor = redemption(true);
const redeemAny = redemption(false);

/**
 * Marks a locked quote used by `usedBy` and answers it. The UPDATE's WHERE is the whole rule (this partner, this
 * customer or none yet, unused, unexpired), so under any number of concurrent redemptions exactly one row update
 * succeeds; the others learn why they failed from a read afterwards. A lock made without a customer is bound to
 * `customerId` by the same UPDATE (its first and only use).
 */
export async function redeemQuote(tx: Db, q: { partnerId: string; customerId?: string; id: string; usedBy: string; now: Date }): Promise<Quote> {
  const ownedBy = q.customerId ? or(eq(exchangeRates.customerId, q.customerId), isNull(exchangeRates.customerId)) : sql`true`;
  const values = { partnerId: q.partnerId, id: q.id, usedBy: q.usedBy, now: q.now.toISOString() };
  const [row] = q.customerId ? await redeemFor(tx, { ...values, customerId: q.customerId }) : await redeemAny(tx, values);
  if (row) {
    const quote = row.quote as unknown as Quote;
    return row.customerId ? { ...quote, customerId: row.customerId } : quote;
  }
  const [existing] = await tx.select().from(exchangeRates).where(and(eq(exchangeRates.id, q.id), eq(exchangeRates.partnerId, q.partnerId), ownedBy));
  if (!existing) throw unknownReference('exchangeRateId', 'locked exchange rate');
  if (existing.usedAt) throw new AppError('RATE_ALREADY_USED', 'This locked exchange rate was already used; lock a new one.', { extra: { exchangeRateId: q.id } });
  throw new AppError('RATE_EXPIRED', `This locked exchange rate expired at ${existing.expiresAt.toISOString()}; lock a new one.`, {
    extra: { exchangeRateId: q.id, expiresAt: existing.expiresAt.toISOString() },
  });
}

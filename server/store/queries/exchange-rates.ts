// Locked quotes: store, and redeem at most once before expiry with one conditional UPDATE.
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Quote } from '../../../src/contract/exchange-rates';
import { AppError, unknownReference } from '../../domain/errors';
import type { Db } from '../db';
import { exchangeRates } from '../schema/index';

export async function insertLockedQuote(tx: Db, row: { id: string; partnerId: string; customerId: string | null; quote: Quote; expiresAt: Date; createdAt: Date }) {
  await tx.insert(exchangeRates).values({ ...row, quote: row.quote as unknown as Record<string, unknown> });
}

/**
 * Marks a locked quote used by `usedBy` and answers it. The UPDATE's WHERE is the whole rule (this partner, this
 * customer or none yet, unused, unexpired), so under any number of concurrent redemptions exactly one row update
 * succeeds; the others learn why they failed from a read afterwards. A lock made without a customer is bound to
 * `customerId` by the same UPDATE (its first and only use).
 */
export async function redeemQuote(tx: Db, q: { partnerId: string; customerId?: string; id: string; usedBy: string; now: Date }): Promise<Quote> {
  const ownedBy = q.customerId ? or(eq(exchangeRates.customerId, q.customerId), isNull(exchangeRates.customerId)) : sql`true`;
  const [row] = await tx
    .update(exchangeRates)
    .set({ usedAt: q.now, usedBy: q.usedBy, ...(q.customerId ? { customerId: sql`coalesce(${exchangeRates.customerId}, ${q.customerId}::uuid)` } : {}) })
    .where(and(eq(exchangeRates.id, q.id), eq(exchangeRates.partnerId, q.partnerId), ownedBy, isNull(exchangeRates.usedAt), gt(exchangeRates.expiresAt, q.now)))
    .returning();
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

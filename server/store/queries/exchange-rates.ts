// Locked quotes: store, and redeem at most once before expiry with one conditional UPDATE.
import { and, eq, isNull, gt, sql } from 'drizzle-orm';
import type { Quote } from '../../../src/contract/exchange-rates';
import { AppError, notFound } from '../../domain/errors';
import type { Db } from '../db';
import { exchangeRates } from '../schema/index';

export async function insertLockedQuote(tx: Db, row: { id: string; partnerId: string; customerId: string; quote: Quote; expiresAt: Date; createdAt: Date }) {
  await tx.insert(exchangeRates).values({ ...row, quote: row.quote as unknown as Record<string, unknown> });
}

/**
 * Marks a locked quote used by `usedBy` and answers it. The UPDATE's WHERE is the whole rule (this partner, this
 * customer, unused, unexpired), so under any number of concurrent redemptions exactly one row update succeeds; the
 * others learn why they failed from a read afterwards.
 */
export async function redeemQuote(tx: Db, q: { partnerId: string; customerId?: string; id: string; usedBy: string; now: Date }): Promise<Quote> {
  const [row] = await tx
    .update(exchangeRates)
    .set({ usedAt: q.now, usedBy: q.usedBy })
    .where(
      and(
        eq(exchangeRates.id, q.id),
        eq(exchangeRates.partnerId, q.partnerId),
        q.customerId ? eq(exchangeRates.customerId, q.customerId) : sql`true`,
        isNull(exchangeRates.usedAt),
        gt(exchangeRates.expiresAt, q.now),
      ),
    )
    .returning();
  if (row) return row.quote as unknown as Quote;
  const [existing] = await tx
    .select()
    .from(exchangeRates)
    .where(and(eq(exchangeRates.id, q.id), eq(exchangeRates.partnerId, q.partnerId), q.customerId ? eq(exchangeRates.customerId, q.customerId) : sql`true`));
  if (!existing) throw notFound('Exchange rate');
  if (existing.usedAt) throw new AppError('RATE_ALREADY_USED', 'This locked exchange rate was already used; lock a new one.', { extra: { exchangeRateId: q.id } });
  throw new AppError('RATE_EXPIRED', `This locked exchange rate expired at ${existing.expiresAt.toISOString()}; lock a new one.`, {
    extra: { exchangeRateId: q.id, expiresAt: existing.expiresAt.toISOString() },
  });
}

// Locked quotes: stored, owned by one customer and partner, redeemed at most once before they expire.
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId } from './columns';

export const exchangeRates = pgTable(
  'exchange_rates',
  {
    id: id(),
    partnerId: partnerId(),
    /** Null on a lock made without a customer: set to the customer of its first (only) use when redeemed. */
    customerId: uuid('customer_id'),
    /** The quote as answered (amounts, fees, rates, rail, blockchain). */
    quote: jsonb('quote').$type<Record<string, unknown>>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** What redeemed it (a transaction id). */
    usedBy: text('used_by'),
    createdAt: createdAt(),
  },
  (t) => [index('exchange_rates_customer_idx').on(t.partnerId, t.customerId)],
);

// Transaction limits: per-customer overrides of the defaults, and the USD-equivalent reservations that count as used.
import { index, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId, updatedAt } from './columns';

export const limitOverrides = pgTable(
  'limit_overrides',
  {
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    single: numeric('single', { precision: 20, scale: 2 }),
    daily: numeric('daily', { precision: 20, scale: 2 }),
    monthly: numeric('monthly', { precision: 20, scale: 2 }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.customerId] })],
);

export const limitReservations = pgTable(
  'limit_reservations',
  {
    id: id(),
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    amountUsd: numeric('amount_usd', { precision: 20, scale: 2 }).notNull(),
    /** The transaction that used it; a released reservation (a failed transaction) no longer counts. */
    reference: text('reference'),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('limit_reservations_customer_idx').on(t.partnerId, t.customerId, t.createdAt)],
);

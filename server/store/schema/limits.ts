// Transaction limits: per-customer overrides of the defaults, and the USD-equivalent reservations that count as used.
import { sql } from 'drizzle-orm';
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
  (t) => [
    index('limit_reservations_customer_idx').on(t.partnerId, t.customerId, t.createdAt),
    // The released ones alone (few): what the running totals below take back out.
    index('limit_reservations_released_idx').on(t.partnerId, t.customerId, t.createdAt).where(sql`${t.releasedAt} IS NOT NULL`),
  ],
);

/**
 * A customer's running totals of the reservations made since the start of a day and of a month (released or not; the
 * released ones are taken out when read), so that the limit check under the customer's lock does not sum the month's
 * reservations. Written only while the customer's row is locked (ramp_limit_usage_locked, migration 0012, and
 * addToLimitUsage); recomputed from the reservations when its windows are not the caller's.
 */
export const limitUsage = pgTable(
  'limit_usage',
  {
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    dayStart: timestamp('day_start', { withTimezone: true }).notNull(),
    daily: numeric('daily').notNull(),
    monthStart: timestamp('month_start', { withTimezone: true }).notNull(),
    monthly: numeric('monthly').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.customerId] })],
);

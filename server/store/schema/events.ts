// Events: one row per state change, written in the same DB transaction as the change (the outbox for webhooks and SSE).
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId } from './columns';

export const events = pgTable(
  'events',
  {
    id: id(),
    partnerId: partnerId(),
    customerId: uuid('customer_id'),
    eventType: text('event_type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    /** Set once the webhook dispatcher made this event's deliveries (null: not yet). */
    fannedOutAt: timestamp('fanned_out_at', { withTimezone: true }),
  },
  (t) => [
    index('events_partner_id_idx').on(t.partnerId, t.id),
    index('events_customer_idx').on(t.customerId, t.id),
    index('events_partner_type_idx').on(t.partnerId, t.eventType, t.id),
    index('events_fanout_idx').on(t.id).where(sql`fanned_out_at IS NULL`),
  ],
);

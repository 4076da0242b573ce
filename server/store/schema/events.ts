// Events: one row per state change, written in the same DB transaction as the change (the outbox for webhooks and SSE).
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
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
  },
  (t) => [index('events_partner_id_idx').on(t.partnerId, t.id), index('events_customer_idx').on(t.customerId, t.id)],
);

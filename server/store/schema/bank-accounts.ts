// Bank accounts: payout destinations of a customer (its own or a counterparty's), with the holder's BASIC verification.
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId, updatedAt } from './columns';

export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: id(),
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    name: text('name').notNull(),
    rail: text('rail', { enum: ['PIX', 'SEPA', 'SWIFT'] }).notNull(),
    currency: text('currency', { enum: ['BRL', 'EUR', 'USD'] }).notNull(),
    identifier: jsonb('identifier').$type<Record<string, string>>().notNull(),
    holder: jsonb('holder').$type<Record<string, unknown>>().notNull(),
    holderStatus: text('holder_status', {
      enum: ['NOT_STARTED', 'UNDER_VERIFICATION', 'APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'],
    }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('bank_accounts_partner_idx').on(t.partnerId, t.id), index('bank_accounts_customer_idx').on(t.partnerId, t.customerId, t.id)],
);

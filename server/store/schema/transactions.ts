// Transactions: on-ramps, off-ramps and transfers, with their status, the priced quote, and what each rail and chain reported.
import { index, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { BLOCKCHAINS } from '../../../src/contract/blockchains';
import { createdAt, id, partnerId, updatedAt } from './columns';

export const transactions = pgTable(
  'transactions',
  {
    id: id(),
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    type: text('type', { enum: ['ON_RAMP', 'OFF_RAMP', 'TRANSFER'] }).notNull(),
    status: text('status', {
      enum: ['AWAITING_FUNDS', 'TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN', 'SUCCESS', 'FAILED', 'REFUNDING', 'REFUNDED'],
    }).notNull(),
    blockchain: text('blockchain', { enum: BLOCKCHAINS }).notNull(),
    /** The request as received (normalised), echoed back. */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    /** The priced quote (on/off-ramp) or the transfer's amount and asset. */
    quote: jsonb('quote').$type<Record<string, unknown>>(),
    payment: jsonb('payment').$type<Record<string, unknown>>(),
    receipt: jsonb('receipt').$type<Record<string, unknown>>(),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    bankAccountId: uuid('bank_account_id'),
    exchangeRateId: uuid('exchange_rate_id'),
    amountUsd: numeric('amount_usd', { precision: 20, scale: 2 }).notNull(),
    estimatedSettlementAt: timestamp('estimated_settlement_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('transactions_partner_idx').on(t.partnerId, t.id),
    index('transactions_customer_idx').on(t.partnerId, t.customerId, t.id),
    index('transactions_partner_status_idx').on(t.partnerId, t.status, t.id),
    index('transactions_partner_type_idx').on(t.partnerId, t.type, t.id),
  ],
);

// The double-entry ledger: movements made of balanced entries, and the balance of each account kept beside them (never negative where that is the rule).
import { sql } from 'drizzle-orm';
import { boolean, check, index, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId, updatedAt } from './columns';

/** One business event that moves money (a sandbox funding, an on-ramp settlement, …): its entries sum to zero per asset. */
export const movements = pgTable('ledger_movements', {
  id: id(),
  partnerId: partnerId(),
  kind: text('kind').notNull(),
  reference: text('reference'),
  createdAt: createdAt(),
});

export const entries = pgTable(
  'ledger_entries',
  {
    id: id(),
    partnerId: partnerId(),
    movementId: uuid('movement_id').notNull(),
    /** `customer:<id>`, `sandbox:treasury`, `fees:service`, `fees:partner:<partnerFeeId>`, … */
    account: text('account').notNull(),
    blockchain: text('blockchain').notNull(),
    asset: text('asset').notNull(),
    /** Signed: credits positive, debits negative. */
    amount: numeric('amount', { precision: 38, scale: 6 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('ledger_entries_account_idx').on(t.partnerId, t.account, t.blockchain, t.asset), index('ledger_entries_movement_idx').on(t.movementId)],
);

export const balances = pgTable(
  'ledger_balances',
  {
    partnerId: partnerId(),
    account: text('account').notNull(),
    blockchain: text('blockchain').notNull(),
    asset: text('asset').notNull(),
    balance: numeric('balance', { precision: 38, scale: 6 }).notNull().default('0'),
    /** Only system accounts (treasury, clearing) may go below zero; a customer's never can. */
    allowNegative: boolean('allow_negative').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.account, t.blockchain, t.asset] }), check('ledger_balances_not_negative', sql`${t.allowNegative} OR ${t.balance} >= 0`)],
);

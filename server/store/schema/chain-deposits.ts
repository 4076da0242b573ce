// Stablecoin that reached a customer's wallet from outside (a token Transfer log), credited once; and each chain's watch cursor and leader lease.
import { bigint, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { EVM_CHAINS } from '../../domain/chain/settings';
import { createdAt, id, partnerId } from './columns';

export const chainDeposits = pgTable(
  'chain_deposits',
  {
    id: id(),
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    blockchain: text('blockchain', { enum: EVM_CHAINS }).notNull(),
    asset: text('asset').notNull(),
    token: text('token').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    /** The amount the ledger was credited (6 decimals: base units past the sixth decimal are not credited, see docs/on-chain-settlement.md). */
    value: numeric('value', { precision: 38, scale: 6 }).notNull(),
    /** The log's own amount, in the token's base units. */
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
    transactionHash: text('transaction_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    createdAt: createdAt(),
  },
  // A log is credited once, whoever sees it and however often (a rescan, two processes, a crash after the commit).
  (t) => [uniqueIndex('chain_deposits_log_idx').on(t.blockchain, t.transactionHash, t.logIndex), index('chain_deposits_customer_idx').on(t.partnerId, t.customerId)],
);

export const chainCursors = pgTable('chain_cursors', {
  blockchain: text('blockchain', { enum: EVM_CHAINS }).primaryKey(),
  /** Every block up to this one has been scanned and its deposits credited. */
  scannedBlock: bigint('scanned_block', { mode: 'bigint' }).notNull(),
  /** The process that watches the chain now, until `leaseUntil`; another takes over once the lease runs out. */
  leader: text('leader'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

// On-chain transfers the service makes (an on-ramp's payout): one row per transfer with its nonce, signed raw and every hash it has had.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { CHAIN_TRANSFER_KINDS, CHAIN_TRANSFER_STATUSES, type WaitReason } from '../../domain/chain/payout';
import { EVM_CHAINS } from '../../domain/chain/settings';
import { createdAt, id, partnerId, updatedAt } from './columns';

export const chainTransfers = pgTable(
  'chain_transfers',
  {
    id: id(),
    partnerId: partnerId(),
    blockchain: text('blockchain', { enum: EVM_CHAINS }).notNull(),
    /**
     * PAYOUT: treasury → customer wallet, paying an on-ramp. OFFRAMP: customer wallet → treasury, an off-ramp's stablecoin.
     * REFUND: treasury → customer wallet, giving a failed off-ramp's stablecoin back. TRANSFER: customer wallet → the
     * transfer's destination (another customer's wallet, or an outside address), in one transaction. GAS: treasury → customer wallet, the
     * native coin the wallet's own transfer needs (the service pays it; the customer's stablecoin never does).
     */
    kind: text('kind', { enum: CHAIN_TRANSFER_KINDS }).notNull(),
    transactionId: uuid('transaction_id').notNull(),
    /** The customer whose wallet sends or receives (its key signs an OFFRAMP). */
    customerId: uuid('customer_id'),
    asset: text('asset').notNull(),
    token: text('token').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    /** The amount as the ledger has it (6 decimals). */
    value: numeric('value', { precision: 38, scale: 6 }).notNull(),
    /** The same in the token's base units (uint256: wider than any bigint column), set when signed: decimals come from the contract. */
    amount: numeric('amount', { precision: 78, scale: 0 }),
    status: text('status', { enum: CHAIN_TRANSFER_STATUSES }).notNull(),
    /** Null while QUEUED: a nonce is taken only in the DB transaction that records the signed raw. */
    nonce: integer('nonce'),
    gas: numeric('gas', { precision: 78, scale: 0 }),
    maxFeePerGas: numeric('max_fee_per_gas', { precision: 78, scale: 0 }),
    maxPriorityFeePerGas: numeric('max_priority_fee_per_gas', { precision: 78, scale: 0 }),
    /** The signed transaction now in force on `nonce` (a replacement replaces it), sent again while nothing lands; `hash` is its hash, or once in a block the hash that landed. */
    raw: text('raw'),
    hash: text('hash'),
    /** Every hash signed on the current nonce, oldest first (a replacement adds one): whichever lands is this transfer. */
    hashes: jsonb('hashes').$type<string[]>().notNull().default([]),
    /**
     * Hashes of nonces given up (taken by another transaction, or spent by a transfer that reverted): kept for the record,
     * never again taken for this transfer landing.
     */
    retiredHashes: jsonb('retired_hashes').$type<string[]>().notNull().default([]),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    includedBlockNumber: bigint('included_block_number', { mode: 'bigint' }),
    includedBlockHash: text('included_block_hash'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** Failures in a row (the node, the treasury's funds): the pause before the next check doubles with each. */
    failures: integer('failures').notNull().default(0),
    waitReason: text('wait_reason').$type<WaitReason>(),
    lastError: text('last_error'),
    /** When a process may next claim it (claims push it forward by a lease: a process that dies lets it come back). */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
    /** Raised by every write: a write made from a stale read changes nothing. */
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('chain_transfers_transaction_idx').on(t.kind, t.transactionId),
    index('chain_transfers_due_idx').on(t.nextCheckAt).where(sql`status <> 'CONFIRMED'`),
    // One transfer per nonce of a sender: a nonce handed out twice is an error, never two payouts racing for it.
    uniqueIndex('chain_transfers_nonce_idx').on(t.blockchain, t.fromAddress, t.nonce).where(sql`nonce IS NOT NULL`),
  ],
);


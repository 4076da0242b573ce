// Wallets: one per customer and blockchain, provisioned when verification reaches APPROVED.
import { boolean, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { BLOCKCHAINS } from '../../../src/contract/blockchains';
import { createdAt, id, partnerId } from './columns';

export const wallets = pgTable(
  'wallets',
  {
    id: id(),
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    blockchain: text('blockchain', { enum: BLOCKCHAINS }).notNull(),
    address: text('address').notNull(),
    isDefault: boolean('is_default').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('wallets_customer_chain_uq').on(t.customerId, t.blockchain), uniqueIndex('wallets_chain_address_uq').on(t.blockchain, t.address)],
);

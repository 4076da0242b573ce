// The next nonce of each sender on each chain, allocated under this row's lock (FOR UPDATE) so N processes never hand one out twice.
import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { EVM_CHAINS } from '../../domain/chain/settings';
import { updatedAt } from './columns';

export const chainNonces = pgTable(
  'chain_nonces',
  {
    blockchain: text('blockchain', { enum: EVM_CHAINS }).notNull(),
    address: text('address').notNull(),
    /** Initialised from the node's pending nonce on first use; from then on only the service moves it. */
    nextNonce: integer('next_nonce').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.blockchain, t.address] })],
);

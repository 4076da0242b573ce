// Partner fees: charged on top of the service's own, paid to the partner's wallet.
import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { BLOCKCHAINS } from '../../../src/contract/blockchains';
import { createdAt, id, partnerId } from './columns';

export interface StoredPartnerFees {
  onRamp: { rate: string; flatAmount: string };
  offRamp: { rate: string; flatAmount: string };
}

export const partnerFees = pgTable('partner_fees', {
  id: id(),
  partnerId: partnerId(),
  name: text('name').notNull(),
  walletAddress: text('wallet_address').notNull(),
  blockchain: text('blockchain', { enum: BLOCKCHAINS }).notNull(),
  fees: jsonb('fees').$type<StoredPartnerFees>().notNull(),
  createdAt: createdAt(),
});

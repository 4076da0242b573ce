// Sandbox time per partner: how far `/v2/sandbox/clock/advance` has moved that partner's clock ahead of wall time. In the
// database, so every process on it reads the same partner time; a partner with no row runs on wall time.
import { bigint, pgTable, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns';

export const partnerClocks = pgTable('partner_clocks', {
  partnerId: uuid('partner_id').primaryKey(),
  offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});

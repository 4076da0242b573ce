// API keys: stored only as SHA-256; several active keys per partner, each revocable.
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId } from './columns';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    partnerId: partnerId(),
    /** sha256 hex of the whole key; the key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** The first characters (`sk_sandbox_ab12`), enough to tell keys apart in a listing. */
    displayPrefix: text('display_prefix').notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_partner_idx').on(t.partnerId)],
);

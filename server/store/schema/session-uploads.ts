// The bytes a line of widget sessions has uploaded: an onboarding session and the session bound to the customer it created
// share one line (`lineage`), so a visitor cannot renew the budget by creating another customer. Reserved before the
// body is read, given back when the upload is refused. A line past its expiry is no longer counted and may be removed.
import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const sessionUploads = pgTable(
  'session_uploads',
  {
    lineage: text('lineage').primaryKey(),
    partnerId: uuid('partner_id').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('session_uploads_expires_idx').on(t.expiresAt)],
);

// Jobs: work the workers do later (sandbox review, transaction steps, expiry), claimed with FOR UPDATE SKIP LOCKED so N processes can share them.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId } from './columns';

export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    partnerId: partnerId(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Set when the job stopped being retried (a refusal, or too many attempts): `last_error` says why. */
    parkedAt: timestamp('parked_at', { withTimezone: true }),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // The claim's scan: open jobs in run_at order, so a claim reads the due jobs it takes (and any locked ones it skips), not every open job.
    index('jobs_claim_idx').on(t.runAt).where(sql`done_at IS NULL AND parked_at IS NULL`),
    // The claim of partners whose sandbox clock runs ahead: their jobs due in partner time but not yet in wall time.
    index('jobs_partner_claim_idx').on(t.partnerId, t.runAt).where(sql`done_at IS NULL AND parked_at IS NULL`),
    index('jobs_done_idx').on(t.doneAt).where(sql`done_at IS NOT NULL`),
  ],
);

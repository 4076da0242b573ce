// What a metrics scrape reads from the database: the webhook queue and the jobs due, in one statement of two bounded counts.
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { jobs, webhookDeliveries } from '../schema/index';

/**
 * Counts stop here: each walks a partial index (`status = 'pending'`, `done_at IS NULL`) and reads at most this many
 * entries, so a scrape during a backlog of millions costs what one of 100,000 does. Past it the gauge reads 100,000,
 * which already says all an alert needs.
 */
export const GAUGE_COUNT_CAP = 100_000;

export interface QueueGauges {
  /** Webhook deliveries pending: due now, waiting for a retry, or in flight. */
  webhookQueueDepth: number;
  /** Jobs due by `now` that have not run (neither done nor parked). */
  jobsDue: number;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

export async function queueGauges(db: Db, now: Date): Promise<QueueGauges> {
  const result = await db.execute(sql`SELECT
    (SELECT count(*) FROM (SELECT 1 FROM ${webhookDeliveries} WHERE status = 'pending' LIMIT ${GAUGE_COUNT_CAP}) d)::int AS webhooks,
    (SELECT count(*) FROM (SELECT 1 FROM ${jobs} WHERE done_at IS NULL AND parked_at IS NULL AND run_at <= ${now.toISOString()}::timestamptz LIMIT ${GAUGE_COUNT_CAP}) j)::int AS jobs`);
  const row = rowsOf<{ webhooks: number | string; jobs: number | string }>(result)[0];
  return { webhookQueueDepth: Number(row?.webhooks ?? 0), jobsDue: Number(row?.jobs ?? 0) };
}

// The job queue: enqueue inside a change's transaction, claim due jobs with FOR UPDATE SKIP LOCKED, finish or retry.
import { asc, desc, sql } from 'drizzle-orm';
import { newId } from '../../ids';
import type { Db } from '../db';
import type { Rider } from '../reusable';
import { jobs, partnerClocks } from '../schema/index';

export type JobRow = typeof jobs.$inferSelect;

/** Told of every job this process enqueues (or makes due), so an idle worker here wakes at once instead of at its next poll. */
export const jobsEnqueued = new EventTarget();

/** Wakes this process's idle worker: a job was enqueued, or a sandbox clock moved and made jobs due. */
export const wakeWorkers = (): void => void jobsEnqueued.dispatchEvent(new Event('enqueued'));

export async function enqueueJob(tx: Db, job: { partnerId: string; kind: string; payload: Record<string, unknown>; runAt: Date }): Promise<string> {
  const id = newId();
  await tx.insert(jobs).values({ id, ...job });
  wakeWorkers();
  return id;
}

type NewJob = { partnerId: string; kind: string; payload: Record<string, unknown>; runAt: Date };

/** The insert of several jobs, to ride along another insert of the same change (the caller wakes the workers once it ran). */
export function jobsInsert(list: NewJob[]): Rider {
  return { table: jobs, rows: list.map((job) => ({ id: newId(), ...job })) };
}

/** The claim's two statements, in the order they are tried (exported for the test that reads their plans). */
export function claimStatements(tx: Db, wallNow: Date) {
  const now = wallNow.toISOString();
  const open = sql`${jobs.doneAt} IS NULL AND ${jobs.parkedAt} IS NULL`;
  // Spelled out: drizzle leaves the columns of a one-table select unqualified, and `partner_id` would name the clock's own.
  const offsetOf = sql<number>`COALESCE((SELECT c.offset_ms FROM ${partnerClocks} c WHERE c.partner_id = ${jobs}.partner_id), 0)`.mapWith(Number);
  return [
    tx
      .select({ job: jobs, offsetMs: offsetOf })
      .from(jobs)
      .where(sql`${open} AND ${jobs.runAt} <= ${now}::timestamptz`)
      .orderBy(jobs.runAt)
      .limit(1)
      .for('update', { skipLocked: true }),
    tx
      .select({ job: jobs, offsetMs: sql<number>`${partnerClocks.offsetMs}`.mapWith(Number) })
      .from(partnerClocks)
      .innerJoin(
        jobs,
        sql`${jobs.partnerId} = ${partnerClocks.partnerId} AND ${open}
          AND ${jobs.runAt} > ${now}::timestamptz AND ${jobs.runAt} <= ${now}::timestamptz + ${partnerClocks.offsetMs} * interval '1 millisecond'`,
      )
      .where(sql`${partnerClocks.offsetMs} > 0`)
      .orderBy(sql`${jobs.runAt} - ${partnerClocks.offsetMs} * interval '1 millisecond'`)
      .limit(1)
      .for('update', { of: jobs, skipLocked: true }),
  ] as const;
}

/**
 * Locks one due job for the calling transaction; other processes skip it until that transaction ends. A job is due on its
 * partner's clock (wall time plus the partner's sandbox offset), which comes back with it as `clockOffsetMs`.
 *
 * Two statements, each an index range scan that stops at the first row it can lock (jobs_claim_idx,
 * jobs_partner_claim_idx) instead of sorting every open job. Offsets are never negative (a clock only moves forward), so
 * a job whose run_at has passed in wall time is due for every partner: the first statement takes the earliest of those.
 * Only when none is left does the second look at partners whose clock runs ahead, for jobs due in their time alone.
 */
export async function claimDueJob(tx: Db, wallNow: Date): Promise<(JobRow & { clockOffsetMs: number }) | undefined> {
  const [dueInWallTime, dueInPartnerTime] = claimStatements(tx, wallNow);
  const [found] = await dueInWallTime;
  const row = found ?? (await dueInPartnerTime)[0];
  return row && { ...row.job, clockOffsetMs: row.offsetMs };
}

export async function finishJob(tx: Db, id: string, at: Date): Promise<void> {
  await tx.update(jobs).set({ doneAt: at }).where(sql`${jobs.id} = ${id}`);
}

export async function retryJob(db: Db, id: string, runAt: Date, error: string): Promise<void> {
  await db
    .update(jobs)
    .set({ runAt, attempts: sql`${jobs.attempts} + 1`, lastError: error.slice(0, 2000) })
    .where(sql`${jobs.id} = ${id}`);
}

/** Stops retrying a job: it stays (not done) with its reason, for a person to look at; /readyz lists it. */
export async function parkJob(db: Db, id: string, at: Date, reason: string): Promise<void> {
  await db
    .update(jobs)
    .set({ parkedAt: at, attempts: sql`${jobs.attempts} + 1`, lastError: reason.slice(0, 2000) })
    .where(sql`${jobs.id} = ${id}`);
}

export interface JobSummary {
  id: string;
  kind: string;
  attempts: number;
  runAt: Date;
  parkedAt: Date | null;
  lastError: string | null;
}

/** Parked jobs, and jobs due for longer than `stuckAfterMs` (nobody ran them, or they keep failing). */
export async function troubledJobs(db: Db, now: Date, stuckAfterMs: number, limit = 10): Promise<{ parked: JobSummary[]; stuck: JobSummary[] }> {
  const cols = { id: jobs.id, kind: jobs.kind, attempts: jobs.attempts, runAt: jobs.runAt, parkedAt: jobs.parkedAt, lastError: jobs.lastError };
  const parked = await db.select(cols).from(jobs).where(sql`done_at IS NULL AND parked_at IS NOT NULL`).orderBy(desc(jobs.parkedAt)).limit(limit);
  const stuck = await db
    .select(cols)
    .from(jobs)
    .where(sql`done_at IS NULL AND parked_at IS NULL AND (run_at < ${new Date(now.getTime() - stuckAfterMs).toISOString()}::timestamptz OR attempts > 0)`)
    .orderBy(asc(jobs.runAt))
    .limit(limit);
  return { parked, stuck };
}

/** Deletes up to `batch` jobs done before `before`; answers how many. */
export async function deleteDoneJobs(db: Db, before: Date, batch: number): Promise<number> {
  const res = await db.execute(
    sql`DELETE FROM ${jobs} WHERE id IN (SELECT id FROM ${jobs} WHERE done_at IS NOT NULL AND done_at < ${before.toISOString()}::timestamptz LIMIT ${batch}) RETURNING 1`,
  );
  return ((res as unknown as { rows?: unknown[] }).rows ?? (res as unknown as unknown[])).length;
}

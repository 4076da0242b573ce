// The job queue: enqueue inside a change's transaction, claim due jobs with FOR UPDATE SKIP LOCKED, finish or retry.
import { sql } from 'drizzle-orm';
import { newId } from '../../ids';
import type { Db } from '../db';
import { jobs } from '../schema/index';

export type JobRow = typeof jobs.$inferSelect;

export async function enqueueJob(tx: Db, job: { partnerId: string; kind: string; payload: Record<string, unknown>; runAt: Date }): Promise<string> {
  const id = newId();
  await tx.insert(jobs).values({ id, ...job });
  return id;
}

/** Locks one due job for the calling transaction; other processes skip it until that transaction ends. */
export async function claimDueJob(tx: Db, now: Date): Promise<JobRow | undefined> {
  const rows = await tx.execute(
    sql`SELECT id FROM ${jobs} WHERE done_at IS NULL AND run_at <= ${now.toISOString()}::timestamptz ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
  );
  const id = ((rows as unknown as { rows?: { id: string }[] }).rows ?? (rows as unknown as { id: string }[]))[0]?.id;
  if (!id) return undefined;
  const [row] = await tx.select().from(jobs).where(sql`${jobs.id} = ${id}`);
  return row;
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

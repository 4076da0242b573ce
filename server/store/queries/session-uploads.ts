// The upload count of a line of widget sessions (see schema/session-uploads.ts).
import { eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { sessionUploads } from '../schema/index';

/**
 * Adds `bytes` to the line's count when the count stays within `limit` (a line past its expiry starts again from zero);
 * the new count, or undefined when it would not (nothing is added). One statement: concurrent uploads cannot both fit.
 */
export async function reserveSessionUpload(
  db: Db,
  line: { lineage: string; partnerId: string; expiresAt: Date },
  bytes: number,
  limit: number,
  now: Date,
): Promise<number | undefined> {
  if (bytes > limit) return undefined;
  const next = sql`CASE WHEN ${sessionUploads.expiresAt} < ${now} THEN ${bytes}::bigint ELSE ${sessionUploads.bytes} + ${bytes} END`;
  const [row] = await db
    .insert(sessionUploads)
    .values({ ...line, bytes })
    .onConflictDoUpdate({
      target: sessionUploads.lineage,
      set: { bytes: next, expiresAt: sql`GREATEST(${sessionUploads.expiresAt}, excluded.expires_at)` },
      setWhere: sql`${next} <= ${limit}`,
    })
    .returning({ bytes: sessionUploads.bytes });
  return row?.bytes;
}

/** Gives back what a refused upload reserved. */
export async function releaseSessionUpload(db: Db, lineage: string, bytes: number): Promise<void> {
  await db
    .update(sessionUploads)
    .set({ bytes: sql`GREATEST(${sessionUploads.bytes} - ${bytes}, 0)` })
    .where(eq(sessionUploads.lineage, lineage));
}

/** The bytes a line has counted (0 for a line never seen). */
export async function sessionUploadBytes(db: Db, lineage: string): Promise<number> {
  const [row] = await db.select({ bytes: sessionUploads.bytes }).from(sessionUploads).where(eq(sessionUploads.lineage, lineage));
  return row?.bytes ?? 0;
}

/** Up to `limit` lines past their expiry, removed by the cleanup pass. */
export async function removeExpiredSessionUploads(db: Db, now: Date, limit: number): Promise<number> {
  const expired = db.select({ lineage: sessionUploads.lineage }).from(sessionUploads).where(lt(sessionUploads.expiresAt, now)).limit(limit);
  const gone = await db.delete(sessionUploads).where(inArray(sessionUploads.lineage, expired)).returning({ lineage: sessionUploads.lineage });
  return gone.length;
}

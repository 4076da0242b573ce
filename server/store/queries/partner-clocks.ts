// Per-partner sandbox time: read a partner's offset (cached a second in process), move it forward (atomically, so
// concurrent advances add up).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { partnerClocks, partners } from '../schema/index';

/**
 * How long a partner's offset read from the database is reused in this process. Every /v2 request in sandbox needs it,
 * and it changes only when the partner moves its clock: a move through this process is seen at once (the entry is
 * dropped), a move through another process within this long.
 */
export const PARTNER_CLOCK_CACHE_MS = 1000;

const cached = new Map<string, { offsetMs: number; until: number }>();
/** Partners whose clock moved lately: their reads are not cached for a while, so a read racing the move's commit cannot pin the old offset. */
const movedAt = new Map<string, number>();
let allMovedAt = 0;

function forget(partnerId: string | undefined): void {
  const now = Date.now();
  if (partnerId === undefined) {
    cached.clear();
    movedAt.clear();
    allMovedAt = now;
  } else {
    cached.delete(partnerId);
    movedAt.set(partnerId, now);
  }
}

/** The offset `partnerClockOffset` would answer from its cache, without a promise; undefined when it would ask the database. */
export function knownPartnerClockOffset(partnerId: string): number | undefined {
  const hit = cached.get(partnerId);
  return hit && hit.until > Date.now() ? hit.offsetMs : undefined;
}

export async function partnerClockOffset(db: Db, partnerId: string): Promise<number> {
  const now = Date.now();
  const hit = cached.get(partnerId);
  if (hit && hit.until > now) return hit.offsetMs;
  const [row] = await db.select({ offsetMs: partnerClocks.offsetMs }).from(partnerClocks).where(eq(partnerClocks.partnerId, partnerId));
  const offsetMs = row?.offsetMs ?? 0;
  const moved = Math.max(movedAt.get(partnerId) ?? 0, allMovedAt);
  if (now - moved >= PARTNER_CLOCK_CACHE_MS) {
    movedAt.delete(partnerId);
    if (cached.size > 10_000) cached.clear(); // a sandbox with that many active partners rereads; memory stays bounded
    cached.set(partnerId, { offsetMs, until: now + PARTNER_CLOCK_CACHE_MS });
  }
  return offsetMs;
}

/** Moves one partner's clock `ms` forward; answers its new offset. */
export async function advancePartnerClock(db: Db, partnerId: string, ms: number): Promise<number> {
  forget(partnerId);
  const [row] = await db
    .insert(partnerClocks)
    .values({ partnerId, offsetMs: ms })
    .onConflictDoUpdate({ target: partnerClocks.partnerId, set: { offsetMs: sql`${partnerClocks.offsetMs} + ${ms}`, updatedAt: sql`now()` } })
    .returning({ offsetMs: partnerClocks.offsetMs });
  forget(partnerId); // again once the row is written: the window without caching starts nearer the commit
  return row!.offsetMs;
}

/** Moves every partner's clock `ms` forward (in-process tests that stand in for "time passes"). */
export async function advanceAllPartnerClocks(db: Db, ms: number): Promise<void> {
  forget(undefined);
  await db.execute(sql`
    INSERT INTO ${partnerClocks} (partner_id, offset_ms) SELECT ${partners.id}, ${ms} FROM ${partners}
    ON CONFLICT (partner_id) DO UPDATE SET offset_ms = ${partnerClocks}.offset_ms + EXCLUDED.offset_ms, updated_at = now()`);
  forget(undefined);
}

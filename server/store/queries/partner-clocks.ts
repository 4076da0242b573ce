// Per-partner sandbox time: read a partner's offset, move it forward (atomically, so concurrent advances add up).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { partnerClocks, partners } from '../schema/index';

export async function partnerClockOffset(db: Db, partnerId: string): Promise<number> {
  const [row] = await db.select({ offsetMs: partnerClocks.offsetMs }).from(partnerClocks).where(eq(partnerClocks.partnerId, partnerId));
  return row?.offsetMs ?? 0;
}

/** Moves one partner's clock `ms` forward; answers its new offset. */
export async function advancePartnerClock(db: Db, partnerId: string, ms: number): Promise<number> {
  const [row] = await db
    .insert(partnerClocks)
    .values({ partnerId, offsetMs: ms })
    .onConflictDoUpdate({ target: partnerClocks.partnerId, set: { offsetMs: sql`${partnerClocks.offsetMs} + ${ms}`, updatedAt: sql`now()` } })
    .returning({ offsetMs: partnerClocks.offsetMs });
  return row!.offsetMs;
}

/** Moves every partner's clock `ms` forward (in-process tests that stand in for "time passes"). */
export async function advanceAllPartnerClocks(db: Db, ms: number): Promise<void> {
  await db.execute(sql`
    INSERT INTO ${partnerClocks} (partner_id, offset_ms) SELECT ${partners.id}, ${ms} FROM ${partners}
    ON CONFLICT (partner_id) DO UPDATE SET offset_ms = ${partnerClocks}.offset_ms + EXCLUDED.offset_ms, updated_at = now()`);
}

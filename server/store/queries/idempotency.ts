// Idempotency keys: claim, read, complete, release. A claim is an insert that only one request can win.
import { and, eq, lt, or } from 'drizzle-orm';
import type { Db } from '../db';
import { idempotencyKeys } from '../schema/index';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim this old belongs to a process that died mid-request: it is released so the key is usable again. */
export const STALE_CLAIM_MS = 5 * 60 * 1000;

/** True when this request now owns the key. Keys older than 24 h, and claims abandoned by a dead process, are forgotten first. */
export async function claimKey(db: Db, partnerId: string, key: string, requestHash: string, now: Date): Promise<boolean> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.partnerId, partnerId),
        eq(idempotencyKeys.key, key),
        or(
          lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)),
          and(eq(idempotencyKeys.state, 'IN_PROGRESS'), lt(idempotencyKeys.lockedAt, new Date(now.getTime() - STALE_CLAIM_MS))),
        ),
      ),
    );
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ partnerId, key, requestHash, state: 'IN_PROGRESS', createdAt: now, lockedAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return claimed.length === 1;
}

export async function readKey(db: Db, partnerId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.partnerId, partnerId), eq(idempotencyKeys.key, key)));
  return row;
}

export async function completeKey(
  db: Db,
  partnerId: string,
  key: string,
  response: { status: number; headers: Record<string, string>; body: string },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'COMPLETE', responseStatus: response.status, responseHeaders: response.headers, responseBody: response.body })
    .where(and(eq(idempotencyKeys.partnerId, partnerId), eq(idempotencyKeys.key, key)));
}

/** Forgets a key whose request had no effect, so that the same key may be tried again. */
export async function releaseKey(db: Db, partnerId: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.partnerId, partnerId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, 'IN_PROGRESS')));
}

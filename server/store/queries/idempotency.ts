// Idempotency keys: a key is claimed by an insert inside the transaction of the request's effect, and completed
// with the stored response in that same transaction. Nobody else sees the claim before it commits: a concurrent
// duplicate waits on the row, then finds the stored response; a request that dies before commit leaves no row.
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { type Db, inTransaction } from '../db';
import { idempotencyKeys } from '../schema/index';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/** Documented window: a key answers with its stored response for 24 h, then it is forgotten (and cleaned up). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Claims committed as IN_PROGRESS only exist from older versions (claim and completion were separate steps). */
export const STALE_CLAIM_MS = 5 * 60 * 1000;

/** Forgets an expired key (or a legacy abandoned claim), so that it may be claimed again. */
export async function forgetExpiredKey(db: Db, partnerId: string, key: string, now: Date): Promise<void> {
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
}

/**
 * Inserts the claim in the calling transaction; true when this transaction now owns the key. On PostgreSQL an
 * insert that meets another transaction's uncommitted claim waits for it to commit (false) or roll back (true).
 */
export async function claimKeyInTx(tx: Db, partnerId: string, key: string, requestHash: string, now: Date): Promise<boolean> {
  const claimed = await tx
    .insert(idempotencyKeys)
    .values({ partnerId, key, requestHash, state: 'IN_PROGRESS', createdAt: now, lockedAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return claimed.length === 1;
}

/** Legacy helper (tests): a committed IN_PROGRESS claim, as an older version left behind when its process died. */
export async function claimKey(db: Db, partnerId: string, key: string, requestHash: string, now: Date): Promise<boolean> {
  return inTransaction(db, (tx) => claimKeyInTx(tx as unknown as Db, partnerId, key, requestHash, now));
}

export async function readKey(db: Db, partnerId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.partnerId, partnerId), eq(idempotencyKeys.key, key)));
  return row;
}

export async function completeKey(
  tx: Db,
  partnerId: string,
  key: string,
  response: { status: number; headers: Record<string, string>; body: string },
): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({ state: 'COMPLETE', responseStatus: response.status, responseHeaders: response.headers, responseBody: response.body })
    .where(and(eq(idempotencyKeys.partnerId, partnerId), eq(idempotencyKeys.key, key)));
}

/** Forgets a key whose request had no effect, so that the same key may be tried again. */
export async function releaseKey(db: Db, partnerId: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.partnerId, partnerId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, 'IN_PROGRESS')));
}

/** Deletes up to `batch` keys past their window; answers how many. The cleanup calls it until it answers < batch. */
export async function deleteExpiredKeys(db: Db, now: Date, batch: number): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const res = await db.execute(
    sql`DELETE FROM ${idempotencyKeys} WHERE ctid IN (SELECT ctid FROM ${idempotencyKeys} WHERE created_at < ${cutoff}::timestamptz LIMIT ${batch}) RETURNING 1`,
  );
  return rowsOf(res).length;
}

/** `execute` answers `{ rows }` on both drivers (node-postgres and PGlite), or an array on some versions. */
export function rowsOf<T = Record<string, unknown>>(res: unknown): T[] {
  return ((res as { rows?: T[] }).rows ?? (res as T[])) as T[];
}

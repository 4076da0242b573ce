// Chain transfer rows: queueing a payout, claiming due ones (FOR UPDATE SKIP LOCKED, with a lease), versioned writes, nonces per sender.
import { and, asc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { EvmChain } from '../../domain/chain/settings';
import { newId } from '../../ids';
import { type Db, inTransaction } from '../db';
import { chainNonces, chainTransfers } from '../schema/index';

export type ChainTransferRow = typeof chainTransfers.$inferSelect;
export type ChainTransferSet = Partial<Omit<typeof chainTransfers.$inferInsert, 'id' | 'version'>>;

/** Queues a payout (QUEUED, due now); a second call for the same transaction changes nothing. */
export async function queueChainTransfer(
  tx: Db,
  t: Pick<ChainTransferRow, 'partnerId' | 'blockchain' | 'kind' | 'transactionId' | 'asset' | 'token' | 'fromAddress' | 'toAddress' | 'value'> & Partial<Pick<ChainTransferRow, 'customerId' | 'amount'>>,
  now: Date,
): Promise<void> {
  await tx
    .insert(chainTransfers)
    .values({ id: newId(), ...t, status: 'QUEUED', nextCheckAt: now, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: [chainTransfers.kind, chainTransfers.transactionId] });
}

/**
 * Claims up to `limit` transfers due on `chains`: each is pushed `leaseMs` ahead and its version raised, so no other
 * process takes it meanwhile and anything a previous claimer still writes from its stale copy changes nothing.
 */
export async function claimDueTransfers(db: Db, chains: EvmChain[], now: Date, leaseMs: number, limit: number): Promise<ChainTransferRow[]> {
  if (chains.length === 0) return [];
  return inTransaction(db, async (tx) => {
    const due = await tx
      .select({ id: chainTransfers.id })
      .from(chainTransfers)
      .where(and(ne(chainTransfers.status, 'CONFIRMED'), lte(chainTransfers.nextCheckAt, now), inArray(chainTransfers.blockchain, chains)))
      .orderBy(asc(chainTransfers.nextCheckAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(chainTransfers)
      .set({ nextCheckAt: new Date(now.getTime() + leaseMs), version: sql`${chainTransfers.version} + 1` })
      .where(inArray(chainTransfers.id, due.map((d) => d.id)))
      .returning();
  });
}

/** The transfer locked for this DB transaction, if it is still at `version` (else someone else moved it: undefined). */
export async function lockTransferAt(tx: Db, id: string, version: number): Promise<ChainTransferRow | undefined> {
  const [row] = await tx.select().from(chainTransfers).where(eq(chainTransfers.id, id)).for('update');
  return row?.version === version ? row : undefined;
}

/** Writes `set` if the row is still at `version`; answers the new row, or undefined when a newer claim owns it. */
export async function updateTransferAt(db: Db, id: string, version: number, set: ChainTransferSet, now: Date): Promise<ChainTransferRow | undefined> {
  const [row] = await db
    .update(chainTransfers)
    .set({ ...set, updatedAt: now, version: sql`${chainTransfers.version} + 1` })
    .where(and(eq(chainTransfers.id, id), eq(chainTransfers.version, version)))
    .returning();
  return row;
}

export async function transferOf(db: Db, kind: ChainTransferRow['kind'], transactionId: string): Promise<ChainTransferRow | undefined> {
  const [row] = await db.select().from(chainTransfers).where(and(eq(chainTransfers.kind, kind), eq(chainTransfers.transactionId, transactionId)));
  return row;
}

/**
 * The next nonce of `address` on `chain`, taken under the row's lock: the row starts at the node's pending nonce on first
 * use, and never stays below it (a transaction the operator sent from the treasury by hand took those nonces).
 */
export async function allocateNonce(tx: Db, chain: EvmChain, address: string, nodePending: number, now: Date): Promise<number> {
  await tx.insert(chainNonces).values({ blockchain: chain, address, nextNonce: nodePending, updatedAt: now }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(chainNonces)
    .where(and(eq(chainNonces.blockchain, chain), eq(chainNonces.address, address)))
    .for('update');
  const nonce = Math.max(row!.nextNonce, nodePending);
  await tx
    .update(chainNonces)
    .set({ nextNonce: nonce + 1, updatedAt: now })
    .where(and(eq(chainNonces.blockchain, chain), eq(chainNonces.address, address)));
  return nonce;
}

/** The next nonce the service would use for `address` (undefined before its first payout). */
export async function nextNonceOf(db: Db, chain: EvmChain, address: string): Promise<number | undefined> {
  const [row] = await db.select().from(chainNonces).where(and(eq(chainNonces.blockchain, chain), eq(chainNonces.address, address)));
  return row?.nextNonce;
}

/** Base units of `token` signed from `from` and not yet in a block (other than `except`): the treasury's balance does not show them yet. */
export async function unminedUnits(db: Db, chain: EvmChain, from: string, token: string, except: string): Promise<bigint> {
  const [row] = await db
    .select({ sum: sql<string | null>`sum(${chainTransfers.amount})::text` })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.blockchain, chain),
        eq(chainTransfers.fromAddress, from),
        eq(chainTransfers.token, token),
        inArray(chainTransfers.status, ['SIGNED', 'SENT']),
        ne(chainTransfers.id, except),
      ),
    );
  return BigInt(row?.sum ?? '0');
}

export interface ChainWaitSummary {
  blockchain: EvmChain;
  /** Transfers not yet confirmed, by status. */
  open: Record<string, number>;
  /** Transfers held back, by reason, with the latest one's detail. */
  waiting: { reason: string; count: number; detail: string | null }[];
}

/** Per chain: what is in flight and what waits, and why (for /readyz and the ops CLI). */
export async function chainWaits(db: Db): Promise<ChainWaitSummary[]> {
  const open = await db
    .select({ blockchain: chainTransfers.blockchain, status: chainTransfers.status, n: sql<number>`count(*)::int` })
    .from(chainTransfers)
    .where(ne(chainTransfers.status, 'CONFIRMED'))
    .groupBy(chainTransfers.blockchain, chainTransfers.status);
  const waiting = await db
    .select({
      blockchain: chainTransfers.blockchain,
      reason: chainTransfers.waitReason,
      n: sql<number>`count(*)::int`,
      detail: sql<string | null>`(array_agg(${chainTransfers.lastError} ORDER BY ${chainTransfers.updatedAt} DESC))[1]`,
    })
    .from(chainTransfers)
    .where(and(ne(chainTransfers.status, 'CONFIRMED'), sql`${chainTransfers.waitReason} IS NOT NULL`))
    .groupBy(chainTransfers.blockchain, chainTransfers.waitReason);
  const out = new Map<EvmChain, ChainWaitSummary>();
  const of = (b: EvmChain) => out.get(b) ?? out.set(b, { blockchain: b, open: {}, waiting: [] }).get(b)!;
  for (const r of open) of(r.blockchain).open[r.status] = r.n;
  for (const r of waiting) of(r.blockchain).waiting.push({ reason: r.reason!, count: r.n, detail: r.detail });
  return [...out.values()];
}


// Deposit rows and each chain's watch cursor: the leader's lease (taken by compare-and-set), the cursor's move, a deposit recorded once.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { EvmChain } from '../../domain/chain/settings';
import { newId } from '../../ids';
import type { Db } from '../db';
import { chainCursors, chainDeposits } from '../schema/index';

export type ChainCursorRow = typeof chainCursors.$inferSelect;
export type ChainDepositRow = typeof chainDeposits.$inferSelect;

/** Creates the chain's cursor at `scannedBlock` unless it exists (the first watcher of a chain starts near the head). */
export async function initCursor(db: Db, blockchain: EvmChain, scannedBlock: bigint, now: Date): Promise<void> {
  await db.insert(chainCursors).values({ blockchain, scannedBlock, updatedAt: now }).onConflictDoNothing();
}

/**
 * Makes `owner` the chain's watcher until `now + leaseMs` when it already is, or when nobody's lease is running; answers
 * the cursor then, or undefined while another process leads (or before the cursor exists).
 */
export async function leadCursor(db: Db, blockchain: EvmChain, owner: string, now: Date, leaseMs: number): Promise<ChainCursorRow | undefined> {
  const [row] = await db
    .update(chainCursors)
    .set({ leader: owner, leaseUntil: new Date(now.getTime() + leaseMs), updatedAt: now })
    .where(and(eq(chainCursors.blockchain, blockchain), or(eq(chainCursors.leader, owner), isNull(chainCursors.leaseUntil), lt(chainCursors.leaseUntil, now))))
    .returning();
  return row;
}

/** The cursor locked for this DB transaction if `owner` still leads and it is still at `scannedBlock` (else undefined). */
export async function lockCursorAt(tx: Db, blockchain: EvmChain, owner: string, scannedBlock: bigint): Promise<ChainCursorRow | undefined> {
  const [row] = await tx.select().from(chainCursors).where(eq(chainCursors.blockchain, blockchain)).for('update');
  return row?.leader === owner && row.scannedBlock === scannedBlock ? row : undefined;
}

export async function advanceCursor(tx: Db, blockchain: EvmChain, scannedBlock: bigint, now: Date): Promise<void> {
  await tx.update(chainCursors).set({ scannedBlock, updatedAt: now }).where(eq(chainCursors.blockchain, blockchain));
}

/** Lets the lease go (a process that stops), so another process need not wait for it to run out. */
export async function releaseCursor(db: Db, blockchain: EvmChain, owner: string, now: Date): Promise<void> {
  await db
    .update(chainCursors)
    .set({ leader: null, leaseUntil: null, updatedAt: now })
    .where(and(eq(chainCursors.blockchain, blockchain), eq(chainCursors.leader, owner)));
}

export async function cursorOf(db: Db, blockchain: EvmChain): Promise<ChainCursorRow | undefined> {
  const [row] = await db.select().from(chainCursors).where(eq(chainCursors.blockchain, blockchain));
  return row;
}

/** Records a deposit; undefined when that log was recorded before (it is then not credited again). */
export async function insertDeposit(tx: Db, d: Omit<ChainDepositRow, 'id' | 'createdAt'>, now: Date): Promise<ChainDepositRow | undefined> {
  const [row] = await tx
    .insert(chainDeposits)
    .values({ id: newId(), ...d, createdAt: now })
    .onConflictDoNothing({ target: [chainDeposits.blockchain, chainDeposits.transactionHash, chainDeposits.logIndex] })
    .returning();
  return row;
}

/** Deposits credited to `partnerId`'s customers, newest first (ops and tests). */
export function depositsOf(db: Db, partnerId: string, customerId?: string): Promise<ChainDepositRow[]> {
  return db
    .select()
    .from(chainDeposits)
    .where(and(eq(chainDeposits.partnerId, partnerId), customerId ? eq(chainDeposits.customerId, customerId) : sql`true`))
    .orderBy(sql`${chainDeposits.id} desc`);
}

// Ledger writes and reads: a movement's entries and balance updates in the caller's transaction; a customer balance can never go below zero.
import { and, asc, eq, sql } from 'drizzle-orm';
import { assertBalanced, type Entry, mayGoNegative } from '../../domain/ledger';
import { AppError } from '../../domain/errors';
import { newId } from '../../ids';
import type { Db } from '../db';
import { balances, entries as entriesTable, movements } from '../schema/index';

const CHECK_VIOLATION = '23514';

function isCheckViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === CHECK_VIOLATION) return true;
  }
  return false;
}

/**
 * Writes one movement. Balances are updated in a fixed order (so two movements never deadlock), each with a single
 * UPDATE whose CHECK refuses a negative customer balance: concurrent debits serialise on the row and the one that
 * would overdraw fails, whatever the interleaving.
 */
export async function postMovement(tx: Db, m: { partnerId: string; kind: string; reference?: string; entries: Entry[] }, at: Date): Promise<string> {
  assertBalanced(m.entries);
  const movementId = newId();
  await tx.insert(movements).values({ id: movementId, partnerId: m.partnerId, kind: m.kind, reference: m.reference ?? null, createdAt: at });
  await tx.insert(entriesTable).values(
    m.entries.map((e) => ({ id: newId(), partnerId: m.partnerId, movementId, account: e.account, blockchain: e.blockchain, asset: e.asset, amount: e.amount, createdAt: at })),
  );
  const ordered = [...m.entries].sort((a, b) => `${a.account}|${a.blockchain}|${a.asset}`.localeCompare(`${b.account}|${b.blockchain}|${b.asset}`));
  for (const e of ordered) {
    // The row first (at zero), then the change: a CHECK is evaluated on an INSERT's proposed row even when it conflicts,
    // so an upsert of a debit would be refused before it could add to the existing balance.
    await tx
      .insert(balances)
      .values({ partnerId: m.partnerId, account: e.account, blockchain: e.blockchain, asset: e.asset, balance: '0', allowNegative: mayGoNegative(e.account), updatedAt: at })
      .onConflictDoNothing();
    try {
      await tx
        .update(balances)
        .set({ balance: sql`${balances.balance} + ${e.amount}::numeric`, updatedAt: at })
        .where(and(eq(balances.partnerId, m.partnerId), eq(balances.account, e.account), eq(balances.blockchain, e.blockchain), eq(balances.asset, e.asset)));
    } catch (err) {
      if (isCheckViolation(err)) {
        throw new AppError('INSUFFICIENT_BALANCE', `Not enough ${e.asset} on ${e.blockchain} for this movement.`, {
          extra: { asset: e.asset, blockchain: e.blockchain },
        });
      }
      throw err;
    }
  }
  return movementId;
}

export async function accountBalances(db: Db, partnerId: string, account: string) {
  return db
    .select({ blockchain: balances.blockchain, asset: balances.asset, balance: balances.balance })
    .from(balances)
    .where(and(eq(balances.partnerId, partnerId), eq(balances.account, account)))
    .orderBy(asc(balances.blockchain), asc(balances.asset));
}

/** Per (blockchain, asset): the sum of all entries of the partner; zero everywhere when the ledger is balanced. */
export async function ledgerSums(db: Db, partnerId: string) {
  return db
    .select({ blockchain: entriesTable.blockchain, asset: entriesTable.asset, sum: sql<string>`sum(${entriesTable.amount})::text` })
    .from(entriesTable)
    .where(eq(entriesTable.partnerId, partnerId))
    .groupBy(entriesTable.blockchain, entriesTable.asset);
}

/** Per account, balance minus the sum of its entries: zero everywhere when balances are consistent. */
export async function balanceDrift(db: Db, partnerId: string) {
  const rows = await db.execute(sql`
    SELECT b.account, b.blockchain, b.asset, (b.balance - COALESCE(SUM(e.amount), 0))::text AS drift
    FROM ledger_balances b
    LEFT JOIN ledger_entries e ON e.partner_id = b.partner_id AND e.account = b.account AND e.blockchain = b.blockchain AND e.asset = b.asset
    WHERE b.partner_id = ${partnerId}
    GROUP BY b.account, b.blockchain, b.asset, b.balance`);
  return ((rows as unknown as { rows?: unknown[] }).rows ?? (rows as unknown as unknown[])) as { account: string; blockchain: string; asset: string; drift: string }[];
}

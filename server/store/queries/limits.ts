// Limit overrides and reservations: what a customer may move, and what it has used in the current UTC day and month.
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import { newId } from '../../ids';
import type { Db } from '../db';
import { type Rider, reusable } from '../reusable';
import { limitOverrides, limitReservations } from '../schema/index';

export async function getOverride(db: Db, partnerId: string, customerId: string) {
  const [row] = await db
    .select()
    .from(limitOverrides)
    .where(and(eq(limitOverrides.partnerId, partnerId), eq(limitOverrides.customerId, customerId)));
  return row;
}

export async function putOverride(tx: Db, partnerId: string, customerId: string, set: { single: string | null; daily: string | null; monthly: string | null }, at: Date) {
  await tx
    .insert(limitOverrides)
    .values({ partnerId, customerId, ...set, updatedAt: at })
    .onConflictDoUpdate({ target: [limitOverrides.partnerId, limitOverrides.customerId], set: { ...set, updatedAt: at } });
}

type Override = { single: string | null; daily: string | null; monthly: string | null };
/** The customer's override (if any) and its usage since each window start, in one statement (a transaction's limit check). */
const overrideAndUsageQuery = reusable<{ partnerId: string; customerId: string; dayStart: string; monthStart: string }, { override: Override | string | null; daily: string; monthly: string }[]>(
  'override_and_usage',
  (db, p) =>
    db
      .select({
        override: sql<Override | string | null>`(
        SELECT json_build_object('single', single::text, 'daily', daily::text, 'monthly', monthly::text) FROM ${limitOverrides}
        WHERE ${limitOverrides.partnerId} = ${p('partnerId')} AND ${limitOverrides.customerId} = ${p('customerId')})`,
        daily: sql<string>`COALESCE(SUM(${limitReservations.amountUsd}) FILTER (WHERE ${limitReservations.createdAt} >= ${p('dayStart')}::timestamptz), 0)::text`,
        monthly: sql<string>`COALESCE(SUM(${limitReservations.amountUsd}), 0)::text`,
      })
      .from(limitReservations)
      .where(
        and(
          eq(limitReservations.partnerId, p('partnerId')),
          eq(limitReservations.customerId, p('customerId')),
          isNull(limitReservations.releasedAt),
          gte(limitReservations.createdAt, p('monthStart')),
        ),
      ),
);

export async function overrideAndUsage(db: Db, partnerId: string, customerId: string, windows: { dayStart: Date; monthStart: Date }) {
  const [row] = await overrideAndUsageQuery(db, { partnerId, customerId, dayStart: windows.dayStart.toISOString(), monthStart: windows.monthStart.toISOString() });
  const o = row?.override;
  const override = typeof o === 'string' ? (JSON.parse(o) as Override) : (o ?? undefined);
  return { override, used: { daily: row?.daily ?? '0', monthly: row?.monthly ?? '0' } };
}

/** A reservation's row, to ride along the transaction's own insert (see insertTransaction) or be inserted alone. */
export function reservationInsert(r: { partnerId: string; customerId: string; amountUsd: string; reference: string }, at: Date): Rider {
  return { table: limitReservations, rows: [{ id: newId(), ...r, createdAt: at }] };
}

export async function insertReservation(tx: Db, r: { partnerId: string; customerId: string; amountUsd: string; reference: string }, at: Date): Promise<string> {
  const id = newId();
  await tx.insert(limitReservations).values({ id, ...r, createdAt: at });
  return id;
}

export async function releaseReservation(tx: Db, partnerId: string, reference: string, at: Date): Promise<void> {
  await tx
    .update(limitReservations)
    .set({ releasedAt: at })
    .where(and(eq(limitReservations.partnerId, partnerId), eq(limitReservations.reference, reference), isNull(limitReservations.releasedAt)));
}

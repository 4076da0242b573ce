// Limit overrides and reservations: what a customer may move, and what it has used in the current UTC day and month.
import { and, eq, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import { newId } from '../../ids';
import type { Db } from '../db';
import { type Rider, reusable } from '../reusable';
import { limitOverrides, limitReservations, limitUsage } from '../schema/index';

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

/** A customer's limit override and what it has used since the start of the day and of the month (USD, unreleased reservations). */
export interface LimitUsage {
  override: { single: string | null; daily: string | null; monthly: string | null } | undefined;
  used: { daily: string; monthly: string };
}
type UsageJson = { override: LimitUsage['override'] | null; daily: string; monthly: string };

/**
 * `ramp_limit_usage(partner, customer, dayStart, monthStart)` (migration 0011), the one definition of a customer's usage
 * for its limit check: here alone, and in lockCustomerWithUsage on the row it has just locked.
 */
export const limitUsageSql = (partnerId: SQLWrapper, customerId: SQLWrapper, dayStart: SQLWrapper, monthStart: SQLWrapper) =>
  sql<UsageJson | string>`ramp_limit_usage(${partnerId}, ${customerId}, ${dayStart}::timestamptz, ${monthStart}::timestamptz)`;

/**
 * `ramp_limit_usage_locked(partner, customer, dayStart, monthStart, add)` (migration 0012): the same answer from the
 * customer's running totals, adding `add` (the caller's own reservation, already inserted) to them. Only on a customer
 * row locked in the same transaction (lockCustomerWithUsage, reserveLimit's check): the lock serialises the totals' writers.
 */
export const lockedLimitUsageSql = (partnerId: SQLWrapper, customerId: SQLWrapper, dayStart: SQLWrapper, monthStart: SQLWrapper, add: SQLWrapper) =>
  sql<UsageJson | string>`ramp_limit_usage_locked(${partnerId}, ${customerId}, ${dayStart}::timestamptz, ${monthStart}::timestamptz, ${add}::numeric)`;

/** What ramp_limit_usage answered (node-postgres and PGlite parse json; a string is parsed here). */
export function limitUsageOf(value: UsageJson | string): LimitUsage {
  const u = typeof value === 'string' ? (JSON.parse(value) as UsageJson) : value;
  return { override: u.override ?? undefined, used: { daily: u.daily, monthly: u.monthly } };
}

const usageQuery = reusable<{ partnerId: string; customerId: string; dayStart: string; monthStart: string }, { usage: UsageJson | string }[]>('override_and_usage', (db, p) =>
  db.select({ usage: limitUsageSql(p('partnerId'), p('customerId'), p('dayStart'), p('monthStart')) }).from(sql`(SELECT 1) AS one`),
);

/** The customer's override (if any) and its usage since each window start, in one statement (a transaction's limit check). */
export async function overrideAndUsage(db: Db, partnerId: string, customerId: string, windows: { dayStart: Date; monthStart: Date }): Promise<LimitUsage> {
  const [row] = await usageQuery(db, { partnerId, customerId, dayStart: windows.dayStart.toISOString(), monthStart: windows.monthStart.toISOString() });
  return limitUsageOf(row!.usage);
}

const lockedUsageQuery = reusable<{ partnerId: string; customerId: string; dayStart: string; monthStart: string }, { usage: UsageJson | string }[]>('locked_override_and_usage', (db, p) =>
  db.select({ usage: lockedLimitUsageSql(p('partnerId'), p('customerId'), p('dayStart'), p('monthStart'), sql`0`) }).from(sql`(SELECT 1) AS one`),
);

/** overrideAndUsage for a customer whose row `tx` holds locked, from its running totals (ramp_limit_usage_locked). */
export async function lockedOverrideAndUsage(tx: Db, partnerId: string, customerId: string, windows: { dayStart: Date; monthStart: Date }): Promise<LimitUsage> {
  const [row] = await lockedUsageQuery(tx, { partnerId, customerId, dayStart: windows.dayStart.toISOString(), monthStart: windows.monthStart.toISOString() });
  return limitUsageOf(row!.usage);
}

/**
 * A reservation made after its limit check (reserveLimit), added to the customer's running totals of the windows that
 * hold its instant; the customer's row is locked in `tx`. Totals of other windows are left alone: the next check
 * recomputes them from the reservations, this one included.
 */
export async function addToLimitUsage(tx: Db, r: { partnerId: string; customerId: string; amountUsd: string }, at: Date): Promise<void> {
  await tx
    .update(limitUsage)
    .set({
      daily: sql`${limitUsage.daily} + CASE WHEN ${at.toISOString()}::timestamptz >= ${limitUsage.dayStart} THEN ${r.amountUsd}::numeric ELSE 0 END`,
      monthly: sql`${limitUsage.monthly} + CASE WHEN ${at.toISOString()}::timestamptz >= ${limitUsage.monthStart} THEN ${r.amountUsd}::numeric ELSE 0 END`,
    })
    .where(and(eq(limitUsage.partnerId, r.partnerId), eq(limitUsage.customerId, r.customerId)));
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

// Transaction limits as the service applies them: the customer's limits and usage, and the atomic check-and-reserve the transaction endpoints call.
import { Decimal } from 'decimal.js';
import { AppError, invalid, notFound } from '../domain/errors';
import { breachedLimit, ceilingIssues, type LimitSet, limitSetWith, limitWindows, type TransactionLimits, transactionLimits } from '../domain/limits';
import { CURRENCIES, type Currency } from '../domain/money';
import type { RateSource } from '../domain/rates/rate-source';
import type { Clock } from '../clock';
import { type Db, inTransaction } from '../store/db';
import type { Rider } from '../store/reusable';
import { type CustomerRow, lockCustomer } from '../store/queries/customers';
import { addToLimitUsage, getOverride, type LimitUsage, lockedOverrideAndUsage, overrideAndUsage, putOverride, reservationInsert } from '../store/queries/limits';

export async function limitSetOf(db: Db, row: CustomerRow): Promise<LimitSet> {
  return limitSetWith(row, await getOverride(db, row.partnerId, row.id));
}

export async function customerLimits(db: Db, deps: { clock: Clock }, row: CustomerRow): Promise<TransactionLimits> {
  const { override, used } = await overrideAndUsage(db, row.partnerId, row.id, limitWindows(deps.clock.now()));
  return transactionLimits(limitSetWith(row, override), used);
}

/** Mid rates per currency into USD at one instant: read before a DB transaction opens, so no rate source is called inside it. */
export type UsdRates = Record<Currency, string>;

export async function usdRates(rates: RateSource, at: Date): Promise<UsdRates> {
  const mids = await Promise.all(CURRENCIES.map(async (c) => [c, c === 'USD' ? '1' : await rates.midRate(c, 'USD', at)] as const));
  return Object.fromEntries(mids) as UsdRates;
}

/** An amount in USD-equivalent at the mid rate, rounded up to the cent (limits are never under-counted). */
export function toUsd(usd: UsdRates, currency: Currency, amount: string): string {
  return new Decimal(amount).times(usd[currency]).toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2);
}

/**
 * Checks the amount against single, daily and monthly limits and reserves it, in the caller's transaction. The customer row
 * is locked first, so two concurrent transactions that each fit alone are counted one after the other: the second sees the
 * first's reservation and is refused if together they break a limit.
 */
export async function reserveLimit(
  tx: Db,
  deps: { clock: Clock },
  c: { partnerId: string; customerId: string; /** The customer row, when the caller already locked it in `tx` (no second lock). */ locked?: CustomerRow },
  amountUsd: string,
  reference: string,
): Promise<void> {
  const reservation = await checkLimit(tx, deps, c, amountUsd, reference);
  await tx.insert(reservation.table).values(reservation.rows as never);
  const [row] = reservation.rows as { partnerId: string; customerId: string; createdAt: Date }[];
  await addToLimitUsage(tx, { partnerId: row!.partnerId, customerId: row!.customerId, amountUsd }, row!.createdAt);
}

/** reserveLimit's check: the customer locked (unless the caller did), its usage, the limits; answers the reservation to insert. */
async function checkLimit(
  tx: Db,
  deps: { clock: Clock },
  c: { partnerId: string; customerId: string; locked?: CustomerRow & { usage?: LimitUsage } },
  amountUsd: string,
  reference: string,
): Promise<Rider> {
  const locked = c.locked && c.locked.id === c.customerId && c.locked.partnerId === c.partnerId ? c.locked : undefined;
  const row = locked ?? (await lockCustomer(tx, c.partnerId, c.customerId));
  if (!row) throw new AppError('NOT_FOUND', 'Customer not found');
  const now = deps.clock.now();
  // The usage read with the lock (lockCustomerWithUsage) when there is one: its windows are those of a moment earlier,
  // which can only count more (a day or month that has just ended), never less.
  const { override, used } = locked?.usage ?? (await lockedOverrideAndUsage(tx, row.partnerId, row.id, limitWindows(now)));
  refuseBreach(limitSetWith(row, override), used, amountUsd);
  return reservationInsert({ partnerId: row.partnerId, customerId: row.id, amountUsd, reference }, now);
}

/**
 * The limit check of a transaction whose reservation is already written in `tx`, locked afterwards with its usage
 * (lockCustomerWithUsage, windows of the reservation's own instant): that usage counts the reservation, which is taken
 * out again before the check. The transaction's writes go first and the customer's lock last, so the lock, which every
 * other transaction of that customer waits for, is held from the lock statement to the COMMIT alone.
 */
export function checkReservedLimit(locked: CustomerRow & { usage: LimitUsage }, amountUsd: string): void {
  const { override, used } = locked.usage;
  const before = { daily: new Decimal(used.daily).minus(amountUsd).toFixed(2), monthly: new Decimal(used.monthly).minus(amountUsd).toFixed(2) };
  refuseBreach(limitSetWith(locked, override), before, amountUsd);
}

function refuseBreach(limits: LimitSet, used: LimitUsage['used'], amountUsd: string): void {
  const breach = breachedLimit(limits, used, amountUsd);
  if (!breach) return;
  throw new AppError(
    'TRANSACTION_LIMIT_EXCEEDED',
    `This transaction (${amountUsd} USD-equivalent) exceeds the ${breach.limit} limit of ${breach.max} USD; ${breach.remaining} USD remains.`,
    { extra: { limit: breach.limit, max: breach.max, remaining: breach.remaining, amountUsd } },
  );
}

/**
 * The partner sets a customer's limits (null: back to the default), each at most the service's ceiling for the customer's
 * type (`ceilings`); one transaction, under the customer's lock. Answers the limits now.
 */
export async function setCustomerLimits(
  db: Db,
  deps: { clock: Clock; ceilings: Record<CustomerRow['type'], string> },
  partnerId: string,
  customerId: string,
  body: { single?: string | null; daily?: string | null; monthly?: string | null },
): Promise<TransactionLimits> {
  return inTransaction(db, async (tx) => {
    const row = await lockCustomer(tx, partnerId, customerId);
    if (!row) throw notFound('Customer');
    const over = ceilingIssues(body, deps.ceilings[row.type]);
    if (over.length) throw invalid(over);
    await putOverride(tx, partnerId, customerId, { single: body.single ?? null, daily: body.daily ?? null, monthly: body.monthly ?? null }, deps.clock.now());
    return customerLimits(tx, deps, row);
  });
}


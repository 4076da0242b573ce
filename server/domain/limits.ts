// Transaction limits in USD-equivalent: the defaults by customer type (single / daily / monthly) and what remains.
import { Decimal } from 'decimal.js';

export interface LimitSet {
  single: string;
  daily: string;
  monthly: string;
}

export const defaultLimits: Record<'INDIVIDUAL' | 'BUSINESS', LimitSet> = {
  INDIVIDUAL: { single: '1000.00', daily: '2000.00', monthly: '5000.00' },
  BUSINESS: { single: '100000.00', daily: '500000.00', monthly: '1000000.00' },
};

/** The customer's limits: its type's defaults, each replaced by the partner's override where one is set. */
export function limitSetWith(row: { type: 'INDIVIDUAL' | 'BUSINESS' }, o: { single: string | null; daily: string | null; monthly: string | null } | undefined): LimitSet {
  const base = defaultLimits[row.type];
  return { single: o?.single ?? base.single, daily: o?.daily ?? base.daily, monthly: o?.monthly ?? base.monthly };
}

/**
 * The highest any limit of a customer of each type may be set to (USD-equivalent), whatever a partner asks: a partner's
 * mistake (or a compromised key) cannot lift one customer to 10^15. RAMP_LIMIT_CEILING_INDIVIDUAL / _BUSINESS.
 */
export const DEFAULT_LIMIT_CEILINGS: Readonly<Record<'INDIVIDUAL' | 'BUSINESS', string>> = { INDIVIDUAL: '100000.00', BUSINESS: '10000000.00' };

/** The limits of an override above the ceiling of the customer's type, each with its message (empty when none is). */
export function ceilingIssues(override: Partial<Record<LimitName, string | null>>, ceiling: string): { path: LimitName; message: string; code: 'ABOVE_MAXIMUM' }[] {
  return (['single', 'daily', 'monthly'] as const).flatMap((name) => {
    const v = override[name];
    return v != null && new Decimal(v).gt(ceiling) ? [{ path: name, message: `must be at most ${new Decimal(ceiling).toFixed(2)}, this service's ceiling for the customer's type`, code: 'ABOVE_MAXIMUM' as const }] : [];
  });
}

export interface TransactionLimits {
  single: { max: string };
  daily: { max: string; used: string; remaining: string };
  monthly: { max: string; used: string; remaining: string };
}

const remaining = (max: string, used: string): string => Decimal.max(new Decimal(max).minus(used), 0).toFixed(2);

/** Nothing used in a window (the database's `0` or `0.00`): the usual case of a customer read. */
const NOTHING_USED = /^0(\.0+)?$/;
/** A limit as the database and the defaults write it (two decimals, not negative): nothing to compute to show it. */
const CANONICAL = /^\d+\.\d\d$/;

/** A window's usage: with nothing used the limit itself remains, as a string (no decimal.js on a customer read's hot path). */
function windowUsage(max: string, used: string): { max: string; used: string; remaining: string } {
  if (NOTHING_USED.test(used) && CANONICAL.test(max)) return { max, used: '0.00', remaining: max };
  return { max, used: new Decimal(used).toFixed(2), remaining: remaining(max, used) };
}

export function transactionLimits(limits: LimitSet, used: { daily: string; monthly: string }): TransactionLimits {
  return { single: { max: limits.single }, daily: windowUsage(limits.daily, used.daily), monthly: windowUsage(limits.monthly, used.monthly) };
}

export type LimitName = 'single' | 'daily' | 'monthly';

/** The first limit an amount would break, with what remains of it; undefined when it fits all three. */
export function breachedLimit(limits: LimitSet, used: { daily: string; monthly: string }, amountUsd: string): { limit: LimitName; max: string; remaining: string } | undefined {
  const amount = new Decimal(amountUsd);
  if (amount.gt(limits.single)) return { limit: 'single', max: limits.single, remaining: limits.single };
  const daily = remaining(limits.daily, used.daily);
  if (amount.gt(daily)) return { limit: 'daily', max: limits.daily, remaining: daily };
  const monthly = remaining(limits.monthly, used.monthly);
  if (amount.gt(monthly)) return { limit: 'monthly', max: limits.monthly, remaining: monthly };
  return undefined;
}

/** Start of the UTC day and of the UTC calendar month containing `at`: the windows limits are counted in. */
export function limitWindows(at: Date): { dayStart: Date; monthStart: Date } {
  return {
    dayStart: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())),
    monthStart: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
  };
}

// The service's fee schedule (basis points plus a flat amount, by direction and rail; lock premiums), its default, and parsing an override from config.
import type { FieldIssue } from './errors';
import { AppError } from './errors';
import { amountErrorCode, type Currency, Decimal, FIAT, RAILS, type Rail, STABLECOINS, decimalsOf, parseDecimal, railFiat, unreachable } from './money';

/** `onRamp`: fiat → stablecoin; `offRamp`: stablecoin → fiat. Named as the partner-fee resource names them. */
export const DIRECTIONS = ['onRamp', 'offRamp'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** Locked-quote windows. `30s` is the default and free (spec v2.2.0); longer locks cost a premium. */
export const TIME_LOCKS = ['30s', '1m', '5m'] as const;
export type TimeLock = (typeof TIME_LOCKS)[number];
export type PaidTimeLock = Exclude<TimeLock, '30s'>;

export function timeLockSeconds(lock: TimeLock): number {
  switch (lock) {
    case '30s':
      return 30;
    case '1m':
      return 60;
    case '5m':
      return 300;
    default:
      return unreachable(lock);
  }
}

/**
 * One fee: `rate` in basis points of the base target amount, plus `flatAmount` in the quote's target
 * currency. Both strings, as on the wire.
 */
export interface FeeRule {
  rate: string;
  flatAmount: string;
}

/**
 * Where a flat amount lives. A fee is charged in the quote's target currency, and a flat amount only means
 * something in a currency, so the schedule is keyed so that each entry has exactly one:
 * - off-ramp: the target is the fiat, and the rail fixes it (PIX → BRL, SEPA → EUR, SWIFT/ACH/FEDWIRE → USD),
 *   so `service.offRamp.PIX.flatAmount` is in BRL;
 * - on-ramp: the target is a stablecoin, USDC or USDT; both are USD-pegged with 6 decimals, so one figure
 *   serves both (0.50 USDT and 0.50 USDC differ by a few hundredths of a cent): it is "in the target stablecoin".
 * Keying by target currency instead would let an entry contradict its rail (PIX paying out EUR), which the
 * pair rules forbid anyway.
 */
export interface FeeSchedule {
  service: Record<Direction, Record<Rail, FeeRule>>;
  /** Extra basis points on the service fee for the longer locks. `30s` is free by contract, so it has no entry. */
  lockPremiumBps: Record<PaidTimeLock, string>;
}

/**
 * Defaults, chosen to sit near what ramps charge today: card-free instant rails (PIX, SEPA Instant, ACH)
 * cost half a percent; wires (SWIFT, FEDWIRE) add a flat amount that covers the correspondent-bank charges
 * the service pays on each one; off-ramps cost a little more than on-ramps because the service fronts the fiat.
 */
// Each rail's rule as [basis points, flat amount], in the order the rails are listed.
const rules = (rows: Record<Rail, [rate: string, flatAmount: string]>) =>
  Object.fromEntries(Object.entries(rows).map(([rail, [rate, flatAmount]]) => [rail, { rate, flatAmount }])) as Record<Rail, FeeRule>;

export const defaultFeeSchedule: FeeSchedule = {
  service: {
    onRamp: rules({ PIX: ['50', '0.000000'], SEPA: ['50', '0.000000'], ACH: ['50', '0.000000'], FEDWIRE: ['50', '5.000000'], SWIFT: ['60', '10.000000'] }),
    offRamp: rules({ PIX: ['60', '0.50'], SEPA: ['60', '0.50'], ACH: ['60', '1.00'], FEDWIRE: ['60', '10.00'], SWIFT: ['80', '20.00'] }),
  },
  lockPremiumBps: { '1m': '10', '5m': '30' },
};

/** Basis points: up to 2 decimals ("12.5" bps is a real price), at most 10000 (100 %). */
export const BPS_DECIMALS = 2;
const MAX_BPS = new Decimal(10000);

/** Decimals a service flat amount may carry for this direction and rail (see `FeeSchedule`). */
export function serviceFlatDecimals(direction: Direction, rail: Rail): number {
  switch (direction) {
    case 'onRamp':
      return minDecimals(STABLECOINS);
    case 'offRamp':
      return decimalsOf(railFiat(rail));
    default:
      return unreachable(direction);
  }
}

/**
 * Decimals a partner's flat amount may carry. A partner fee has one flat amount per direction and no rail,
 * so an off-ramp flat of "0.50" is 0.50 of whichever fiat the quote pays out; it must fit every fiat's
 * decimals (all have 2), and an on-ramp flat every stablecoin's (6).
 */
export function partnerFlatDecimals(direction: Direction): number {
  switch (direction) {
    case 'onRamp':
      return minDecimals(STABLECOINS);
    case 'offRamp':
      return minDecimals(FIAT);
    default:
      return unreachable(direction);
  }
}

/** The fewest decimals among `cs`: a flat amount that must fit any of them fits this. */
const minDecimals = (cs: readonly Currency[]): number => cs.map(decimalsOf).reduce((a, b) => (b < a ? b : a));

/** Basis points added to the service rate for a lock window; "0" for the free `30s`. */
export function lockPremiumBps(schedule: FeeSchedule, lock: TimeLock): string {
  switch (lock) {
    case '30s':
      return '0';
    case '1m':
    case '5m':
      return schedule.lockPremiumBps[lock];
    default:
      return unreachable(lock);
  }
}

/**
 * Checks one `{rate, flatAmount}`; pushes issues under `path` and returns the rule normalised
 * (rate as its shortest decimal, flat amount at exactly `flatDecimals` places), or undefined.
 */
export function parseFeeRule(input: unknown, flatDecimals: number, path: string, issues: FieldIssue[]): FeeRule | undefined {
  if (!isPlainObject(input)) {
    issues.push({ path, message: 'must be an object {"rate": "<basis points>", "flatAmount": "<amount>"}', code: input === undefined ? 'REQUIRED' : 'INVALID_TYPE' });
    return undefined;
  }
  for (const key of Object.keys(input)) {
    if (key !== 'rate' && key !== 'flatAmount') issues.push({ path: `${path}.${key}`, message: 'unknown field (expected rate and flatAmount)', code: 'UNKNOWN_FIELD' });
  }
  const before = issues.length;
  const rate = parseDecimal(input.rate, { decimals: BPS_DECIMALS, allowZero: true, noun: 'basis points' });
  if (!rate.ok) issues.push({ path: `${path}.rate`, message: `${rate.message} (basis points, e.g. "50" for 0.5 %)`, code: amountErrorCode[rate.error] });
  else if (rate.value.gt(MAX_BPS)) issues.push({ path: `${path}.rate`, message: 'must be at most 10000 basis points (100 %)', code: 'ABOVE_MAXIMUM' });
  const flat = parseDecimal(input.flatAmount, { decimals: flatDecimals, allowZero: true, noun: 'flat amounts' });
  if (!flat.ok) issues.push({ path: `${path}.flatAmount`, message: flat.message, code: amountErrorCode[flat.error] });
  if (issues.length > before || !rate.ok || !flat.ok) return undefined;
  return { rate: rate.value.toString(), flatAmount: flat.value.toFixed(flatDecimals) };
}

/**
 * Validates a partner fee's `fees` object (`{onRamp: {rate, flatAmount}, offRamp: {...}}`) for
 * `POST /partner-fees`; throws VALIDATION_FAILED naming each bad field.
 */
export function parsePartnerFees(input: unknown, path = 'fees'): Record<Direction, FeeRule> {
  const issues: FieldIssue[] = [];
  const out: Partial<Record<Direction, FeeRule>> = {};
  if (!isPlainObject(input)) {
    issues.push({ path, message: 'must be an object with onRamp and offRamp', code: 'INVALID_TYPE' });
  } else {
    for (const key of Object.keys(input)) {
      if (!(DIRECTIONS as readonly string[]).includes(key)) issues.push({ path: `${path}.${key}`, message: 'unknown direction (expected onRamp and offRamp)', code: 'UNKNOWN_FIELD' });
    }
    for (const d of DIRECTIONS) {
      const rule = parseFeeRule(input[d], partnerFlatDecimals(d), `${path}.${d}`, issues);
      if (rule) out[d] = rule;
    }
  }
  if (issues.length || !out.onRamp || !out.offRamp) throw new AppError('VALIDATION_FAILED', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { errors: issues });
  return { onRamp: out.onRamp, offRamp: out.offRamp };
}

export class FeeScheduleError extends Error {
  override name = 'FeeScheduleError';
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  }
}

/**
 * Parses a fee-schedule override (the `RAMP_FEE_SCHEDULE` environment variable, JSON) over `base`.
 * Partial: `{"service":{"offRamp":{"PIX":{"rate":"70","flatAmount":"1.00"}}}}` changes one entry and keeps
 * the rest, so an operator can tune one price without restating the table. Unknown keys are errors (a
 * misspelt rail must not be ignored silently), values are strings as everywhere money appears, and a `30s`
 * premium is refused because the contract makes that lock free. Throws one FeeScheduleError listing every
 * problem, one per line, with a dotted path.
 */
export function parseFeeSchedule(json: string, base: FeeSchedule = defaultFeeSchedule): FeeSchedule {
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch (err) {
    throw new FeeScheduleError([{ path: '(root)', message: `not valid JSON: ${(err as Error).message}`, code: 'INVALID_BODY' }]);
  }
  const issues: FieldIssue[] = [];
  const out: FeeSchedule = structuredClone(base);
  if (!isPlainObject(input)) throw new FeeScheduleError([{ path: '(root)', message: 'must be a JSON object with "service" and/or "lockPremiumBps"', code: 'INVALID_BODY' }]);

  for (const key of Object.keys(input)) {
    if (key !== 'service' && key !== 'lockPremiumBps') issues.push({ path: key, message: 'unknown field (expected service, lockPremiumBps)', code: 'UNKNOWN_FIELD' });
  }

  if (input.service !== undefined) {
    if (!isPlainObject(input.service)) issues.push({ path: 'service', message: 'must be an object keyed by onRamp / offRamp', code: 'INVALID_VALUE' });
    else {
      for (const [d, byRail] of Object.entries(input.service)) {
        if (!(DIRECTIONS as readonly string[]).includes(d)) {
          issues.push({ path: `service.${d}`, message: 'unknown direction (expected onRamp, offRamp)', code: 'UNKNOWN_FIELD' });
          continue;
        }
        const direction = d as Direction;
        if (!isPlainObject(byRail)) {
          issues.push({ path: `service.${d}`, message: `must be an object keyed by rail (${RAILS.join(', ')})`, code: 'INVALID_VALUE' });
          continue;
        }
        for (const [r, rule] of Object.entries(byRail)) {
          if (!(RAILS as readonly string[]).includes(r)) {
            issues.push({ path: `service.${d}.${r}`, message: `unknown rail (expected ${RAILS.join(', ')})`, code: 'UNKNOWN_FIELD' });
            continue;
          }
          const rail = r as Rail;
          const parsed = parseFeeRule(rule, serviceFlatDecimals(direction, rail), `service.${d}.${r}`, issues);
          if (parsed) out.service[direction][rail] = parsed;
        }
      }
    }
  }

  if (input.lockPremiumBps !== undefined) {
    if (!isPlainObject(input.lockPremiumBps)) issues.push({ path: 'lockPremiumBps', message: 'must be an object {"1m": "<bps>", "5m": "<bps>"}', code: 'INVALID_VALUE' });
    else {
      for (const [lock, value] of Object.entries(input.lockPremiumBps)) {
        const path = `lockPremiumBps.${lock}`;
        if (lock === '30s') {
          issues.push({ path, message: 'the 30s lock is free by contract and takes no premium', code: 'INVALID_VALUE' });
          continue;
        }
        if (lock !== '1m' && lock !== '5m') {
          issues.push({ path, message: 'unknown lock (expected 1m, 5m)', code: 'UNKNOWN_FIELD' });
          continue;
        }
        const bps = parseDecimal(value, { decimals: BPS_DECIMALS, allowZero: true, noun: 'basis points' });
        if (!bps.ok) issues.push({ path, message: bps.message, code: amountErrorCode[bps.error] });
        else if (bps.value.gt(MAX_BPS)) issues.push({ path, message: 'must be at most 10000 basis points', code: 'ABOVE_MAXIMUM' });
        else out.lockPremiumBps[lock] = bps.value.toString();
      }
    }
  }

  // A longer lock carries more risk for the service; a cheaper 5m than 1m would be a typo.
  if (!issues.length && new Decimal(out.lockPremiumBps['5m']).lt(out.lockPremiumBps['1m'])) {
    issues.push({ path: 'lockPremiumBps.5m', message: `must be at least the 1m premium (${out.lockPremiumBps['1m']})`, code: 'INVALID_VALUE' });
  }
  if (issues.length) throw new FeeScheduleError(issues);
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

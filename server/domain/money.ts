// Money: the currencies and rails, their decimals, strict parsing of decimal strings, rounding and formatting — no JS number ever holds an amount.
import { Decimal as BaseDecimal } from 'decimal.js';
import { type Currency, decimalsOf, type Fiat } from '../../src/contract/currencies';
import type { FieldErrorCode } from '../../src/contract/field-codes';

/**
 * The one decimal type the domain computes with. decimal.js rounds every result to `precision`
 * significant digits (20 by default, with HALF_UP), which would silently round a large amount times a
 * rate. Our own clone works at 64 digits and truncates: amounts are capped at 15 integer digits
 * (`MAX_INTEGER_DIGITS`) and 6 decimals, rates at 8 decimals, basis points at 2, so every product and sum
 * we form fits in 64 digits and is exact, and so is dividing by a power of ten (basis points); any other
 * division of money goes through `divideDown`/`divideUp`, which get the last place exactly right. Cloning leaves decimal.js's global
 * configuration (used elsewhere in the repo) untouched.
 */
export const Decimal = BaseDecimal.clone({ precision: 64, rounding: BaseDecimal.ROUND_DOWN, toExpNeg: -64, toExpPos: 64 });
export type Decimal = BaseDecimal;
/** What the money helpers accept: a decimal string or a Decimal — deliberately not a JS number. */
export type DecimalValue = string | BaseDecimal;

// The currencies and their decimals are the contract's (shared with the components).
export { CURRENCIES, type Currency, decimalsOf, FIAT, type Fiat, isCurrency, isFiat, isStablecoin, STABLECOINS, type Stablecoin } from '../../src/contract/currencies';

/** The smallest amount of the currency: 0.01 BRL, 0.000001 USDC. */
export const unitOf = (currency: Currency): Decimal => new Decimal(1).dividedBy(new Decimal(10).pow(decimalsOf(currency)));

/** Payment rails. Each carries one fiat currency, which is why a quote's rail must match its fiat side. */
export const RAILS = ['PIX', 'SEPA', 'SWIFT', 'ACH', 'FEDWIRE'] as const;
export type Rail = (typeof RAILS)[number];
export const isRail = (r: unknown): r is Rail => (RAILS as readonly unknown[]).includes(r);

export function railFiat(rail: Rail): Fiat {
  switch (rail) {
    case 'PIX':
      return 'BRL';
    case 'SEPA':
      return 'EUR';
    case 'SWIFT':
    case 'ACH':
    case 'FEDWIRE':
      return 'USD';
    default:
      return unreachable(rail);
  }
}

export const railsFor = (fiat: Fiat): Rail[] => RAILS.filter((r) => railFiat(r) === fiat);

/**
 * Exchange rates carry 8 decimal places and are rounded down (toward the customer receiving less, never
 * more, than the market gave us). 8 places keep ≥ 8 significant digits for every pair we quote
 * (BRL→USDC ≈ 0.18…, USDC→BRL ≈ 5.3…): at most 1e-8 of the rate, far under one cent on any
 * realistic amount, and the published rate is exactly the one the amounts are computed with.
 */
export const RATE_DECIMALS = 8;

/** Above any limit we will ever set (10^15), and small enough that all our products stay exact. */
export const MAX_INTEGER_DIGITS = 15;

// ---------------------------------------------------------------------------------------------------------
// Parsing

/** Stable keys a client can translate; `message` is the English text for problem details. */
export type AmountErrorKey =
  | 'amount.not_a_string'
  | 'amount.invalid_format'
  | 'amount.negative'
  | 'amount.zero'
  | 'amount.too_many_decimals'
  | 'amount.too_large';

export type ParseResult = { ok: true; value: Decimal } | { ok: false; error: AmountErrorKey; message: string };

export interface DecimalRules {
  /** Most decimal places the value may carry (trailing zeros beyond them are fine: "10.500" is 10.50). */
  decimals: number;
  allowZero?: boolean;
  allowNegative?: boolean;
  /** What to call the unit in messages: "BRL amounts", "basis points". */
  noun?: string;
}

// Plain digits, an optional fraction, no exponent, no leading "+", no leading zeros ("007" reads like a
// typo), no bare "." at either end; a leading "-" is matched so that we can say "negative" rather than
// "malformed".
const DECIMAL_STRING = /^(-)?(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * Parses a decimal string strictly. Money arrives as JSON strings; a JSON number is refused rather than
 * converted, because by the time it is a number it may already be a different amount.
 */
export function parseDecimal(input: unknown, rules: DecimalRules): ParseResult {
  const noun = rules.noun ?? 'amounts';
  if (typeof input !== 'string') {
    return fail('amount.not_a_string', `must be a decimal string such as "10.50" (${noun} are never JSON numbers)`);
  }
  const m = DECIMAL_STRING.exec(input);
  if (!m) return fail('amount.invalid_format', `must be a plain decimal such as "10.50": digits, one optional ".", no exponent, sign or spaces`);
  const [, minus, integer = '', fraction = ''] = m;
  if (integer.length > MAX_INTEGER_DIGITS) return fail('amount.too_large', `must be below 10^${MAX_INTEGER_DIGITS}`);
  const value = new Decimal(input);
  // A sign where none may be: "-5" is negative, "-0" (or "-0.00") is a zero written as the document's pattern forbids.
  if (minus && !rules.allowNegative) return value.isZero() ? fail('amount.invalid_format', 'must be written without a sign: "0", never "-0"') : fail('amount.negative', 'must not be negative');
  if (value.isZero() && !rules.allowZero) return fail('amount.zero', 'must be greater than zero');
  const significantDecimals = fraction.replace(/0+$/, '').length;
  if (significantDecimals > rules.decimals) {
    return fail(
      'amount.too_many_decimals',
      rules.decimals === 0 ? `${noun} are whole numbers` : `${noun} have at most ${rules.decimals} decimal place${rules.decimals === 1 ? '' : 's'}`,
    );
  }
  // Where a sign is allowed, "-0" is zero: normalise it so nothing downstream ever prints a negative zero.
  return { ok: true, value: value.isZero() ? new Decimal(0) : value };
}

/** An amount of `currency`: strictly positive unless told otherwise, at most the currency's decimals. */
export const parseAmount = (input: unknown, currency: Currency, opts: { allowZero?: boolean; allowNegative?: boolean } = {}): ParseResult =>
  parseDecimal(input, { decimals: decimalsOf(currency), noun: `${currency} amounts`, ...opts });

/** The problem's `errors[].code` for each amount rule. */
export const amountErrorCode: Readonly<Record<AmountErrorKey, FieldErrorCode>> = {
  'amount.not_a_string': 'NOT_A_DECIMAL',
  'amount.invalid_format': 'NOT_A_DECIMAL',
  'amount.negative': 'NOT_POSITIVE',
  'amount.zero': 'NOT_POSITIVE',
  'amount.too_many_decimals': 'TOO_MANY_DECIMALS',
  'amount.too_large': 'ABOVE_MAXIMUM',
};

function fail(error: AmountErrorKey, message: string): ParseResult {
  return { ok: false, error, message };
}

// ---------------------------------------------------------------------------------------------------------
// Rounding and formatting

/** Rounds toward −∞ to the currency's decimals: what a customer receives. */
export const roundDown = (value: DecimalValue, currency: Currency): Decimal =>
  new Decimal(value).toDecimalPlaces(decimalsOf(currency), Decimal.ROUND_FLOOR);

/** Rounds toward +∞ to the currency's decimals: what a customer pays (fees, a solved source amount). */
export const roundUp = (value: DecimalValue, currency: Currency): Decimal =>
  new Decimal(value).toDecimalPlaces(decimalsOf(currency), Decimal.ROUND_CEIL);

/** `a / b` rounded toward −∞ to `places`, exactly (b > 0). */
export function divideDown(a: DecimalValue, b: DecimalValue, places: number): Decimal {
  const [n, d] = [new Decimal(a), new Decimal(b)];
  assertPositive(d);
  // The 64-digit quotient is truncated, so flooring it can only be one step low, never high; check by multiplying back.
  let q = n.dividedBy(d).toDecimalPlaces(places, Decimal.ROUND_FLOOR);
  const step = new Decimal(1).dividedBy(new Decimal(10).pow(places));
  while (q.plus(step).times(d).lte(n)) q = q.plus(step);
  return q;
}

/** `a / b` rounded toward +∞ to `places`, exactly (b > 0). */
export function divideUp(a: DecimalValue, b: DecimalValue, places: number): Decimal {
  const [n, d] = [new Decimal(a), new Decimal(b)];
  const q = divideDown(n, d, places);
  return q.times(d).eq(n) ? q : q.plus(new Decimal(1).dividedBy(new Decimal(10).pow(places)));
}

/**
 * The wire form of an amount: exactly the currency's decimals ("10.50", "1.000000"). Refuses a value that
 * is not already on the currency's grid, so formatting can never round behind the caller's back.
 */
export function formatAmount(value: DecimalValue, currency: Currency): string {
  const d = new Decimal(value);
  const places = decimalsOf(currency);
  if (!d.toDecimalPlaces(places).eq(d)) throw new Error(`${d.toString()} has more than ${places} decimals for ${currency}; round it first`);
  return d.toFixed(places);
}

/** Rounds a rate down to `RATE_DECIMALS`. */
export const roundRateDown = (value: DecimalValue): Decimal => new Decimal(value).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_FLOOR);

/** The wire form of a rate: always 8 decimals ("5.30000000"), rounded down. */
export const formatRate = (value: DecimalValue): string => roundRateDown(value).toFixed(RATE_DECIMALS);

function assertPositive(d: Decimal): void {
  if (!d.gt(0)) throw new Error(`division by a non-positive decimal (${d.toString()})`);
}

/** Makes a `switch` exhaustive: adding a currency or rail fails the typecheck until every switch handles it. */
export function unreachable(value: never): never {
  throw new Error(`unhandled value ${String(value)}`);
}

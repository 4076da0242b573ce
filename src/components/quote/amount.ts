// Amounts between the user and the API: locale-aware parsing of what is typed into a decimal string, view formatting while typing, display through Intl.
import { formatMoney, type Locale } from '../../i18n';
import { decimalsOf, isStablecoin, type Currency } from './model';

/** The largest integer part the server accepts (`< 10^15`): more digits can only be a typo. */
export const MAX_INTEGER_DIGITS = 15;

interface Separators {
  group: string;
  decimal: string;
}

const separatorCache = new Map<string, Separators>();

/** The locale's own separators, asked of Intl (en: `,` and `.`; pt-BR: `.` and `,`). */
export function separatorsOf(locale: string): Separators {
  let found = separatorCache.get(locale);
  if (!found) {
    const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
    found = {
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    };
    // Some locales group with a (narrow) no-break space; users type a plain space or nothing there.
    if (/\s/.test(found.group)) found.group = ' ';
    separatorCache.set(locale, found);
  }
  return found;
}

/** What a typed amount is wrong with, as keys the catalogue translates. */
export type AmountError = 'invalid' | 'zero' | 'tooManyDecimals' | 'tooLarge';

export type ParsedAmount = { ok: true; value: string } | { ok: false; error: AmountError | 'empty' };

/**
 * Reads what a user typed or pasted into a decimal string (pt-BR `1.234,56` → `1234.56`, en `1,234.56` → the same).
 * Lenient where the intent is clear, strict where it is not:
 * - both `.` and `,` present: the last one is the decimal separator (`1.234,56` and `1,234.56` both read right);
 * - only the locale's decimal separator: it is the decimal point (twice is an error);
 * - only the locale's group separator, once, not followed by exactly three digits: the user meant a decimal point
 *   (pt-BR `10.5` → `10.5`; but `1.234` stays one thousand two hundred and thirty-four);
 * - the group separator several times: groups.
 * Then the server's own rules: positive, at most the currency's decimals (trailing zeros do not count), under 10^15.
 */
export function parseAmount(text: string, locale: string, currency: Currency): ParsedAmount {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (!compact) return { ok: false, error: 'empty' };
  if (!/^[\d.,]+$/.test(compact)) return { ok: false, error: 'invalid' };
  const { decimal } = separatorsOf(locale);
  const lastDot = compact.lastIndexOf('.');
  const lastComma = compact.lastIndexOf(',');
  let point: number;
  if (lastDot >= 0 && lastComma >= 0) {
    point = Math.max(lastDot, lastComma);
    const separator = compact[point]!;
    if (compact.indexOf(separator) !== point) return { ok: false, error: 'invalid' };
  } else if (lastDot < 0 && lastComma < 0) {
    point = -1;
  } else {
    const separator = lastDot >= 0 ? '.' : ',';
    const first = compact.indexOf(separator);
    const last = Math.max(lastDot, lastComma);
    if (separator === decimal || (decimal !== '.' && decimal !== ',')) {
      if (first !== last) return { ok: false, error: 'invalid' };
      point = last;
    } else if (first === last) {
      point = compact.length - last - 1 === 3 ? -1 : last;
    } else {
      point = -1;
    }
  }
  const integerPart = (point >= 0 ? compact.slice(0, point) : compact).replace(/[.,]/g, '');
  const fraction = point >= 0 ? compact.slice(point + 1) : '';
  if (!integerPart && !fraction) return { ok: false, error: 'invalid' };
  const integer = integerPart.replace(/^0+(?=\d)/, '') || '0';
  if (integer.length > MAX_INTEGER_DIGITS) return { ok: false, error: 'tooLarge' };
  if (/^0*$/.test(integer + fraction)) return { ok: false, error: 'zero' };
  if (fraction.replace(/0+$/, '').length > decimalsOf(currency)) return { ok: false, error: 'tooManyDecimals' };
  return { ok: true, value: fraction ? `${integer}.${fraction}` : integer };
}

export interface Edit {
  value: string;
  caret: number;
}

/** Digits grouped the locale's way: `"1234567"` → `"1.234.567"` (pt-BR). Intl formats the digit string exactly. */
function groupDigits(digits: string, locale: string): string {
  if (digits.length <= 3) return digits;
  const { group } = separatorsOf(locale);
  return Array.from(digits)
    .reverse()
    .reduce((out, d, i) => (i > 0 && i % 3 === 0 ? `${d}${group}${out}` : `${d}${out}`), '');
}

/**
 * The view value after a keystroke: digits grouped as the locale groups them, the locale's decimal separator kept where
 * the user put it (so `10,` can be typed on the way to `10,5`), anything else dropped, and the caret kept after the
 * same digit. A typed group separator is a group separator, as the locale says: it is dropped and the digits regrouped,
 * so what the user sees is always what will be sent (pt-BR `1.000` stays one thousand). Pastes go through `parseAmount`.
 * A Backspace that only removed a group separator removes the digit before it, or the separator would come straight back.
 */
export function reformatTyping(raw: string, caret: number, locale: string, previous = '', inputType = ''): Edit {
  const { decimal } = separatorsOf(locale);
  const significant = (c: string) => (c >= '0' && c <= '9') || c === decimal;
  const count = (s: string) => Array.from(s).filter(significant).length;
  let text = raw;
  let at = Math.max(0, Math.min(caret, raw.length));
  if (inputType === 'deleteContentBackward' && raw.length < previous.length && count(raw) === count(previous)) {
    let i = at - 1;
    while (i >= 0 && !significant(text[i]!)) i--;
    if (i >= 0) {
      text = text.slice(0, i) + text.slice(i + 1);
      at = i;
    }
  }
  let integer = '';
  let fraction = '';
  let hasPoint = false;
  let kept = 0; // significant characters left of the caret that survive (a second decimal point does not)
  let pointLeft = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!significant(c)) continue;
    if (c === decimal) {
      if (hasPoint) continue;
      hasPoint = true;
      if (i < at) pointLeft = true;
    } else if (hasPoint) fraction += c;
    else integer += c;
    if (i < at) kept++;
  }
  // "007" reads like a typo and the server refuses it: drop leading zeros; a bare decimal point gets its "0" in front.
  const stripped = integer.replace(/^0+(?=\d)/, '');
  const removed = integer.length - stripped.length;
  const head = hasPoint && !stripped ? '0' : stripped;
  const value = groupDigits(head, locale) + (hasPoint ? decimal + fraction : '');
  const wanted = Math.max(0, kept - Math.min(removed, kept)) + (hasPoint && !stripped && pointLeft ? 1 : 0);
  let position = 0;
  for (let seen = 0; position < value.length && seen < wanted; position++) {
    if (significant(value[position]!)) seen++;
  }
  return { value, caret: position };
}

/**
 * An API amount as the input shows it (grouped, the locale's decimal point, no currency sign): `"1234.50"` → `"1.234,50"`.
 * Stablecoin amounts come with 6 decimals; trailing zeros past the second are dropped so `198.500000` reads `198.50`.
 */
export function formatForInput(amount: string, locale: string): string {
  const [integer = '0', rawFraction = ''] = amount.split('.');
  const fraction = rawFraction.length > 2 ? rawFraction.replace(/0+$/, '').padEnd(2, '0') : rawFraction;
  return groupDigits(integer, locale) + (fraction ? separatorsOf(locale).decimal + fraction : '');
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
  let nf = numberFormats.get(key);
  if (!nf) numberFormats.set(key, (nf = make()));
  return nf;
}

/**
 * An API amount for reading, with its currency: fiat through Intl's currency style (`R$ 1.234,56`, `€1,234.56`);
 * stablecoins are not ISO 4217 codes Intl knows, so they get the number in the locale's format and the ticker
 * (`198.50 USDC`), with 2 to 6 decimals so micro-units are never hidden. Intl formats the decimal string exactly.
 */
export function formatAmount(amount: string, currency: Currency, locale: Locale): string {
  if (!isStablecoin(currency)) return formatMoney(amount as `${number}`, currency, locale, decimalsOf(currency));
  const nf = numberFormat(`coin|${locale}`, () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 6 }));
  return `${nf.format(amount as `${number}`)}\u00a0${currency}`;
}

/**
 * An exchange rate to a precision a person can compare: at least two decimals, at most four from 1 up (`5.5113`) and six
 * below (`0.180476`), not the eight of the API.
 */
export function formatRate(rate: string, locale: Locale): string {
  const places = rate.startsWith('0') ? 6 : 4;
  return numberFormat(`rate${places}|${locale}`, () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: places })).format(rate as `${number}`);
}

/** A fraction as a percentage with two to four decimals: `"0.005"` → `0.50%` (en), `0,50%` (pt-BR). */
export function formatPercent(fraction: string, locale: Locale): string {
  return numberFormat(`pct|${locale}`, () => new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 4 })).format(
    fraction as `${number}`,
  );
}

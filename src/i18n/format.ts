// Dates, money and country names through Intl, in the component's language (money stays a decimal string, never a JS number).
import type { Locale } from './catalogue';

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.DisplayNames>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.DisplayNames>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (!value) cache.set(key, (value = make()));
  return value;
}

/** A calendar day (`YYYY-MM-DD`) in the reader's format; read and written in UTC so the day never shifts by time zone. */
export function formatDay(isoDay: string, locale: Locale, style: 'short' | 'medium' | 'long' = 'long'): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDay;
  return cached(`day|${locale}|${style}`, () => new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' })).format(date);
}

/** An instant (ISO 8601 date-time) as a local date and time. */
export function formatInstant(iso: string, locale: Locale, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return cached(
    `instant|${locale}|${timeZone ?? ''}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }),
  ).format(date);
}

/**
 * An amount as the API gives it (a decimal string such as `"1234.5"`) in the currency's format.
 * Intl formats decimal strings exactly, so no digit is lost to floating point; `fractionDigits` defaults to the currency's.
 */
export function formatMoney(amount: `${number}`, currency: string, locale: Locale, fractionDigits?: number): string {
  const digits = fractionDigits === undefined ? {} : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits };
  return cached(
    `money|${locale}|${currency}|${fractionDigits ?? ''}`,
    () => new Intl.NumberFormat(locale, { style: 'currency', currency, ...digits }),
  ).format(amount);
}

/** A region's name (`BR` → "Brazil" / "Brasil"); the code itself when the browser does not know it. */
export function regionName(alpha2: string, locale: Locale): string {
  try {
    return cached(`region|${locale}`, () => new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' })).of(alpha2) ?? alpha2;
  } catch {
    return alpha2;
  }
}

// Amount inputs: the view value is what the user reads and types (`1.234,56` in pt-BR), the model value is what the API gets (`1234.56`).
import type { Locale } from '../../i18n';

/** The API's decimal strings: up to 15 integer digits and 2 decimals. */
export const DECIMAL_MODEL = /^\d{1,15}(\.\d{1,2})?$/;

const separatorsByLocale = new Map<string, { group: string; decimal: string }>();

export function separators(locale: Locale): { group: string; decimal: string } {
  let found = separatorsByLocale.get(locale);
  if (!found) {
    const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
    found = {
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    };
    separatorsByLocale.set(locale, found);
  }
  return found;
}

/**
 * View → model. Reads the locale's separators, and is forgiving where it cannot be wrong: a group separator is always
 * followed by three digits, so `1234.56` typed in pt-BR (or `1234,56` in en) can only mean a decimal point.
 * Returns `''` for an empty input and `undefined` for something that is not an amount.
 */
export function parseAmount(view: string, locale: Locale): string | undefined {
  const { group, decimal } = separators(locale);
  const text = view.trim().replace(/[\s\u00a0\u202f]/g, '').replace(/^(US\$|R\$|\$)/i, '');
  if (!text) return '';
  let whole = text;
  let fraction: string | undefined;
  const decimalAt = text.lastIndexOf(decimal);
  const groupAt = text.lastIndexOf(group);
  if (decimalAt >= 0) {
    whole = text.slice(0, decimalAt);
    fraction = text.slice(decimalAt + 1);
  } else if (groupAt >= 0 && text.length - groupAt - 1 !== 3) {
    whole = text.slice(0, groupAt);
    fraction = text.slice(groupAt + 1);
  }
  whole = whole.split(group).join('');
  if (!/^\d+$/.test(whole) || (fraction !== undefined && !/^\d{0,2}$/.test(fraction))) return undefined;
  const integer = whole.replace(/^0+(?=\d)/, '');
  const model = fraction ? `${integer}.${fraction}` : integer;
  return DECIMAL_MODEL.test(model) ? model : undefined;
}

/** Model → view, grouped in the reader's format: `1234.5` → `1,234.50` (en) / `1.234,50` (pt-BR); whole amounts stay whole. */
export function formatAmount(model: string, locale: Locale): string {
  if (!DECIMAL_MODEL.test(model)) return model;
  const hasFraction = model.includes('.');
  // Intl formats a decimal string exactly: no digit goes through a binary float.
  return new Intl.NumberFormat(locale, { minimumFractionDigits: hasFraction ? 2 : 0, maximumFractionDigits: 2 }).format(model as `${number}`);
}

/** A percentage such as `40` or `33,33` → `"33.33"`; undefined when it is not a number with at most 2 decimals. */
export function parsePercentage(view: string, locale: Locale): string | undefined {
  const text = view.trim().replace(/\s*%$/, '');
  if (!text) return '';
  const model = parseAmount(text, locale);
  return model && /^\d{1,3}(\.\d{1,2})?$/.test(model) ? model : undefined;
}

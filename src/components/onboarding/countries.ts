// The country choices: every ISO alpha-3 code the API accepts, named in the UI language, Brazil first, then alphabetical.
import { alpha3ToAlpha2 } from '../../contract/countries';
import { regionName, type Locale } from '../../i18n';

export interface CountryOption {
  /** alpha-3, what the API gets. */
  code: string;
  name: string;
}

const byLocale = new Map<string, readonly CountryOption[]>();

export function countryOptions(locale: Locale, first: readonly string[] = ['BRA']): readonly CountryOption[] {
  const cacheKey = `${locale}|${first.join(',')}`;
  const hit = byLocale.get(cacheKey);
  if (hit) return hit;
  const collator = new Intl.Collator(locale);
  const all = Array.from(alpha3ToAlpha2, ([code, alpha2]) => ({ code, name: regionName(alpha2, locale) }));
  const rank = (code: string) => {
    const i = first.indexOf(code);
    return i === -1 ? first.length : i;
  };
  const sorted = all.sort((a, b) => rank(a.code) - rank(b.code) || collator.compare(a.name, b.name));
  byLocale.set(cacheKey, sorted);
  return sorted;
}

/**
 * The few choices a select shows before the whole list is built: `first` and the current value, in that order. Naming
 * 250 regions and rendering as many options costs a first render more than the rest of the form together, so the
 * first step paints with these and fills in the rest once the page is idle, or at once when the select is used.
 */
export function fewCountryOptions(locale: Locale, first: readonly string[], current: string | undefined): readonly CountryOption[] {
  const codes = current && !first.includes(current) ? [...first, current] : first;
  return codes.filter((code) => alpha3ToAlpha2.has(code)).map((code) => ({ code, name: FIRST_NAMES[code]?.[locale] ?? regionName(alpha3ToAlpha2.get(code)!, locale) }));
}

/**
 * The first step's usual first choice, named without Intl.DisplayNames: the first one a page makes loads the browser's
 * region names, a long task before the form can paint (docs/performance.md). The same names Intl gives (checked by a test).
 */
export const FIRST_NAMES: Partial<Record<string, Record<Locale, string>>> = { BRA: { en: 'Brazil', es: 'Brasil', 'pt-BR': 'Brasil' } };

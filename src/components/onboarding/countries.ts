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

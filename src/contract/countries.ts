// ISO 3166-1 country codes (from i18n-iso-countries): alpha-3 is what the API speaks, alpha-2 is what Intl.DisplayNames names.
import codes from 'i18n-iso-countries/codes.json';

const rows = codes as unknown as [alpha2: string, alpha3: string, numeric: string, iso: string][];

/** alpha-3 → alpha-2, for every ISO 3166-1 country. */
export const alpha3ToAlpha2: ReadonlyMap<string, string> = new Map(rows.map(([a2, a3]) => [a3, a2]));

export function isAlpha3Country(code: string): boolean {
  return alpha3ToAlpha2.has(code);
}

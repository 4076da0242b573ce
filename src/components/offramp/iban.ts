// IBANs without a library: the ISO 13616 mod-97 check and each SEPA country's length (ibantools adds ~3.8 kB gzip; this is a few hundred bytes).

/**
 * Lengths of the IBAN countries a SEPA payout can reach (ISO 13616 registry). A country not listed is checked by
 * shape and mod-97 alone, so the client never refuses what the server (ibantools, the full registry) accepts.
 */
const LENGTHS =
  'AD24 AT20 BE16 BG22 CH21 CY28 CZ24 DE22 DK18 EE20 ES24 FI18 FO18 FR27 GB22 GI23 GL18 GR27 HR21 HU28 IE22 IS26 IT27 LI21 LT20 LU20 LV21 MC27 MT31 NL18 NO15 PL28 PT25 RO24 SE24 SI19 SK24 SM27 VA22';
const lengthByCountry: ReadonlyMap<string, number> = new Map(LENGTHS.split(' ').map((e) => [e.slice(0, 2), Number(e.slice(2))]));

/** The electronic form the API gets: no spaces or punctuation, upper case (`de89 3704…` → `DE8937040044…`). */
export function electronicIban(value: string): string {
  return value.replace(/[\s.-]/g, '').toUpperCase();
}

/** The view value: groups of four (`DE89 3704 0044 0532 0130 00`), as printed on bank cards and statements. */
export function formatIban(value: string): string {
  return electronicIban(value).replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * ISO 7064 mod 97-10: move the first four characters to the end, letters become 10–35, and the number mod 97 must be 1.
 * Computed digit by digit so the 30-digit number never needs a BigInt.
 */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 && code <= 90 ? code - 55 : code - 48;
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

export type IbanError = 'shape' | 'length' | 'checksum';

/** Why an IBAN is wrong, or `undefined` when it is right; the input is electronic or formatted. */
export function ibanError(value: string): IbanError | undefined {
  const iban = electronicIban(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return 'shape';
  const expected = lengthByCountry.get(iban.slice(0, 2));
  if (expected !== undefined && iban.length !== expected) return 'length';
  return ibanMod97(iban) === 1 ? undefined : 'checksum';
}

/** BIC (ISO 9362): bank 4 letters, country 2 letters, location 2, optional branch 3. */
export function isBic(value: string): boolean {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value.trim().toUpperCase());
}

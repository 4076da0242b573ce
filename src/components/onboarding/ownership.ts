// Ownership sums in whole basis points (no binary float), and the words that name who would own too much.
import type { AssociatedParty } from '../../contract/kyc';
import type { Locale } from '../../i18n';

/** UBOs and shareholders are listed from this share up: the rule the server applies, and the one the message explains. */
export const OWNERSHIP_MIN_PERCENT = 25;
export const OWNERSHIP_MIN_BP = OWNERSHIP_MIN_PERCENT * 100;
export const OWNERSHIP_MAX_BP = 10_000;

/** `"33.33"` → 3333, `"40"` → 4000, `"12.5"` → 1250: read digit by digit from the API's decimal string. */
export function basisPoints(model: string): number {
  const [whole = '0', fraction = ''] = model.split('.');
  return Number.parseInt(whole, 10) * 100 + Number.parseInt((fraction + '00').slice(0, 2), 10);
}

/** 10050 → `"100.5%"` / `"100,5 %"`: formatted from a decimal string, so no digit goes through a float. */
export function formatBasisPoints(bp: number, locale: Locale): string {
  const whole = Math.floor(bp / 10_000);
  const rest = String(bp % 10_000).padStart(4, '0');
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(`${whole}.${rest}` as `${number}`);
}

/** The shareholders one level holds (same parent), as the server counts them. */
export function shareholdersAt(parties: readonly AssociatedParty[], parentId: string | undefined): AssociatedParty[] {
  return parties.filter((p) => (p.parentId ?? undefined) === parentId && p.roles.includes('SHAREHOLDER') && p.ownershipPercentage);
}

/** The total a new or corrected shareholder would bring its level to, in basis points. */
export function levelTotal(others: readonly AssociatedParty[], parentId: string | undefined, bp: number): number {
  return shareholdersAt(others, parentId).reduce((sum, p) => sum + basisPoints(p.ownershipPercentage!), bp);
}

/** `["Ana", "Bruno", "Carla"]` → "Ana, Bruno and Carla" in the reader's language. */
export function listNames(names: readonly string[], locale: Locale): string {
  return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(names);
}

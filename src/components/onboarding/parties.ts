// Associated parties of a business: the add-party form's values, the spec's rules checked as the server checks them, the request, and the ownership tree.
import { fieldProblemKey, type FieldProblemKey } from '../../i18n/problem-words';
import type { AssociatedParty, CreateAssociatedParty } from '../../contract/kyc';
import { checkBirthDate, checkCountry, checkEmail, checkPastDate, checkTaxId, type FieldError } from '../../contract/customer-rules';
import { isAlpha3Country } from '../../contract/countries';
import { normalizeTaxId } from '../../contract/tax-id';
import type { FieldProblem } from '../../client/problem';
import type { Locale } from '../../i18n';
import { parsePercentage } from './money';
import { basisPoints, levelTotal, shareholdersAt, OWNERSHIP_MAX_BP, OWNERSHIP_MIN_BP } from './ownership';
import type { TaxIdKind } from './format';

export const ROLES = ['UBO', 'SHAREHOLDER', 'REPRESENTATIVE'] as const;
export type Role = (typeof ROLES)[number];
export type PartyType = AssociatedParty['type'];

export type PartyAddressField = 'address.country' | 'address.line1' | 'address.city' | 'address.state' | 'address.postalCode';
export type PartyField =
  | 'roles'
  | 'ownershipPercentage'
  | 'name'
  | 'legalName'
  | 'taxId'
  | 'birthDate'
  | 'incorporationDate'
  | 'email'
  | PartyAddressField;

export const PARTY_ADDRESS_FIELDS: readonly PartyAddressField[] = ['address.country', 'address.line1', 'address.city', 'address.state', 'address.postalCode'];

export interface PartyValues {
  type: PartyType;
  roles: Role[];
  /** Set for a shareholder of a business shareholder; such a party may only be a SHAREHOLDER. */
  parentId: string | undefined;
  /** View values, as typed. */
  text: Record<Exclude<PartyField, 'roles'>, string>;
  /** Set when correcting a party already added (its type and parent are fixed then). */
  editingId?: string;
}

/** The form values of a party already added, to correct it. */
export function partyValues(p: AssociatedParty, locale: Locale): PartyValues {
  const values = emptyParty(p.parentId ?? undefined, p.address.country);
  const pct = p.ownershipPercentage ? new Intl.NumberFormat(locale, { maximumFractionDigits: 2, useGrouping: false }).format(Number(p.ownershipPercentage)) : '';
  return {
    ...values,
    type: p.type,
    roles: [...p.roles],
    editingId: p.id,
    text: {
      ...values.text,
      ownershipPercentage: pct,
      name: p.name ?? '',
      legalName: p.legalName ?? '',
      taxId: p.taxId,
      birthDate: p.birthDate ?? '',
      incorporationDate: p.incorporationDate ?? '',
      email: p.email,
      'address.line1': p.address.line1,
      'address.city': p.address.city,
      'address.state': p.address.state,
      'address.postalCode': p.address.postalCode,
    },
  };
}

export function emptyParty(parentId?: string, country = 'BRA'): PartyValues {
  return {
    type: 'INDIVIDUAL',
    roles: parentId ? ['SHAREHOLDER'] : [],
    parentId,
    text: {
      ownershipPercentage: '',
      name: '',
      legalName: '',
      taxId: '',
      birthDate: '',
      incorporationDate: '',
      email: '',
      'address.country': country,
      'address.line1': '',
      'address.city': '',
      'address.state': '',
      'address.postalCode': '',
    },
  };
}

/** Roles a party of this type may hold where it sits: UBO and REPRESENTATIVE are individuals at the top level only. */
export function allowedRoles(type: PartyType, nested: boolean): readonly Role[] {
  if (nested || type === 'BUSINESS') return ['SHAREHOLDER'];
  return ROLES;
}

export const ownsShares = (roles: readonly Role[]): boolean => roles.includes('UBO') || roles.includes('SHAREHOLDER');

/** The fields shown, in page order. */
export function partyFieldsFor(values: PartyValues): readonly PartyField[] {
  return [
    ...(values.parentId ? [] : (['roles'] as const)),
    ...(ownsShares(values.roles) ? (['ownershipPercentage'] as const) : []),
    ...(values.type === 'INDIVIDUAL' ? (['name'] as const) : (['legalName'] as const)),
    'taxId',
    ...(values.type === 'INDIVIDUAL' ? (['birthDate'] as const) : (['incorporationDate'] as const)),
    'email',
    ...PARTY_ADDRESS_FIELDS,
  ];
}

/** The tax id is a CPF or CNPJ for a Brazilian party (address in Brazil), a plain id elsewhere: the server decides the same way. */
export function partyTaxIdKind(values: Pick<PartyValues, 'type' | 'text'>): TaxIdKind {
  const country = values.text['address.country'];
  if (country && country !== 'BRA' && isAlpha3Country(country)) return 'other';
  return values.type === 'INDIVIDUAL' ? 'cpf' : 'cnpj';
}

export type PartyError = FieldError | 'chooseRole' | 'ownershipRange' | 'ownershipBelow' | 'ownershipTotal';


export function validateParty(values: PartyValues, existing: readonly AssociatedParty[], now: Date, locale: Locale): Partial<Record<PartyField, PartyError>> {
  const errors: Partial<Record<PartyField, PartyError>> = {};
  const t = values.text;
  if (values.roles.length === 0) errors.roles = 'chooseRole';
  if (ownsShares(values.roles)) {
    const pct = parsePercentage(t.ownershipPercentage, locale);
    if (pct === '') errors.ownershipPercentage = 'required';
    else if (pct === undefined || basisPoints(pct) > OWNERSHIP_MAX_BP) errors.ownershipPercentage = 'ownershipRange';
    else if (basisPoints(pct) < OWNERSHIP_MIN_BP) errors.ownershipPercentage = 'ownershipBelow';
    else if (values.roles.includes('SHAREHOLDER')) {
      const total = levelTotal(existing.filter((p) => p.id !== values.editingId), values.parentId, basisPoints(pct));
      if (total > OWNERSHIP_MAX_BP) errors.ownershipPercentage = 'ownershipTotal';
    }
  }
  if (values.type === 'INDIVIDUAL') {
    if (!t.name.trim()) errors.name = 'required';
    const birth = checkBirthDate(t.birthDate, now);
    if (birth) errors.birthDate = birth;
  } else {
    if (!t.legalName.trim()) errors.legalName = 'required';
    const incorporation = checkPastDate(t.incorporationDate, now);
    if (incorporation) errors.incorporationDate = incorporation;
  }
  const country = checkCountry(t['address.country']);
  if (country) errors['address.country'] = country;
  const tax = checkTaxId(normalizeTaxId(t.taxId), values.type, country ? undefined : t['address.country']);
  if (tax) errors.taxId = tax;
  const email = checkEmail(t.email.trim());
  if (email) errors.email = email;
  for (const field of PARTY_ADDRESS_FIELDS.slice(1)) if (!t[field].trim()) errors[field] = 'required';
  return errors;
}

export function toPartyRequest(values: PartyValues, locale: Locale): CreateAssociatedParty {
  const t = values.text;
  const person =
    values.type === 'INDIVIDUAL'
      ? { name: t.name.trim(), birthDate: t.birthDate }
      : { legalName: t.legalName.trim(), incorporationDate: t.incorporationDate };
  const pct = ownsShares(values.roles) ? parsePercentage(t.ownershipPercentage, locale) : undefined;
  return {
    type: values.type,
    roles: [...values.roles],
    ...(pct ? { ownershipPercentage: pct } : {}),
    ...(values.parentId ? { parentId: values.parentId } : {}),
    ...person,
    taxId: normalizeTaxId(t.taxId),
    email: t.email.trim(),
    address: {
      country: t['address.country'],
      line1: t['address.line1'].trim(),
      city: t['address.city'].trim(),
      state: t['address.state'].trim(),
      postalCode: t['address.postalCode'].trim(),
    },
  };
}

/** Who would share a level over 100 % (the others there, then this party by its typed name), and the total in basis points. */
export function ownershipOver(values: PartyValues, existing: readonly AssociatedParty[], locale: Locale): { names: string[]; total: number } | undefined {
  const pct = parsePercentage(values.text.ownershipPercentage, locale);
  if (!pct || !values.roles.includes('SHAREHOLDER')) return undefined;
  const others = existing.filter((p) => p.id !== values.editingId);
  const total = levelTotal(others, values.parentId, basisPoints(pct));
  if (total <= OWNERSHIP_MAX_BP) return undefined;
  const own = (values.type === 'INDIVIDUAL' ? values.text.name : values.text.legalName).trim();
  return { names: [...shareholdersAt(others, values.parentId).map(partyName), ...(own ? [own] : [])], total };
}

export interface PartyNode {
  party: AssociatedParty;
  children: PartyNode[];
}

/** Top-level parties with their nested shareholders under them, oldest first (the order they were added). */
export function partyTree(parties: readonly AssociatedParty[]): PartyNode[] {
  const byCreation = [...parties].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  const ids = new Set(byCreation.map((p) => p.id));
  const node = (party: AssociatedParty): PartyNode => ({ party, children: byCreation.filter((c) => c.parentId === party.id).map(node) });
  // A party whose parent is unknown (should not happen) still shows, at the top.
  return byCreation.filter((p) => !p.parentId || !ids.has(p.parentId)).map(node);
}

/** Only a business shareholder can have shareholders of its own. */
export const canHaveShareholders = (party: AssociatedParty): boolean => party.type === 'BUSINESS' && party.roles.includes('SHAREHOLDER');

export const partyName = (party: Pick<AssociatedParty, 'name' | 'legalName' | 'taxId'>): string => party.name ?? party.legalName ?? party.taxId;

/** A problem path → the party field it names (`address.country`, `/roles`, `body.ownershipPercentage`). */
export function partyFieldFromPath(path: string): PartyField | 'parentId' | undefined {
  const segments = path.split(/[./[\]]+/).filter((s) => s && !/^\d+$/.test(s));
  const known = ['roles', 'ownershipPercentage', 'name', 'legalName', 'taxId', 'birthDate', 'incorporationDate', 'email', 'parentId', ...PARTY_ADDRESS_FIELDS];
  for (let i = 0; i < segments.length; i++) {
    const candidate = segments.slice(i).join('.');
    if (known.includes(candidate)) return candidate as PartyField | 'parentId';
  }
  return undefined;
}

export function placePartyProblems(errors: readonly FieldProblem[]): { fields: Partial<Record<PartyField, FieldProblemKey>>; unplaced: FieldProblem[] } {
  const fields: Partial<Record<PartyField, FieldProblemKey>> = {};
  const unplaced: FieldProblem[] = [];
  for (const problem of errors) {
    const field = partyFieldFromPath(problem.path);
    if (!field || field === 'parentId') unplaced.push(problem);
    else fields[field] ??= fieldProblemKey(problem.code);
  }
  return { fields, unplaced };
}

export const partyId = (field: PartyField): string => `party-${field.replace('.', '-')}`;

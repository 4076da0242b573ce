// The add-bank-account form: its fields per rail and holder type (view values as typed), and the request body they become (model values).
import type { BffCreateBankAccount } from '../../client/bff-client';
import { DEFAULT_TAX_COUNTRY } from '../../contract/customer-rules';
import type { Customer } from '../../contract/customers';
import { normalizeTaxId } from '../../contract/tax-id';
import { refitTaxId } from '../onboarding/format';
import { toE164 } from '../onboarding/phone';
import type { Relationship } from '../transaction/purposes';
import { electronicIban } from '../../rules/iban';

export type BankRail = 'PIX' | 'SEPA' | 'SWIFT';
export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';
export type HolderType = 'INDIVIDUAL' | 'BUSINESS';

export const bankRails: readonly BankRail[] = ['PIX', 'SEPA', 'SWIFT'];
export const pixKeyTypes: readonly PixKeyType[] = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'];
export const holderTypes: readonly HolderType[] = ['INDIVIDUAL', 'BUSINESS'];
export const relationships: readonly Relationship[] = ['SELF', 'FRIEND', 'RELATIVE', 'EMPLOYEE'];

/** Each rail pays out one currency. */
export const currencyOf = { PIX: 'BRL', SEPA: 'EUR', SWIFT: 'USD' } as const satisfies Record<BankRail, string>;

export interface BankForm {
  rail: BankRail;
  name: string;
  keyType: PixKeyType;
  keyValue: string;
  iban: string;
  bic: string;
  accountNumber: string;
  bankName: string;
  bankCountry: string;
  holderType: HolderType;
  relationship: Relationship;
  holderName: string;
  legalName: string;
  taxId: string;
  birthDate: string;
  /** Business holders (both optional). */
  incorporationDate: string;
  email: string;
  line1: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  /**
   * The country whose rules the tax id follows when it is not the address's: a SELF holder's tax id is the customer's
   * own, issued by the customer's country (a German living in São Paulo keeps a German id). Empty: the address's.
   */
  taxCountry: string;
}

export type BankField = Exclude<keyof BankForm, 'rail' | 'holderType' | 'relationship' | 'keyType' | 'taxCountry'> | 'relationship' | 'keyType';

export function emptyBankForm(rail: BankRail = 'PIX'): BankForm {
  return {
    rail,
    name: '',
    keyType: 'CPF',
    keyValue: '',
    iban: '',
    bic: '',
    accountNumber: '',
    bankName: '',
    bankCountry: '',
    holderType: 'INDIVIDUAL',
    relationship: 'SELF',
    holderName: '',
    legalName: '',
    taxId: '',
    birthDate: '',
    incorporationDate: '',
    email: '',
    line1: '',
    city: '',
    state: '',
    postalCode: '',
    country: rail === 'PIX' ? 'BRA' : '',
    taxCountry: '',
  };
}

/** The text fields shown, in order, for a rail and holder type (selects and radios are rendered on their own). */
export function identifierFields(rail: BankRail): readonly BankField[] {
  switch (rail) {
    case 'PIX':
      return ['keyType', 'keyValue'];
    case 'SEPA':
      return ['iban', 'bic'];
    case 'SWIFT':
      return ['accountNumber', 'bic', 'bankName', 'bankCountry'];
  }
}

export function holderFields(holderType: HolderType): readonly BankField[] {
  return holderType === 'INDIVIDUAL' ? ['relationship', 'holderName', 'taxId', 'birthDate'] : ['relationship', 'legalName', 'taxId', 'incorporationDate', 'email'];
}

export const addressFields: readonly BankField[] = ['line1', 'city', 'state', 'postalCode', 'country'];

/** Every field the form shows for these choices, in tab order. */
export function visibleFields(form: Pick<BankForm, 'rail' | 'holderType'>): readonly BankField[] {
  return ['name', ...identifierFields(form.rail), ...holderFields(form.holderType), ...addressFields];
}

export function isOptional(form: Pick<BankForm, 'rail'>, field: BankField): boolean {
  return field === 'birthDate' || field === 'incorporationDate' || field === 'email' || (field === 'bic' && form.rail === 'SEPA');
}

/**
 * How the holder's tax id is typed, by the country of the holder's address as the server rules it: in Brazil a CPF
 * (person) or CNPJ (company), elsewhere letters and digits. No country yet: a PIX account's holder is most likely
 * Brazilian; for SEPA and SWIFT nothing is assumed, so a foreign id is not mangled into CPF punctuation.
 */
export function holderTaxIdKind(form: Pick<BankForm, 'rail' | 'holderType' | 'country'> & { taxCountry?: string }): 'cpf' | 'cnpj' | 'other' {
  const country = form.taxCountry || form.country;
  const brazilian = country === 'BRA' || (!country && form.rail === 'PIX');
  if (!brazilian) return 'other';
  return form.holderType === 'INDIVIDUAL' ? 'cpf' : 'cnpj';
}

/** The PIX key as the API stores it: tax ids without punctuation, e-mail trimmed and lower-cased, phone in E.164, EVP lower-case. */
export function pixKeyModel(keyType: PixKeyType, typed: string): string {
  const value = typed.trim();
  switch (keyType) {
    case 'CPF':
    case 'CNPJ':
      return normalizeTaxId(value);
    case 'EMAIL':
      return value.toLowerCase();
    case 'PHONE':
      return toE164('BR', value);
    case 'EVP':
      return value.toLowerCase();
  }
}

/** The body of `POST /bff/bank-accounts` (the session adds the customer). Assumes the form passed `validateBankForm`. */
export function toCreateBankAccount(form: BankForm): BffCreateBankAccount {
  const identifier =
    form.rail === 'PIX'
      ? { keyType: form.keyType, keyValue: pixKeyModel(form.keyType, form.keyValue) }
      : form.rail === 'SEPA'
        ? { iban: electronicIban(form.iban), ...(form.bic.trim() ? { bic: form.bic.trim().toUpperCase() } : {}) }
        : {
            accountNumber: form.accountNumber.replace(/\s/g, '').toUpperCase(),
            bic: form.bic.trim().toUpperCase(),
            bankName: form.bankName.trim(),
            bankCountry: form.bankCountry,
          };
  const person =
    form.holderType === 'INDIVIDUAL'
      ? { name: form.holderName.trim(), ...(form.birthDate ? { birthDate: form.birthDate } : {}) }
      : {
          legalName: form.legalName.trim(),
          ...(form.incorporationDate ? { incorporationDate: form.incorporationDate } : {}),
          ...(form.email.trim() ? { email: form.email.trim() } : {}),
        };
  return {
    name: form.name.trim(),
    type: 'EXTERNAL',
    rail: form.rail,
    currency: currencyOf[form.rail],
    identifier,
    holder: {
      type: form.holderType,
      relationship: form.relationship,
      ...person,
      // What the server stores: punctuation and spaces out, letters upper-cased.
      taxId: normalizeTaxId(form.taxId),
      address: {
        line1: form.line1.trim(),
        city: form.city.trim(),
        state: form.state.trim(),
        postalCode: form.postalCode.trim(),
        country: form.country,
      },
    },
  };
}

/** Where a server problem's path (`identifier.iban`, `holder.address.city`, `name`) lands in this form. */
export function bankFieldOf(segments: readonly string[]): BankField | undefined {
  const [first, second, third] = segments;
  if (first === 'name') return 'name';
  if (first === 'identifier') {
    if (second === 'keyType' || second === 'keyValue' || second === 'iban' || second === 'bic' || second === 'accountNumber' || second === 'bankName' || second === 'bankCountry') return second;
    return undefined;
  }
  if (first === 'holder') {
    if (second === 'name') return 'holderName';
    if (second === 'legalName' || second === 'taxId' || second === 'birthDate' || second === 'incorporationDate' || second === 'email' || second === 'relationship') return second;
    if (second === 'address' && (third === 'line1' || third === 'city' || third === 'state' || third === 'postalCode' || third === 'country')) return third;
  }
  return undefined;
}

/** The holder fields "Me" (SELF) fills: the customer's own type, name, tax id and dates, and the address sent with the additional information. */
export type SelfHolder = Partial<Pick<BankForm, 'holderType' | 'holderName' | 'legalName' | 'taxId' | 'birthDate' | 'incorporationDate' | 'email' | 'line1' | 'city' | 'state' | 'postalCode' | 'country' | 'taxCountry'>>;

export function selfHolder(customer: Customer, rail: BankRail): SelfHolder {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const address = (customer.additionalInformation?.address ?? {}) as Record<string, unknown>;
  const taxCountry = customer.country || DEFAULT_TAX_COUNTRY;
  const holderType = customer.type;
  const filled: SelfHolder = { holderType, taxCountry };
  if (holderType === 'INDIVIDUAL') {
    filled.holderName = customer.name ?? '';
    filled.birthDate = customer.birthDate ?? '';
  } else {
    filled.legalName = customer.legalName ?? '';
    filled.incorporationDate = customer.incorporationDate ?? '';
    filled.email = customer.email ?? '';
  }
  filled.taxId = refitTaxId(holderTaxIdKind({ rail, holderType, country: '', taxCountry }), customer.taxId);
  for (const part of ['line1', 'city', 'state', 'postalCode', 'country'] as const) {
    if (text(address[part])) filled[part] = text(address[part]);
  }
  return filled;
}

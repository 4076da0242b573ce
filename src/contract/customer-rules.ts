// Rules on a new customer that the server enforces and the components check before sending: one code, two places.
import { isAlpha3Country } from './countries';
import type { FieldErrorCode } from './field-codes';
import { isValidCnpj, isValidCpf, normalizeTaxId } from './tax-id';
import { hasControlCharacter, textErrorMessages } from './text';

export const ADULT_AGE = 18;

/** Error keys: the server turns them into messages, the components into translated text. */
export type FieldError =
  | 'required'
  | 'invalidCpf'
  | 'invalidCnpj'
  | 'invalidTaxId'
  | 'invalidDate'
  | 'futureDate'
  | 'underage'
  | 'invalidCountry'
  | 'invalidEmail'
  | 'controlCharacter';

export const fieldErrorMessages: Record<FieldError, string> = {
  required: 'is required',
  invalidCpf: 'is not a valid CPF (11 digits with valid check digits)',
  invalidCnpj: 'is not a valid CNPJ (14 characters with valid check digits)',
  invalidTaxId: 'is not a valid tax id (4 to 32 letters and digits)',
  invalidDate: 'must be a calendar date as YYYY-MM-DD',
  futureDate: 'must not be in the future',
  underage: `must be at least ${ADULT_AGE} years ago: the customer must be an adult`,
  invalidCountry: 'must be an ISO 3166-1 alpha-3 country code such as BRA',
  invalidEmail: 'is not a valid email address',
  controlCharacter: textErrorMessages.controlCharacter,
};

/** The stable `errors[].code` of each rule (src/contract/field-codes.ts). */
export const fieldErrorCode: Record<FieldError, FieldErrorCode> = {
  required: 'REQUIRED',
  invalidCpf: 'INVALID_TAX_ID',
  invalidCnpj: 'INVALID_TAX_ID',
  invalidTaxId: 'INVALID_TAX_ID',
  invalidDate: 'INVALID_DATE',
  futureDate: 'FUTURE_DATE',
  underage: 'UNDERAGE',
  invalidCountry: 'INVALID_COUNTRY',
  invalidEmail: 'INVALID_FORMAT',
  controlCharacter: 'INVALID_CHARACTERS',
};

/** Today's date as YYYY-MM-DD in UTC. */
export const isoDay = (now: Date): string => now.toISOString().slice(0, 10);

function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && s >= '1900-01-01';
}

export function checkBirthDate(value: string, now: Date): FieldError | undefined {
  if (!value) return 'required';
  if (!isCalendarDate(value)) return 'invalidDate';
  const today = isoDay(now);
  if (value > today) return 'futureDate';
  const adultBy = `${Number(today.slice(0, 4)) - ADULT_AGE}${today.slice(4)}`;
  return value > adultBy ? 'underage' : undefined;
}

export function checkPastDate(value: string, now: Date): FieldError | undefined {
  if (!value) return 'required';
  if (!isCalendarDate(value)) return 'invalidDate';
  return value > isoDay(now) ? 'futureDate' : undefined;
}

/** The country an individual's tax id belongs to when none is given: the service pays out over PIX, so Brazil. */
export const DEFAULT_TAX_COUNTRY = 'BRA';

/**
 * Brazilian customers (no country, or BRA) carry a CPF or CNPJ with valid check digits. Anyone else carries their own
 * country's tax id, which we cannot check digit by digit for ~250 countries: it is held to the shared text rule (no
 * control characters) and bounded to 4–32 letters and digits once punctuation and spaces are stripped, which every
 * national scheme we know fits (SSN 9, Steuer-ID 11, NIF 9, RFC 12–13, UTR 10, Codice fiscale 16).
 */
export function checkTaxId(value: string, type: 'INDIVIDUAL' | 'BUSINESS', country?: string): FieldError | undefined {
  if (!value) return 'required';
  if (hasControlCharacter(value)) return 'controlCharacter';
  if (!country || country === DEFAULT_TAX_COUNTRY) {
    if (type === 'INDIVIDUAL') return isValidCpf(value) ? undefined : 'invalidCpf';
    return isValidCnpj(value) ? undefined : 'invalidCnpj';
  }
  return /^[0-9A-Z]{4,32}$/.test(normalizeTaxId(value)) ? undefined : 'invalidTaxId';
}

export function checkCountry(value: string): FieldError | undefined {
  if (!value) return 'required';
  return isAlpha3Country(value) ? undefined : 'invalidCountry';
}

export function checkEmail(value: string): FieldError | undefined {
  if (!value) return 'required';
  // The same shape zod's z.email() accepts in practice: local@domain.tld, no spaces.
  return /^(?!\.)[A-Za-z0-9._%+'-]+(?<!\.)@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(value) ? undefined : 'invalidEmail';
}

/** A name: present, and free of control characters (the text rule of every string the API accepts). */
export function checkName(value: string | undefined): FieldError | undefined {
  if (!value?.trim()) return 'required';
  return hasControlCharacter(value.trim()) ? 'controlCharacter' : undefined;
}

export interface NewCustomerFields {
  type: 'INDIVIDUAL' | 'BUSINESS';
  name?: string;
  legalName?: string;
  taxId?: string;
  birthDate?: string;
  incorporationDate?: string;
  country?: string;
  email?: string;
}

/** Every rule on a new customer; returns field → error key for each bad field (empty when all good). */
export function checkNewCustomer(c: NewCustomerFields, now: Date): Partial<Record<keyof NewCustomerFields, FieldError>> {
  const out: Partial<Record<keyof NewCustomerFields, FieldError>> = {};
  const set = (k: keyof NewCustomerFields, e: FieldError | undefined) => {
    if (e) out[k] = e;
  };
  if (c.type === 'INDIVIDUAL') {
    set('name', checkName(c.name));
    set('birthDate', checkBirthDate(c.birthDate ?? '', now));
    if (c.country) set('country', checkCountry(c.country));
    if (c.email) set('email', checkEmail(c.email));
  } else {
    set('legalName', checkName(c.legalName));
    set('incorporationDate', checkPastDate(c.incorporationDate ?? '', now));
    set('country', checkCountry(c.country ?? ''));
    set('email', checkEmail(c.email ?? ''));
  }
  // A country given but unknown cannot say which tax-id rule applies: the country field carries the error alone.
  if (c.country && out.country) set('taxId', c.taxId ? undefined : 'required');
  else set('taxId', checkTaxId(c.taxId ?? '', c.type, c.country || undefined));
  return out;
}

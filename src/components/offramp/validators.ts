// Client checks of the add-bank-account form, the server's own rules: CPF/CNPJ check digits, e-mail shape, +55 phone, EVP UUID, IBAN mod-97, BIC.
import { checkBirthDate, checkEmail, checkPastDate, checkTaxId, type FieldError } from '../../contract/customer-rules';
import { isValidCnpj, isValidCpf } from '../../contract/tax-id';
import { isAlpha3Country } from '../../contract/countries';
import { hasControlCharacter } from '../../contract/text';
import { ibanError, isBic } from '../../rules/iban';
import { isOptional, pixKeyModel, visibleFields, type BankField, type BankForm, type PixKeyType } from './model';

export type BankFieldError =
  | 'required'
  | 'cpf'
  | 'cnpj'
  | 'email'
  | 'phone'
  | 'evp'
  | 'ibanShape'
  | 'ibanLength'
  | 'ibanChecksum'
  | 'bic'
  | 'accountNumber'
  | 'country'
  | 'date'
  | 'futureDate'
  | 'underage'
  | 'taxId'
  | 'tooLong'
  | 'controlCharacter';

/** A Brazilian number in E.164: +55, a two-digit area code (no 0), then 9 + 8 digits (mobile) or 8 digits (landline). */
const BR_PHONE = /^\+55[1-9]{2}(?:9\d{8}|[2-8]\d{7})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function pixKeyError(keyType: PixKeyType, typed: string): BankFieldError | undefined {
  if (!typed.trim()) return 'required';
  const value = pixKeyModel(keyType, typed);
  switch (keyType) {
    case 'CPF':
      return isValidCpf(value) ? undefined : 'cpf';
    case 'CNPJ':
      return isValidCnpj(value) ? undefined : 'cnpj';
    case 'EMAIL':
      return checkEmail(value) || value.length > 77 ? 'email' : undefined;
    case 'PHONE':
      return BR_PHONE.test(value) ? undefined : 'phone';
    case 'EVP':
      return UUID.test(value) ? undefined : 'evp';
  }
}

const ibanErrors = { shape: 'ibanShape', length: 'ibanLength', checksum: 'ibanChecksum' } as const;

/** The shared customer rules (src/contract/customer-rules.ts, which the server runs on holders too) in this form's words. */
const fromCustomerRule: Readonly<Record<FieldError, BankFieldError>> = {
  required: 'required',
  invalidCpf: 'cpf',
  invalidCnpj: 'cnpj',
  invalidTaxId: 'taxId',
  invalidDate: 'date',
  futureDate: 'futureDate',
  underage: 'underage',
  invalidCountry: 'country',
  invalidEmail: 'email',
  controlCharacter: 'controlCharacter',
};
const rule = (error: FieldError | undefined): BankFieldError | undefined => (error ? fromCustomerRule[error] : undefined);

/** Maximum lengths of the contract (src/contract/bank-accounts.ts): past them the server says no, so say it first. */
const maxLength: Partial<Record<BankField, number>> = {
  name: 100,
  holderName: 200,
  legalName: 200,
  taxId: 40,
  line1: 200,
  city: 100,
  state: 100,
  postalCode: 20,
  bankName: 140,
  email: 254,
};

export function fieldError(form: BankForm, field: BankField, today: string): BankFieldError | undefined {
  const value = form[field].trim();
  if (!value) return isOptional(form, field) ? undefined : 'required';
  const max = maxLength[field];
  if (max !== undefined && value.length > max) return 'tooLong';
  if (hasControlCharacter(value)) return 'controlCharacter';
  switch (field) {
    case 'keyValue':
      return pixKeyError(form.keyType, form.keyValue);
    case 'iban': {
      const error = ibanError(value);
      return error ? ibanErrors[error] : undefined;
    }
    case 'bic':
      return isBic(value) ? undefined : 'bic';
    case 'accountNumber':
      return /^[A-Z0-9]{4,34}$/i.test(value.replace(/\s/g, '')) ? undefined : 'accountNumber';
    case 'bankCountry':
    case 'country':
      return isAlpha3Country(value) ? undefined : 'country';
    case 'taxId': {
      // Judged by the holder's country as the server does (for SELF, the customer's); until a country is chosen, that field says what is missing.
      const country = form.taxCountry || form.country;
      return isAlpha3Country(country) ? rule(checkTaxId(value, form.holderType, country)) : undefined;
    }
    case 'birthDate':
      return rule(checkBirthDate(value, new Date(`${today}T12:00:00Z`)));
    case 'incorporationDate':
      return rule(checkPastDate(value, new Date(`${today}T12:00:00Z`)));
    case 'email':
      return rule(checkEmail(value));
    default:
      return undefined;
  }
}

/** Every visible field's error; an empty object means the form can be sent. */
export function validateBankForm(form: BankForm, today: string): Partial<Record<BankField, BankFieldError>> {
  const errors: Partial<Record<BankField, BankFieldError>> = {};
  for (const field of visibleFields(form)) {
    const error = fieldError(form, field, today);
    if (error) errors[field] = error;
  }
  return errors;
}

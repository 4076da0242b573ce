// Bank-account rules: the rail fixes the currency and the identifier's shape; each PIX key type and each IBAN/BIC is checked.
import { electronicIban, ibanError, isBic, normalBic } from '../../src/rules/iban';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { checkEmail, checkTaxId, fieldErrorCode, fieldErrorMessages } from '../../src/contract/customer-rules';
import { isAlpha3Country } from '../../src/contract/countries';
import { normalizeTaxId } from '../../src/contract/tax-id';
import type { FieldIssue } from './errors';

export type AccountRail = 'PIX' | 'SEPA' | 'SWIFT';
export const currencyOfRail: Record<AccountRail, 'BRL' | 'EUR' | 'USD'> = { PIX: 'BRL', SEPA: 'EUR', SWIFT: 'USD' };

const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checks the identifier for its rail and answers it normalised (digits only for CPF/CNPJ, E.164 phones, electronic IBANs). */
export function checkIdentifier(rail: AccountRail, identifier: Record<string, string>, issues: FieldIssue[]): Record<string, string> {
  const at = (k: string) => `identifier.${k}`;
  const expect = (keys: string[], optional: string[] = []) => {
    for (const k of Object.keys(identifier)) if (!keys.includes(k) && !optional.includes(k)) issues.push({ path: at(k), message: `is not a ${rail} identifier field`, code: 'NOT_ALLOWED' });
    for (const k of keys) if (!identifier[k]) issues.push({ path: at(k), message: `is required for ${rail}`, code: 'REQUIRED' });
  };
  switch (rail) {
    case 'PIX': {
      expect(['keyType', 'keyValue']);
      const { keyType, keyValue = '' } = identifier;
      let value = keyValue.trim();
      if (keyType === 'CPF' || keyType === 'CNPJ') {
        const e = checkTaxId(value, keyType === 'CPF' ? 'INDIVIDUAL' : 'BUSINESS');
        if (e) issues.push({ path: at('keyValue'), message: fieldErrorMessages[e], code: fieldErrorCode[e] });
        value = normalizeTaxId(value);
      } else if (keyType === 'EMAIL') {
        if (checkEmail(value) || value.length > 77) issues.push({ path: at('keyValue'), message: 'is not a valid email PIX key', code: 'INVALID_FORMAT' });
        value = value.toLowerCase();
      } else if (keyType === 'PHONE') {
        const phone = value.startsWith('+') ? parsePhoneNumberFromString(value) : undefined;
        if (!phone?.isValid() || phone.country !== 'BR') issues.push({ path: at('keyValue'), message: 'must be a Brazilian phone number in international format, e.g. +5511987654321', code: 'INVALID_PHONE' });
        else value = phone.number;
      } else if (keyType === 'EVP') {
        if (!EVP.test(value)) issues.push({ path: at('keyValue'), message: 'must be a random key (EVP): a UUID', code: 'INVALID_FORMAT' });
        value = value.toLowerCase();
      } else if (keyType) {
        issues.push({ path: at('keyType'), message: 'must be one of CPF, CNPJ, EMAIL, PHONE, EVP', code: 'NOT_ONE_OF' });
      }
      return { keyType: keyType ?? '', keyValue: value };
    }
    case 'SEPA': {
      expect(['iban'], ['bic']);
      const iban = electronicIban(identifier.iban ?? '');
      if (identifier.iban && ibanError(iban)) issues.push({ path: at('iban'), message: 'is not a valid IBAN (country, length or mod-97 check digits)', code: 'INVALID_FORMAT' });
      const bic = identifier.bic ? normalBic(identifier.bic) : undefined;
      if (bic && !isBic(bic)) issues.push({ path: at('bic'), message: 'is not a valid BIC (8 or 11 characters)', code: 'INVALID_FORMAT' });
      return { iban, ...(bic ? { bic } : {}) };
    }
    case 'SWIFT': {
      expect(['accountNumber', 'bic', 'bankName', 'bankCountry']);
      const bic = normalBic(identifier.bic ?? '');
      if (identifier.bic && !isBic(bic)) issues.push({ path: at('bic'), message: 'is not a valid BIC (8 or 11 characters)', code: 'INVALID_FORMAT' });
      const accountNumber = (identifier.accountNumber ?? '').replace(/\s/g, '');
      if (identifier.accountNumber && !/^[A-Za-z0-9]{4,34}$/.test(accountNumber)) issues.push({ path: at('accountNumber'), message: 'must be 4 to 34 letters and digits', code: 'INVALID_FORMAT' });
      const bankCountry = (identifier.bankCountry ?? '').toUpperCase();
      if (identifier.bankCountry && !isAlpha3Country(bankCountry)) issues.push({ path: at('bankCountry'), message: 'must be an ISO 3166-1 alpha-3 code', code: 'INVALID_COUNTRY' });
      return { accountNumber, bic, bankName: identifier.bankName ?? '', bankCountry };
    }
  }
}

/** The payment echo an off-ramp shows: the PIX key, or the account's bank identifier. */
export function paymentEcho(rail: AccountRail, identifier: Record<string, string>): Record<string, string> {
  return { rail, ...identifier };
}

/**
 * A SELF account belongs to the customer: its holder is the customer, so the holder's type and tax id must be the
 * customer's own (compared normalised). Other relationships are counterparties and may be anyone.
 */
export function checkSelfHolder(
  holder: { relationship: string; type: string; taxId?: string },
  customer: { type: string; taxId: string },
): FieldIssue[] {
  if (holder.relationship !== 'SELF') return [];
  const issues: FieldIssue[] = [];
  if (holder.type !== customer.type) issues.push({ path: 'holder.type', message: `must be ${customer.type}, the customer's own type, for a SELF account`, code: 'CONFLICTING_FIELDS' });
  if (holder.taxId !== undefined && normalizeTaxId(holder.taxId) !== normalizeTaxId(customer.taxId)) {
    issues.push({ path: 'holder.taxId', message: "must be the customer's own tax id for a SELF account", code: 'CONFLICTING_FIELDS' });
  }
  return issues;
}

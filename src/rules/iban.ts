// IBAN and BIC: the one rule the server (server/domain/bank-accounts.ts) and <ramp-offramp> apply, ibantools' full ISO 13616 registry.
import { isValidBIC, validateIBAN, ValidationErrorsIBAN } from 'ibantools';

/** The electronic form the API stores: no spaces or punctuation, upper case (`de89 3704…` → `DE8937040044…`). */
export function electronicIban(value: string): string {
  return value.replace(/[\s.-]/g, '').toUpperCase();
}

/** The view value: groups of four (`DE89 3704 0044 0532 0130 00`), as printed on bank cards and statements. */
export function formatIban(value: string): string {
  return electronicIban(value).replace(/(.{4})(?=.)/g, '$1 ');
}

export type IbanError = 'shape' | 'length' | 'checksum';

/**
 * Why an IBAN is wrong, or `undefined` when it is right; the input is electronic or formatted. `length`: a registry
 * country with the wrong number of characters; `checksum`: the mod-97 (or national) check digits fail; `shape`: the rest.
 */
export function ibanError(value: string): IbanError | undefined {
  const iban = electronicIban(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return 'shape';
  const { valid, errorCodes } = validateIBAN(iban);
  if (valid) return undefined;
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return 'length';
  if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum) || errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) return 'checksum';
  return 'shape';
}

/** BIC (ISO 9362): bank 4 letters, country 2 letters, location 2, optional branch 3; the input may be lower case or spaced. */
export function normalBic(value: string): string {
  return value.toUpperCase().replace(/\s/g, '');
}

export const isBic = (value: string): boolean => isValidBIC(normalBic(value));

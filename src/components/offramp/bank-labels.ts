// Message keys of the bank-account words: the add-account form's labels, hints and errors, and the account lines of the off-ramp's list.
import { keyTable } from '../key-table';
import type { MessageKey } from '../../i18n';
import type { BankField, BankRail, HolderType, PixKeyType } from './model';
import type { BankFieldError } from './validators';

/** Message keys of the bank form's labels; `holderName` is the holder's `name` in the API. */
export const fieldLabelKeys = keyTable('bank.field.', ['name', 'keyType', 'keyValue', 'iban', 'bic', 'accountNumber', 'bankName', 'bankCountry', 'relationship', 'holderName', 'legalName', 'taxId', 'birthDate', 'incorporationDate', 'email', 'line1', 'city', 'state', 'postalCode', 'country']) satisfies Record<BankField, MessageKey>;

export const errorKeys = keyTable('bank.error.', ['required', 'cpf', 'cnpj', 'email', 'phone', 'evp', 'ibanShape', 'ibanLength', 'ibanChecksum', 'bic', 'accountNumber', 'country', 'date', 'futureDate', 'taxId', 'tooLong', 'controlCharacter']) satisfies Record<Exclude<BankFieldError, 'underage'>, MessageKey>;

export const keyTypeKeys = keyTable('bank.keyType.', ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']) satisfies Record<PixKeyType, MessageKey>;

export const keyHintKeys = keyTable('bank.keyValue.hint.', ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']) satisfies Record<PixKeyType, MessageKey>;

export const railKeys = { PIX: 'bank.rail.PIX', SEPA: 'bank.rail.SEPA', SWIFT: 'bank.rail.SWIFT' } as const satisfies Record<BankRail, MessageKey>;
export const holderTypeKeys = { INDIVIDUAL: 'bank.holderType.INDIVIDUAL', BUSINESS: 'bank.holderType.BUSINESS' } as const satisfies Record<HolderType, MessageKey>;
export const relationshipKeys = keyTable('bank.relationship.', ['SELF', 'FRIEND', 'RELATIVE', 'EMPLOYEE']);

// Message keys of the bank-account words: the add-account form's labels, hints and errors, and the account lines of the off-ramp's list.
import type { MessageKey } from '../../i18n';
import type { BankField, BankRail, HolderType, PixKeyType } from './model';
import type { BankFieldError } from './validators';

/** Message keys of the bank form's labels; `holderName` is the holder's `name` in the API. */
export const fieldLabelKeys = {
  name: 'bank.field.name',
  keyType: 'bank.field.keyType',
  keyValue: 'bank.field.keyValue',
  iban: 'bank.field.iban',
  bic: 'bank.field.bic',
  accountNumber: 'bank.field.accountNumber',
  bankName: 'bank.field.bankName',
  bankCountry: 'bank.field.bankCountry',
  relationship: 'bank.field.relationship',
  holderName: 'bank.field.holderName',
  legalName: 'bank.field.legalName',
  taxId: 'bank.field.taxId',
  birthDate: 'bank.field.birthDate',
  incorporationDate: 'bank.field.incorporationDate',
  email: 'bank.field.email',
  line1: 'bank.field.line1',
  city: 'bank.field.city',
  state: 'bank.field.state',
  postalCode: 'bank.field.postalCode',
  country: 'bank.field.country',
} as const satisfies Record<BankField, MessageKey>;

export const errorKeys = {
  required: 'bank.error.required',
  cpf: 'bank.error.cpf',
  cnpj: 'bank.error.cnpj',
  email: 'bank.error.email',
  phone: 'bank.error.phone',
  evp: 'bank.error.evp',
  ibanShape: 'bank.error.ibanShape',
  ibanLength: 'bank.error.ibanLength',
  ibanChecksum: 'bank.error.ibanChecksum',
  bic: 'bank.error.bic',
  accountNumber: 'bank.error.accountNumber',
  country: 'bank.error.country',
  date: 'bank.error.date',
  futureDate: 'bank.error.futureDate',
  taxId: 'bank.error.taxId',
  tooLong: 'bank.error.tooLong',
  controlCharacter: 'bank.error.controlCharacter',
} as const satisfies Record<Exclude<BankFieldError, 'underage'>, MessageKey>;

export const keyTypeKeys = {
  CPF: 'bank.keyType.CPF',
  CNPJ: 'bank.keyType.CNPJ',
  EMAIL: 'bank.keyType.EMAIL',
  PHONE: 'bank.keyType.PHONE',
  EVP: 'bank.keyType.EVP',
} as const satisfies Record<PixKeyType, MessageKey>;

export const keyHintKeys = {
  CPF: 'bank.keyValue.hint.CPF',
  CNPJ: 'bank.keyValue.hint.CNPJ',
  EMAIL: 'bank.keyValue.hint.EMAIL',
  PHONE: 'bank.keyValue.hint.PHONE',
  EVP: 'bank.keyValue.hint.EVP',
} as const satisfies Record<PixKeyType, MessageKey>;

export const railKeys = { PIX: 'bank.rail.PIX', SEPA: 'bank.rail.SEPA', SWIFT: 'bank.rail.SWIFT' } as const satisfies Record<BankRail, MessageKey>;
export const holderTypeKeys = { INDIVIDUAL: 'bank.holderType.INDIVIDUAL', BUSINESS: 'bank.holderType.BUSINESS' } as const satisfies Record<HolderType, MessageKey>;
export const relationshipKeys = {
  SELF: 'bank.relationship.SELF',
  FRIEND: 'bank.relationship.FRIEND',
  RELATIVE: 'bank.relationship.RELATIVE',
  EMPLOYEE: 'bank.relationship.EMPLOYEE',
} as const;

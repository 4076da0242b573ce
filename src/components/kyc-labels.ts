// Translated names of what KYC talks about (document types, requirements, reject labels), shared by the three KYC components.
import type { I18nController, MessageKey, MessageParams } from '../i18n';

/** Keys whose text takes no parameters, so they can be chosen at run time and still type-check in `t()`. */
export type PlainMessageKey = { [K in MessageKey]: [MessageParams<K>] extends [never] ? K : never }[MessageKey];

const documentTypeKeys: Readonly<Record<string, PlainMessageKey>> = {
  IDENTITY_DOCUMENT: 'uploader.type.IDENTITY_DOCUMENT',
  ID_CARD: 'uploader.type.ID_CARD',
  PASSPORT: 'uploader.type.PASSPORT',
  DRIVERS_LICENSE: 'uploader.type.DRIVERS_LICENSE',
  BANK_STATEMENT: 'uploader.type.BANK_STATEMENT',
  INCOME_TAX_RETURN: 'uploader.type.INCOME_TAX_RETURN',
  DELIVERY_RECEIPT: 'uploader.type.DELIVERY_RECEIPT',
  INCORPORATION_ARTICLES: 'uploader.type.INCORPORATION_ARTICLES',
  SHAREHOLDER_REGISTRY: 'uploader.type.SHAREHOLDER_REGISTRY',
  DIRECTORS_REGISTRY: 'uploader.type.DIRECTORS_REGISTRY',
  POWER_OF_ATTORNEY: 'uploader.type.POWER_OF_ATTORNEY',
  REGULATED_ACTIVITY_DOCUMENT: 'uploader.type.REGULATED_ACTIVITY_DOCUMENT',
  SIGNED_BALANCE_SHEET: 'uploader.type.SIGNED_BALANCE_SHEET',
  SIGNED_CORPORATE_STRUCTURE_CHART: 'uploader.type.SIGNED_CORPORATE_STRUCTURE_CHART',
  SIGNED_INCOME_STATEMENT: 'uploader.type.SIGNED_INCOME_STATEMENT',
  OTHER: 'uploader.type.OTHER',
  SELFIE: 'uploader.type.SELFIE',
  // Requirements that are not documents.
  ADDITIONAL_INFORMATION: 'kyc.requirement.ADDITIONAL_INFORMATION',
  ASSOCIATED_PARTIES: 'kyc.requirement.ASSOCIATED_PARTIES',
  LIVENESS: 'kyc.requirement.LIVENESS',
};

/** The message key naming a requirement or document type; undefined for a name this version does not know. */
export function requirementKey(name: string): PlainMessageKey | undefined {
  return documentTypeKeys[name];
}

/** A name we have no translation for, made readable: `SOME_NEW_THING` → `some new thing`. */
export function humanize(code: string): string {
  return code.replaceAll('_', ' ').toLowerCase();
}

const rejectLabelKeys: Readonly<Record<string, PlainMessageKey>> = {
  DOCUMENT_ILLEGIBLE: 'kyc.rejectLabel.DOCUMENT_ILLEGIBLE',
  DOCUMENT_EXPIRED: 'kyc.rejectLabel.DOCUMENT_EXPIRED',
  DOCUMENT_OUTDATED: 'kyc.rejectLabel.DOCUMENT_OUTDATED',
  NAME_MISMATCH: 'kyc.rejectLabel.NAME_MISMATCH',
  ADDRESS_MISMATCH: 'kyc.rejectLabel.ADDRESS_MISMATCH',
  SANCTIONS_LIST_MATCH: 'kyc.rejectLabel.SANCTIONS_LIST_MATCH',
};

export function rejectLabelKey(label: string): PlainMessageKey | undefined {
  return rejectLabelKeys[label];
}

/**
 * Why a document or a verification was refused, in the user's language: each reject label we have words for, else a
 * plain "not accepted". The reviewer's free-text note (`comment`) is English from the provider and never shown.
 */
export function rejectionText(i18n: { t: (key: PlainMessageKey) => string }, labels: readonly string[] | undefined): string {
  const words = new Set((labels ?? []).map((label) => i18n.t(rejectLabelKey(label) ?? 'kyc.rejectLabel.other')));
  return words.size ? [...words].join(' ') : i18n.t('kyc.rejectLabel.other');
}

/** A requirement's or document's status in words; a status this version does not know reads as `fallback` makes it. */
export function statusText(i18n: I18nController, status: string, fallback: (status: string) => string = (s) => s): string {
  switch (status) {
    case 'NOT_SENT':
    case 'SENT':
    case 'APPROVED':
    case 'REJECTED':
      return i18n.t(`uploader.status.${status}`);
    default:
      return fallback(status);
  }
}

// The words of <ramp-document-uploader>: type, zone, status and error labels in the user's language, and each requirement's hint.
import type { I18nController } from '../../i18n';
import { humanize, requirementKey, statusText, type PlainMessageKey } from '../kyc-labels';
import type { RequirementLike, Side } from './requirements';
import type { UploadError } from './upload-queue';

/** The label of a requirement: the identity group (several accepted types) reads "Identity document", others their type. */
export const labelName = (requirement: RequirementLike): string => ((requirement.acceptedTypes?.length ?? 0) > 1 ? 'IDENTITY_DOCUMENT' : requirement.name);

export const hintKeys: Partial<Record<string, PlainMessageKey>> = {
  IDENTITY_DOCUMENT: 'uploader.hint.IDENTITY_DOCUMENT',
  BANK_STATEMENT: 'uploader.hint.BANK_STATEMENT',
  INCORPORATION_ARTICLES: 'uploader.hint.INCORPORATION_ARTICLES',
  SHAREHOLDER_REGISTRY: 'uploader.hint.SHAREHOLDER_REGISTRY',
  DIRECTORS_REGISTRY: 'uploader.hint.DIRECTORS_REGISTRY',
  INCOME_TAX_RETURN: 'uploader.hint.INCOME_TAX_RETURN',
  DELIVERY_RECEIPT: 'uploader.hint.DELIVERY_RECEIPT',
};

/** The id fragment of a drop zone (and of its buttons and inputs). */
export function zoneKey(type: string, side: Side | undefined): string {
  return side ? `${type}-${side}` : type;
}

export function typeLabel(i18n: I18nController, type: string): string {
  const key = requirementKey(type);
  return key ? i18n.t(key) : humanize(type);
}

export function zoneLabel(i18n: I18nController, type: string, side: Side | undefined): string {
  const label = typeLabel(i18n, type);
  return side ? i18n.t('uploader.zone.side', { type: label, side: i18n.t(`uploader.side.${side}`) }) : label;
}

/** A document's status; one this version does not know shows as the server wrote it. */
export function statusLabel(i18n: I18nController, status: string): string {
  return statusText(i18n, status);
}

export function errorText(i18n: I18nController, error: UploadError): string {
  switch (error.kind) {
    case 'tooLarge':
    case 'badType':
    case 'empty':
    case 'network':
    case 'session':
      return i18n.t(`uploader.error.${error.kind}`);
    case 'server':
      return i18n.t('uploader.error.server', { code: error.code });
    case 'needsInfo':
    case 'locked':
    case 'full':
    case 'invalid':
      return i18n.t(`uploader.error.${error.kind}`);
  }
}

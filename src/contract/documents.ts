// Document constants shared by the server's rules and the components' client checks; no zod here, so the browser bundle stays small.
export const IDENTITY_TYPES = ['ID_CARD', 'PASSPORT', 'DRIVERS_LICENSE'] as const;
export const DOCUMENT_TYPES = [
  ...IDENTITY_TYPES,
  'BANK_STATEMENT',
  'INCOME_TAX_RETURN',
  'DELIVERY_RECEIPT',
  'INCORPORATION_ARTICLES',
  'SHAREHOLDER_REGISTRY',
  'DIRECTORS_REGISTRY',
  'POWER_OF_ATTORNEY',
  'REGULATED_ACTIVITY_DOCUMENT',
  'SIGNED_BALANCE_SHEET',
  'SIGNED_CORPORATE_STRUCTURE_CHART',
  'SIGNED_INCOME_STATEMENT',
  'OTHER',
  'SELFIE',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
/** What POST /documents takes: every type but SELFIE, which only the hosted verification page records. */
export const UPLOAD_DOCUMENT_TYPES = DOCUMENT_TYPES.filter((t): t is Exclude<DocumentType, 'SELFIE'> => t !== 'SELFIE');
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
export const DOCUMENT_CONTENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

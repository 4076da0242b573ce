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
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
export const DOCUMENT_CONTENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

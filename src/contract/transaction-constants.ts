// Transaction constants shared by the server and the components; no zod here, so the browser can import them.
export const PURPOSES = [
  'PERSONAL_ACCOUNT',
  'INVESTMENT',
  'REAL_ESTATE',
  'TRADE_TRANSACTIONS',
  'TAX',
  'LOAN',
  'BILLS',
  'EXPENSES_REIMBURSEMENT',
  'PROFESSIONAL_SERVICES',
] as const;
export type Purpose = (typeof PURPOSES)[number];

export const TRANSACTION_STATUSES = [
  'AWAITING_FUNDS',
  'TRANSFERRING_FIAT',
  'TRADING',
  'TRANSFERRING_STABLECOIN',
  'SUCCESS',
  'FAILED',
  'REFUNDING',
  'REFUNDED',
] as const;

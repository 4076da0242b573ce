// The purposes a transaction may declare, and the one rule the UI enforces: PERSONAL_ACCOUNT only to the customer's own (SELF) account.
import type { OnRampRequest } from '../../contract/transactions';

export type Purpose = OnRampRequest['purpose'];
export type Relationship = 'SELF' | 'FRIEND' | 'RELATIVE' | 'EMPLOYEE';

/** Mirrors PURPOSES in src/contract/transactions.ts (the browser imports no zod, so not the schema itself). */
export const purposes: readonly Purpose[] = [
  'PERSONAL_ACCOUNT',
  'INVESTMENT',
  'REAL_ESTATE',
  'TRADE_TRANSACTIONS',
  'TAX',
  'LOAN',
  'BILLS',
  'EXPENSES_REIMBURSEMENT',
  'PROFESSIONAL_SERVICES',
];

export const isPurpose = (value: string): value is Purpose => (purposes as readonly string[]).includes(value);

/**
 * Whether `purpose` may pay out to an account whose holder has `relationship` to the customer. An on-ramp pays into
 * the customer's own wallet, so it passes no relationship and every purpose is open to it.
 */
export function purposeAllowed(purpose: Purpose, relationship?: Relationship): boolean {
  return purpose !== 'PERSONAL_ACCOUNT' || relationship === undefined || relationship === 'SELF';
}

// The purposes a transaction may declare, and the one rule the UI enforces: PERSONAL_ACCOUNT only to the customer's own (SELF) account.
import { PURPOSES, type Purpose } from '../../contract/transaction-constants';

export type { Purpose };
export type Relationship = 'SELF' | 'FRIEND' | 'RELATIVE' | 'EMPLOYEE';

/** The contract's own list (from its zod-free module, so the browser pulls in no zod). */
export const purposes: readonly Purpose[] = PURPOSES;

export const isPurpose = (value: string): value is Purpose => (purposes as readonly string[]).includes(value);

/**
 * Whether `purpose` may pay out to an account whose holder has `relationship` to the customer. An on-ramp pays into
 * the customer's own wallet, so it passes no relationship and every purpose is open to it.
 */
export function purposeAllowed(purpose: Purpose, relationship?: Relationship): boolean {
  return purpose !== 'PERSONAL_ACCOUNT' || relationship === undefined || relationship === 'SELF';
}

// `ramp-bank-account-created`: the customer added a payout bank account; its holder starts UNDER_VERIFICATION.
import { rampEvent } from './ramp-event';
import type { BankAccount } from '../contract/bank-accounts';

/** The bank account exactly as the BFF answered `201`. */
export type RampBankAccountCreatedDetail = BankAccount;

export class RampBankAccountCreatedEvent extends rampEvent('ramp-bank-account-created')<RampBankAccountCreatedDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-bank-account-created': RampBankAccountCreatedEvent;
  }
  interface DocumentEventMap {
    'ramp-bank-account-created': RampBankAccountCreatedEvent;
  }
}

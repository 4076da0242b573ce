// `ramp-bank-account-created`: the customer added a payout bank account; its holder starts UNDER_VERIFICATION.
import type { BankAccount } from '../contract/bank-accounts';

/** The bank account exactly as the BFF answered `201`. */
export type RampBankAccountCreatedDetail = BankAccount;

export class RampBankAccountCreatedEvent extends CustomEvent<RampBankAccountCreatedDetail> {
  static readonly eventName = 'ramp-bank-account-created';

  constructor(detail: RampBankAccountCreatedDetail) {
    super(RampBankAccountCreatedEvent.eventName, { detail, bubbles: true, composed: true });
  }
}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-bank-account-created': RampBankAccountCreatedEvent;
  }
  interface DocumentEventMap {
    'ramp-bank-account-created': RampBankAccountCreatedEvent;
  }
}

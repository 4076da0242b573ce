// `ramp-transaction-updated`: a followed transaction moved to another status (once per change, not once per poll).
import { rampEvent } from './ramp-event';
import type { Transaction } from '../contract/transactions';

/** The transaction as last read; `detail.state.status` is the new status. */
export type RampTransactionUpdatedDetail = Transaction;

export class RampTransactionUpdatedEvent extends rampEvent('ramp-transaction-updated')<RampTransactionUpdatedDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-transaction-updated': RampTransactionUpdatedEvent;
  }
  interface DocumentEventMap {
    'ramp-transaction-updated': RampTransactionUpdatedEvent;
  }
}

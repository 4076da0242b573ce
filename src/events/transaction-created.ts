// `ramp-transaction-created`: the service accepted a transaction (on-ramp waiting for its PIX payment, or off-ramp under way).
import { rampEvent } from './ramp-event';
import type { Transaction } from '../contract/transactions';

/** The transaction exactly as the BFF answered `201`: keep `id` to follow it from the partner backend (webhooks, `GET /v2/transactions/{id}`). */
export type RampTransactionCreatedDetail = Transaction;

export class RampTransactionCreatedEvent extends rampEvent('ramp-transaction-created')<RampTransactionCreatedDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-transaction-created': RampTransactionCreatedEvent;
  }
  interface DocumentEventMap {
    'ramp-transaction-created': RampTransactionCreatedEvent;
  }
}

// `ramp-verification-changed`: the customer's verification moved to another status (seen through the API, never set by a property).
import { rampEvent } from './ramp-event';
import type { Customer } from '../contract/customers';

export interface RampVerificationChangedDetail {
  customerId: string;
  status: Customer['verification']['status'];
}

export class RampVerificationChangedEvent extends rampEvent('ramp-verification-changed')<RampVerificationChangedDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-verification-changed': RampVerificationChangedEvent;
  }
  interface DocumentEventMap {
    'ramp-verification-changed': RampVerificationChangedEvent;
  }
}

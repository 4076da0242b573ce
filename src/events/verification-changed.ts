// `ramp-verification-changed`: the customer's verification moved to another status (seen through the API, never set by a property).
import type { Customer } from '../contract/customers';

export interface RampVerificationChangedDetail {
  customerId: string;
  status: Customer['verification']['status'];
}

export class RampVerificationChangedEvent extends CustomEvent<RampVerificationChangedDetail> {
  static readonly eventName = 'ramp-verification-changed';

  constructor(detail: RampVerificationChangedDetail) {
    super(RampVerificationChangedEvent.eventName, { detail, bubbles: true, composed: true });
  }
}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-verification-changed': RampVerificationChangedEvent;
  }
  interface DocumentEventMap {
    'ramp-verification-changed': RampVerificationChangedEvent;
  }
}

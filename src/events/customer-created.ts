// `ramp-customer-created`: a customer now exists and the component switched to the session bound to it.
import { rampEvent } from './ramp-event';
import type { Customer } from '../contract/customers';
import type { WidgetSession } from '../contract/widget-sessions';

export interface RampCustomerCreatedDetail {
  customer: Customer;
  /** The new session, bound to `customer.id`; the old onboarding session can no longer create customers. */
  session: WidgetSession;
}

export class RampCustomerCreatedEvent extends rampEvent('ramp-customer-created')<RampCustomerCreatedDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-customer-created': RampCustomerCreatedEvent;
  }
  interface DocumentEventMap {
    'ramp-customer-created': RampCustomerCreatedEvent;
  }
}

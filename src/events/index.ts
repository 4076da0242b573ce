// Every event the components fire, typed; `HTMLElementEventMap` is extended in each event's file.
export { RampCustomerCreatedEvent, type RampCustomerCreatedDetail } from './customer-created';
export { RampErrorEvent, type RampErrorDetail } from './error';

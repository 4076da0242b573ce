// `ramp-requote-requested`: the user asked for a new quote because the locked one can no longer pay (expired, already used, payment window closed).
import { rampEvent } from './ramp-event';
export interface RampRequoteRequestedDetail {
  /** The locked quote that can no longer be used, when there was one. */
  exchangeRateId?: string;
  /** Why: `RATE_EXPIRED`, `RATE_ALREADY_USED` (answers of the server) or `EXPIRED` (the PIX payment window closed). */
  reason: string;
}

/**
 * A request, not a fact: the host page (or `<ramp-widget>`) answers it by showing `<ramp-quote>` again and passing
 * the next `ramp-quote-locked` detail back. Cancelable, so a host that handles it can say so with `preventDefault()`.
 */
export class RampRequoteRequestedEvent extends rampEvent('ramp-requote-requested', { cancelable: true })<RampRequoteRequestedDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-requote-requested': RampRequoteRequestedEvent;
  }
  interface DocumentEventMap {
    'ramp-requote-requested': RampRequoteRequestedEvent;
  }
}

// `ramp-quote-expired`: a locked quote is no longer on offer (its time ran out, or the user gave it up); do not pay with its id.
import { rampEvent } from './ramp-event';
export interface RampQuoteExpiredDetail {
  /** The id from the `ramp-quote-locked` event of the same lock. */
  exchangeRateId: string;
  /**
   * `timeout`: `expiresAt` passed. `released`: the user chose to change the amount before that; the server would still
   * honour the id until `expiresAt`, but the user no longer sees or agrees to it. Either way, each `ramp-quote-locked`
   * is followed by exactly one `ramp-quote-expired`.
   */
  reason: 'timeout' | 'released';
}

export class RampQuoteExpiredEvent extends rampEvent('ramp-quote-expired')<RampQuoteExpiredDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-quote-expired': RampQuoteExpiredEvent;
  }
  interface DocumentEventMap {
    'ramp-quote-expired': RampQuoteExpiredEvent;
  }
}

// `ramp-quote-locked`: the user locked a quote; its `exchangeRateId` can pay for a transaction until `expiresAt`.
import { rampEvent } from './ramp-event';
import type { Quote } from '../contract/exchange-rates';

export interface RampQuoteLockedDetail {
  /** The locked quote's id: pass it as `exchangeRateId` when creating the transaction. Single use. */
  exchangeRateId: string;
  /** When the server stops honouring it (ISO 8601, UTC), exactly as the server gave it. */
  expiresAt: string;
  /** The whole locked quote: amounts, fees and rates guaranteed until `expiresAt`. */
  quote: Quote;
}

export class RampQuoteLockedEvent extends rampEvent('ramp-quote-locked')<RampQuoteLockedDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-quote-locked': RampQuoteLockedEvent;
  }
  interface DocumentEventMap {
    'ramp-quote-locked': RampQuoteLockedEvent;
  }
}

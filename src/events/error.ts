// `ramp-error`: something the user cannot fix by editing the form (expired session, no network, server trouble), for the partner to log or act on.
import { rampEvent } from './ramp-event';

export interface RampErrorDetail {
  /** A problem `code` (`UNAUTHENTICATED`, `FORBIDDEN`, `NOT_FOUND`, `RATE_LIMITED`, …) or `NETWORK_ERROR`. */
  code: string;
  /** HTTP status, or `null` when no answer came. */
  status: number | null;
  /** Human-readable, in English, for logs; not for end users. */
  detail: string;
  /** Quote it to support; present when the server answered. */
  requestId?: string;
  /** What the component was doing, e.g. `createCustomer`. */
  operation: string;
}

export class RampErrorEvent extends rampEvent('ramp-error')<RampErrorDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-error': RampErrorEvent;
  }
  interface DocumentEventMap {
    'ramp-error': RampErrorEvent;
  }
}

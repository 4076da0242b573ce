// `ramp-session-expiring` (about a minute before the session's expiry) and `ramp-session-expired` (the server refused it):
// hand the element a new token with `element.session = token` (or give it a `session-url`); no step loses its data.
import { rampEvent } from './ramp-event';

export interface RampSessionExpiringDetail {
  /** When the current session stops working (ISO 8601). */
  expiresAt: string;
}

export interface RampSessionExpiredDetail {
  /** The token the server refused. */
  expiredSession: string;
}

export class RampSessionExpiringEvent extends rampEvent('ramp-session-expiring')<RampSessionExpiringDetail> {}

/**
 * Set `element.session = newToken` in the listener, or call `event.preventDefault()` and set it within a minute: the
 * refused request is then repeated with it. Otherwise the element shows its "session expired" alert.
 */
export class RampSessionExpiredEvent extends rampEvent('ramp-session-expired', { cancelable: true })<RampSessionExpiredDetail> {}

declare global {
  interface HTMLElementEventMap {
    'ramp-session-expiring': RampSessionExpiringEvent;
    'ramp-session-expired': RampSessionExpiredEvent;
  }
  interface DocumentEventMap {
    'ramp-session-expiring': RampSessionExpiringEvent;
    'ramp-session-expired': RampSessionExpiredEvent;
  }
}

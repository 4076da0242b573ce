// Getting a new session for an element whose session expired (a 401) or is about to: from the partner's `session-url`
// (POST, with the partner's cookies), else by asking the page with `ramp-session-expired`: a listener sets
// `element.session = newToken` at once, or calls `event.preventDefault()` and sets it within a minute. Loaded only
// when a renewal happens.
import { RampSessionExpiredEvent, RampSessionExpiringEvent } from '../events/session';

export interface Renewable extends HTMLElement {
  session: string;
  sessionUrl: string;
  /** Resolves when `session` next changes (set by the partner, or by a context provider). */
  nextSession(timeoutMs: number): Promise<boolean>;
}

/** How long the element waits for the partner to hand a new token after `ramp-session-expired`. */
export const RENEWAL_WAIT_MS = 60_000;

export async function fetchSession(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(url, { method: 'POST', credentials: 'include', headers: { accept: 'application/json' } });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { token?: unknown };
    return typeof body.token === 'string' && body.token ? body.token : undefined;
  } catch {
    return undefined;
  }
}

/** True once the element holds a new token; the request that failed is then sent again with it. */
export async function renew(element: Renewable): Promise<boolean> {
  const before = element.session;
  if (element.sessionUrl) {
    const token = await fetchSession(element.sessionUrl);
    if (token && token !== before) {
      element.session = token;
      return true;
    }
  }
  const waiting = element.nextSession(RENEWAL_WAIT_MS);
  const nobodyRenews = element.dispatchEvent(new RampSessionExpiredEvent({ expiredSession: before }));
  if (element.session !== before) return true; // handed over in the listener itself
  // `preventDefault()` says "a token is on its way": wait for it; otherwise the call fails now as UNAUTHENTICATED.
  return nobodyRenews ? false : waiting;
}

/** About a minute before expiry: tell the page, and fetch a new token ahead of time when a `session-url` is set. */
export async function expiring(element: Renewable, expiresAt: string): Promise<void> {
  element.dispatchEvent(new RampSessionExpiringEvent({ expiresAt }));
  if (element.sessionUrl) {
    const token = await fetchSession(element.sessionUrl);
    if (token) element.session = token;
  }
}

/** Seconds before a session's `exp` at which `ramp-session-expiring` fires (and a `session-url` is asked for a new one). */
const EXPIRING_LEAD_S = 60;

/** The `exp` claim of a JWT session token, in ms since the epoch; undefined for anything else. */
function expiryOf(token: string): number | undefined {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The timer that fires `ramp-session-expiring` for this token, or undefined when it carries no usable `exp`. */
export function expiryTimer(element: Renewable, token: string): ReturnType<typeof setTimeout> | undefined {
  const expiry = expiryOf(token);
  if (expiry === undefined) return undefined;
  const delay = expiry - EXPIRING_LEAD_S * 1000 - Date.now();
  if (delay > 2 ** 31 - 1) return undefined;
  return setTimeout(() => void expiring(element, new Date(expiry).toISOString()), Math.max(0, delay));
}

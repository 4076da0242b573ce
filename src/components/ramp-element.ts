// The base of every <ramp-*> element: it renders only once the code and the messages its current view needs have loaded,
// takes session, API base and language from an enclosing <ramp-widget> (Lit context), and renews its session.
import { ContextEvent } from '@lit/context';
import { LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import { hasMessages, loadMessages, resolveLocale, type Bundle } from '../i18n';
import type { Renewable } from './session-renewal';
import { rampContext, type RampContext } from './widget/context';

/** Runs `task` when the page is idle (within two seconds at the latest). */
function whenIdle(task: () => unknown): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void task(), { timeout: 2000 });
  else setTimeout(() => void task(), 0);
}

/** What every component declares itself (reactive properties `session` and `api-base`). */
interface Connected {
  session: string;
  apiBase: string;
}

/**
 * The base of every Ramp element.
 *
 * @fires ramp-session-expiring - {RampSessionExpiringEvent} About a minute before the session token's `exp`; `detail` is `{expiresAt}`. Set `element.session` to a new token (with `session-url` the element fetches one itself).
 * @fires ramp-session-expired - {RampSessionExpiredEvent} The server refused the session (401); `detail` is `{expiredSession}`. Set `element.session` in the listener, or call `event.preventDefault()` and set it within a minute: the refused request is repeated with it and no step loses its data.
 */
export class RampElement extends LitElement {
  private get connected(): Connected {
    return this as unknown as Connected;
  }

  /**
   * Where the element gets a new session token when its own is about to expire or was refused: your backend's URL,
   * called with `POST` and your cookies (`credentials: 'include'`), answering `{"token": "…"}`. Without it the element
   * fires `ramp-session-expired` and waits for `element.session = newToken`.
   */
  @property({ attribute: 'session-url' }) sessionUrl = '';

  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private sessionWaiters: Array<(renewed: boolean) => void> = [];
  private leaveContext: (() => void) | undefined;
  /** Inside <ramp-widget>: it renews the session for every component in it (and fires the events once). */
  private renewViaContext: ((refused?: string) => Promise<boolean>) | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    // Inside <ramp-widget>: session, API base and language come from it, and follow it when they change.
    this.dispatchEvent(
      new ContextEvent(rampContext, this, (value: RampContext, unsubscribe?: () => void) => {
        this.leaveContext = unsubscribe;
        this.renewViaContext = value.renew;
        if (value.session) this.connected.session = value.session;
        if (value.apiBase) this.connected.apiBase = value.apiBase;
        if (value.lang) this.lang = value.lang;
      }, true),
    );
    // No session yet but a `session-url` (your backend, or Ramp's public onboarding): ask it for the first one.
    if (!this.connected.session && this.sessionUrl && !this.renewViaContext) {
      void import('./session-renewal')
        .then((m) => m.fetchSession(this.sessionUrl))
        .then((token) => {
          if (token && !this.connected.session) this.connected.session = token;
        });
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.leaveContext?.();
    this.leaveContext = undefined;
    clearTimeout(this.expiryTimer);
    this.seenSession = ''; // back on the page: the expiry timer is set again
  }

  private seenSession = '';

  constructor() {
    super();
    // A controller rather than willUpdate, so a component's own willUpdate need not remember to call super.
    this.addController({
      hostUpdate: () => {
        const session = this.connected.session;
        if (session === this.seenSession) return;
        this.seenSession = session;
        for (const resolve of this.sessionWaiters.splice(0)) resolve(true);
        this.scheduleExpiring();
      },
    });
  }

  /**
   * A timer for `ramp-session-expiring`, a minute ahead of a JWT token's `exp`. Its code loads once the page is idle:
   * fetched during the first render, it took the main thread from the first paint and the first keystroke.
   */
  private scheduleExpiring(): void {
    clearTimeout(this.expiryTimer);
    const session = this.connected.session;
    if (!session || !this.isConnected || this.renewViaContext || session.split('.').length !== 3) return;
    whenIdle(() =>
      import('./session-renewal').then(
        (m) => {
          if (this.connected.session !== session || !this.isConnected) return;
          // Another schedule for this session may have set its timer first (the element left and came back meanwhile).
          clearTimeout(this.expiryTimer);
          this.expiryTimer = m.expiryTimer(this as unknown as Renewable, session);
        },
        // Not loaded (offline, a deploy in between): no early warning; a 401 still renews, and the next session retries.
        () => undefined,
      ),
    );
  }

  /** Resolves true when `session` changes within `timeoutMs`, false otherwise. */
  nextSession(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sessionWaiters = this.sessionWaiters.filter((r) => r !== done);
        resolve(false);
      }, timeoutMs);
      const done = (renewed: boolean) => (clearTimeout(timer), resolve(renewed));
      this.sessionWaiters.push(done);
    });
  }

  /**
   * For the BFF client's `renewSession`: after a 401, a new token from `session-url`, or from the page after
   * `ramp-session-expired`; true once the element holds it (the refused request is then sent again).
   */
  protected renewSession = (refused?: string): Promise<boolean> => {
    // Refused with a token the element no longer holds: a renewal already happened; send the request again with the new one.
    if (refused && refused !== this.connected.session) return Promise.resolve(true);
    // Several requests refused at once ask the partner once.
    this.renewing ??= (this.renewViaContext?.(refused) ?? import('./session-renewal').then((m) => m.renew(this as unknown as Renewable))).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  };
  private renewing: Promise<boolean> | undefined;

  /** The message bundles the element's current view speaks (see `Bundle`); `core` unless a component says more. */
  protected messageBundles(): readonly Bundle[] {
    return ['core'];
  }

  /** Code the current view needs and has not loaded yet (a lazily imported step, say); undefined when all is there. */
  protected pendingCode(): Promise<unknown> | undefined {
    return undefined;
  }

  /**
   * Each language's bundles, and some views' code, are chunks of their own: the first render (and the first after a
   * change of language or of view) waits for them, so a user never sees message keys, and `updateComplete` resolves
   * with the words in place.
   */
  protected override scheduleUpdate(): void | Promise<unknown> {
    const locale = resolveLocale(this);
    const wanted = this.messageBundles();
    const code = this.pendingCode();
    if (!code && hasMessages(locale, wanted)) return super.scheduleUpdate();
    // A failed fetch still renders (with keys) rather than leaving the element blank; the next update tries again.
    return Promise.all([loadMessages(locale, wanted), code]).then(
      () => super.scheduleUpdate(),
      () => super.scheduleUpdate(),
    );
  }
}

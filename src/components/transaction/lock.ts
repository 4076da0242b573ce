// The lock of the quote a money component pays with (<ramp-pix-checkout>, <ramp-offramp>): its countdown, spoken thresholds, expiry and their rendering.
import { html, nothing, type LitElement, type TemplateResult } from 'lit';
import type { Quote } from '../../contract/exchange-rates';
import type { I18nController } from '../../i18n';
import { formatCountdown } from '../quote/countdown';
import { LockWatch } from '../quote/lock-watch';
import type { TransactionTracker } from './tracker';

export interface PaymentLockOptions {
  /** The host's polite live region. */
  announce: (message: string) => void;
  /** The lock ended before a payment: the host clears what its form said (the expiry notice replaces it). */
  expired: () => void;
  /** "Get a new quote" pressed in the expiry notice. */
  requote: () => void;
}

/**
 * Counts down the lock of the quote given to the host, the same instant as the quote panel's; spoken at 30 and 10
 * seconds. At its end the form gives way to a re-quote notice, which takes focus when focus was inside the host.
 */
export class PaymentLock {
  readonly #watch: LockWatch;

  constructor(
    private readonly host: LitElement,
    private readonly i18n: I18nController,
    /** Once it follows a payment, the lock was used: its end changes nothing. */
    private readonly tracker: TransactionTracker,
    private readonly options: PaymentLockOptions,
  ) {
    this.#watch = new LockWatch(host, {
      onThreshold: (seconds) => options.announce(i18n.t('quote.announce.secondsLeft', { seconds })),
      onExpire: () => void this.#expire(),
    });
  }

  /** From the host's `willUpdate`: count down this quote's lock until a payment exists. */
  follow(quote: Quote | undefined): void {
    if (this.tracker.tx) this.#watch.stop();
    else this.#watch.watch(quote);
  }

  get expired(): boolean {
    return this.#watch.expired;
  }

  renderCountdown(): TemplateResult | typeof nothing {
    if (!this.#watch.active) return nothing;
    const seconds = this.#watch.seconds;
    return html`
      <div part="countdown" class="countdown" data-testid="lock-countdown" ?data-urgent=${seconds <= 10}>
        <span id="lock-left">${this.i18n.t('quote.locked.timeLeft')}</span>
        <time role="timer" aria-labelledby="lock-left" datetime="PT${seconds}S" data-testid="lock-time">${formatCountdown(seconds, this.i18n.locale)}</time>
      </div>
    `;
  }

  renderExpired(): TemplateResult {
    return html`
      <div part="alert" class="alert" role="alert" data-testid="lock-expired" data-kind="requote">
        <p>${this.i18n.t('lock.expired')}</p>
        <button part="alert-action" type="button" data-testid="lock-requote" @click=${this.options.requote}>${this.i18n.t('tx.requote')}</button>
      </div>
    `;
  }

  async #expire(): Promise<void> {
    if (this.tracker.tx) return;
    const focusInside = Boolean(this.host.shadowRoot?.activeElement);
    this.options.expired();
    await this.host.updateComplete;
    if (focusInside) this.host.renderRoot.querySelector<HTMLElement>('[data-testid="lock-requote"]')?.focus();
  }
}

// The payment window of <ramp-pix-checkout> as a Lit reactive controller: counts down to its close on this device's clock, says when it is near and when it closed.
import { nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { Transaction } from '../../contract/transactions';
import type { I18nController } from '../../i18n';
import { CountdownController } from '../quote/countdown-controller';
import { localDeadline, paymentExpiresAt } from './payment-window';
import { renderCountdown } from './payment-views';

/** Spoken reminders of the payment window, in seconds left. */
const WINDOW_THRESHOLDS = [300, 60] as const;

export interface WindowCountdownOptions {
  announce: (message: string) => void;
  /** The window closed here; the server closes it on its own clock. */
  closed: () => void;
}

export class WindowCountdown {
  /** Whether the window closed while the payment was awaited. */
  #hasClosed = false;
  readonly #countdown: CountdownController;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly i18n: I18nController,
    options: WindowCountdownOptions,
  ) {
    this.#countdown = new CountdownController(host, {
      thresholds: WINDOW_THRESHOLDS,
      onThreshold: (seconds) => options.announce(i18n.plural('checkout.announce.minutesLeft', Math.round(seconds / 60))),
      onExpire: () => {
        this.#hasClosed = true;
        host.requestUpdate();
        options.announce(i18n.t('checkout.windowClosed'));
        options.closed();
      },
    });
  }

  get closed(): boolean {
    return this.#hasClosed;
  }

  /** A payment was just created (`receivedAt`: when its 201 arrived): count down to its window's close while funds are awaited. */
  open(tx: Transaction, receivedAt: number): void {
    this.#hasClosed = false;
    this.host.requestUpdate();
    const expiresAt = paymentExpiresAt(tx.state.payment);
    // The 201 is fresh: its updatedAt is the server's "now", which gives this device's clock skew.
    const deadline = expiresAt ? localDeadline(expiresAt, tx.updatedAt, receivedAt) : undefined;
    if (deadline !== undefined && tx.state.status === 'AWAITING_FUNDS') this.#countdown.start(deadline);
  }

  /** The payment moved on: no more reminders. */
  stop(): void {
    this.#countdown.stop();
  }

  /** A new checkout. */
  reset(): void {
    this.#countdown.stop();
    this.#hasClosed = false;
    this.host.requestUpdate();
  }

  render(): TemplateResult | typeof nothing {
    return this.#countdown.running || this.#countdown.expired ? renderCountdown(this.i18n, this.#countdown.seconds) : nothing;
  }
}

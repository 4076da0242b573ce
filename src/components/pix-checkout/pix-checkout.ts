// <ramp-pix-checkout>: creates a PIX on-ramp (locked quote or BRL amount), shows its BR Code as QR and copy-paste, and follows it to SUCCESS.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { RampElement } from '../ramp-element';
import type { Bundle } from '../../i18n';
import type { Quote } from '../../contract/exchange-rates';
import type { Transaction } from '../../contract/transactions';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient, type BffClient } from '../../client/bff-client';
import { RampErrorEvent } from '../../events/error';
import { RampRequoteRequestedEvent } from '../../events/requote-requested';
import { I18nController, type MessageKey, type TranslateArgs } from '../../i18n';
import { PaymentLock } from '../transaction/lock';
import { alertFor, errorDetailFor, isReported, type TransactionAlert } from '../transaction/problems';
import { renderAlert, renderForm } from './form-views';
import { PurposeField } from './purpose-field';
import { isPurpose } from '../transaction/purposes';
import { isTerminal } from '../transaction/steps';
import { TransactionTracker } from '../transaction/tracker';
import { CheckoutCalls } from './calls';
import { selectAll } from './clipboard';
import { CopyFeedback } from './copy-feedback';
import { checkoutSource, onRampRequest, paidByBank, type CheckoutSource } from './model';
import { bankTransferOf, pixPaymentOf } from './payment-window';
import { WindowCountdown } from './window-countdown';
import { pixCheckoutStyles } from './pix-checkout.styles';
import { lastQrSymbol } from './qr';
import { renderTransaction} from './payment-views';

/** An empty string removes the attribute instead of leaving `session=""` behind. */
const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };


/**
 * The PIX checkout of an on-ramp. Given a locked quote (`exchange-rate-id`, from `ramp-quote-locked`) or an unlocked
 * BRL `amount`, the user picks the purpose and creates the payment; the element then shows the BR Code as a QR code
 * and as copy-and-paste text, the amount to pay and what arrives, counts down the payment window, and follows the
 * transaction live (AWAITING_FUNDS → TRANSFERRING_FIAT → TRADING → TRANSFERRING_STABLECOIN → SUCCESS) up to the
 * receipt and its block-explorer link. A closed window (FAILED, `EXPIRED`) offers to start again.
 * A locked quote for EUR (SEPA) or USD (SWIFT) is paid by bank transfer instead: the element shows the transfer's
 * beneficiary, IBAN or account number, BIC, reference, amount and deadline, each with a copy button.
 *
 * @summary PIX payment for an on-ramp: QR code, copy-and-paste code, countdown and live status to the receipt.
 * @tag ramp-pix-checkout
 *
 * @fires ramp-transaction-created - {RampTransactionCreatedEvent} Once per payment created; `detail` is the transaction (status AWAITING_FUNDS).
 * @fires ramp-transaction-updated - {RampTransactionUpdatedEvent} On each status change seen; `detail` is the transaction.
 * @fires ramp-requote-requested - {RampRequoteRequestedEvent} When the user asks for a new quote because the locked one cannot pay (RATE_EXPIRED, RATE_ALREADY_USED, or the window closed); `detail` is `{exchangeRateId, reason}`.
 * @fires ramp-error - {RampErrorEvent} When a call fails for a reason the user cannot fix here (session, network, server).
 *
 * @csspart base - The card around everything.
 * @csspart title - The heading.
 * @csspart form - The purpose form before the payment exists.
 * @csspart summary - The amounts list (to pay, to receive).
 * @csspart field - The purpose field wrapper.
 * @csspart label - A field's label.
 * @csspart select - The purpose select.
 * @csspart error - A field's error message.
 * @csspart alert - A form-level problem with its way out.
 * @csspart alert-action - The button in the alert (try again, get a new quote).
 * @csspart submit - The "Create payment" button.
 * @csspart payment - The panel shown while waiting for the payment.
 * @csspart qr - The QR code figure (always black on white).
 * @csspart code - The copy-and-paste code field.
 * @csspart copy - A copy button (the PIX code, or one bank-transfer detail).
 * @csspart bank-details - SEPA/SWIFT: the transfer's beneficiary, IBAN or account, BIC, reference, amount and deadline.
 * @csspart countdown - The time left to pay.
 * @csspart simulate - The sandbox "Simulate payment" button.
 * @csspart stepper - The status list; each item is `step` plus `step-done`, `step-current`, `step-upcoming` or `step-failed`.
 * @csspart step - One status step.
 * @csspart success - The receipt panel.
 * @csspart explorer-link - The block-explorer link of the receipt.
 * @csspart failed - The panel of a failed payment.
 * @csspart restart - The "Start again" / "Get a new quote" button of a failed payment.
 * @csspart status - The polite live region (visually hidden).
 *
 * @cssprop --ramp-color-primary - Accent: buttons, current step.
 * @cssprop --ramp-color-on-primary - Text on the accent.
 * @cssprop --ramp-color-surface - Background.
 * @cssprop --ramp-color-surface-raised - Background of the countdown.
 * @cssprop --ramp-color-text - Text.
 * @cssprop --ramp-color-text-muted - Secondary text.
 * @cssprop --ramp-color-border - Borders.
 * @cssprop --ramp-color-danger - Errors, a failed step, the last minute of the countdown.
 * @cssprop --ramp-color-danger-surface - Background of alerts.
 * @cssprop --ramp-color-success - Completed steps.
 * @cssprop --ramp-color-success-surface - Background of the receipt.
 * @cssprop --ramp-color-focus - Focus ring.
 * @cssprop --ramp-radius - Corner radius.
 * @cssprop --ramp-space - Base spacing.
 * @cssprop --ramp-font-family - Font.
 * @cssprop --ramp-font-size - Base font size.
 * @cssprop --ramp-pix-checkout-background - Card background (default: `--ramp-color-surface`).
 * @cssprop --ramp-pix-checkout-border-color - Card border (default: `--ramp-color-border`).
 * @cssprop --ramp-pix-checkout-radius - Card radius (default: `--ramp-radius`).
 * @cssprop --ramp-pix-checkout-padding - Card padding.
 * @cssprop --ramp-pix-checkout-max-width - Card width limit (default: 30rem).
 * @cssprop --ramp-pix-checkout-qr-size - Side of the QR code (default: 15rem).
 * @cssprop --ramp-pix-checkout-input-background - Background of the select and the code field.
 * @cssprop --ramp-pix-checkout-button-background - Primary button background (default: `--ramp-color-primary`).
 * @cssprop --ramp-pix-checkout-button-color - Primary button text (default: `--ramp-color-on-primary`).
 * @cssprop --ramp-pix-checkout-countdown-background - Countdown background (default: `--ramp-color-surface-raised`).
 */
export class RampPixCheckout extends RampElement {
  protected override messageBundles(): readonly Bundle[] {
    return ['core', 'money'];
  }

  static override styles = pixCheckoutStyles;

  /** The BFF's URL. Default: `/bff` beside the script's folder. */
  @property({ attribute: 'api-base' }) apiBase: string = defaultApiBase();

  /** A widget-session token bound to the paying customer. */
  @property({ reflect: true, converter: optionalAttribute }) session = '';

  /** Language (`en`, `pt-BR`, `es`); when empty, the closest `[lang]` above, then the browser's. */
  @property({ reflect: true, converter: optionalAttribute }) override lang = '';

  /** `light` or `dark`; when absent, follows `prefers-color-scheme`. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** A LOCKED quote's id (`ramp-quote-locked` → `detail.exchangeRateId`): amounts and coin come from it. Wins over `amount`. */
  @property({ attribute: 'exchange-rate-id' }) exchangeRateId = '';

  /** Unlocked on-ramp: the BRL amount to pay, a plain decimal string (`"150.00"`); the rate is the one at creation. */
  @property() amount = '';

  /** Unlocked on-ramp: `USDC` (default) or `USDT`. */
  @property() stablecoin = 'USDC';

  /** Unlocked on-ramp: `ETHEREUM`, `BASE`, `TRON` or `POLYGON`; default the service's chain. */
  @property() blockchain = '';

  /** Preselected purpose (one of the API's purposes); the user can change it. */
  @property() purpose = '';

  /** Sandbox: shows "Simulate payment", which pays the charge as a bank app would. Never set it in production. */
  @property({ type: Boolean, reflect: true }) sandbox = false;

  /** Milliseconds between status reads while a payment is under way. */
  @property({ attribute: 'poll-interval', type: Number }) pollInterval = 2_000;

  /** The locked quote itself (`ramp-quote-locked` → `detail.quote`), to show the amounts before the payment exists. Optional. */
  @property({ attribute: false }) quote: Quote | undefined;

  @state() private alert: TransactionAlert | undefined;
  @state() private announcement = '';

  private readonly i18n = new I18nController(this);
  private readonly purposeField = new PurposeField(this, this.i18n, () => !this.tx);
  /** The QR symbol of a BR Code, encoded once per code. */
  private readonly qrOf = lastQrSymbol();
  /** Which copy button (the PIX code's, or a bank-transfer detail's) was used last: it says so for a moment. */
  private readonly copies = new CopyFeedback(this, this.i18n, (message) => this.announce(message));

  private readonly calls = new CheckoutCalls(this, {
    client: () => this.client(),
    created: (tx) => void this.created(tx),
    paid: () => {
      this.announce(this.t('checkout.simulated'));
      this.tracker.refresh();
    },
    failed: (error, operation) => this.failed(error, operation),
  });

  private readonly tracker = new TransactionTracker(this, {
    type: 'ON_RAMP',
    client: () => this.client(),
    changed: (previous, next) => this.statusChanged(previous, next),
    lost: (alert) => (this.alert = alert),
  });

  /** The payment window's countdown; when it closes, ask the server now rather than at the next tick. */
  private readonly payWindow = new WindowCountdown(this, this.i18n, { announce: (message) => this.announce(message), closed: () => this.tracker.refresh() });

  /** The lock of the quote we pay with: its countdown, shared with the quote panel; at its end the form gives way to a re-quote. */
  private readonly lock = new PaymentLock(this, this.i18n, this.tracker, {
    announce: (message) => this.announce(message),
    expired: () => (this.alert = undefined),
    requote: () => this.requestRequote('RATE_EXPIRED'),
  });

  private get tx(): Transaction | undefined {
    return this.tracker.tx;
  }

  /** The transaction this element created and follows, once it exists. */
  get transaction(): Transaction | undefined {
    return this.tx;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('purpose') && isPurpose(this.purpose) && !this.tx) this.purposeField.preset(this.purpose);
    // A new quote or amount starts a new checkout, unless a payment is under way: money in flight stays on screen.
    const sourceChanged = changed.has('exchangeRateId') || changed.has('amount') || changed.has('stablecoin') || changed.has('blockchain');
    if (sourceChanged && this.hasUpdated && (!this.tx || isTerminal(this.tx.state.status))) this.reset();
    this.lock.follow(this.lockedQuote);
  }

  /** The quote we were given, when it is the one we pay with. */
  private get lockedQuote(): Quote | undefined {
    const source = this.source;
    return source.kind === 'locked' && this.quote?.id === source.exchangeRateId ? this.quote : undefined;
  }

  protected override render(): TemplateResult {
    return html`
      <section part="base" class="base" lang=${this.i18n.locale} aria-labelledby="title">
        <h2 id="title" part="title" class="title" tabindex="-1">${this.byBank ? this.t('checkout.title.bank') : this.t('checkout.title')}</h2>
        ${this.tx ? this.renderTransaction(this.tx) : this.renderForm()}
        <div part="status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      </section>
    `;
  }

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  private client(): BffClient {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
  }

  private get byBank(): boolean {
    return paidByBank(this.tx, this.source, this.quote);
  }

  private get source(): CheckoutSource {
    return checkoutSource({ exchangeRateId: this.exchangeRateId, amount: this.amount, stablecoin: this.stablecoin, blockchain: this.blockchain });
  }

  // ── before the payment exists ──

  private renderForm(): TemplateResult {
    return renderForm(this.i18n, {
      source: this.source,
      lockedQuote: this.lockedQuote,
      lock: this.lock,
      busy: this.calls.creating,
      byBank: this.byBank,
      alert: this.renderAlert(),
      purpose: this.purposeField.render(),
      submit: this.onSubmit,
    });
  }

  private renderAlert(): TemplateResult | typeof nothing {
    return renderAlert(this.i18n, this.alert, { requote: (reason) => this.requestRequote(reason), retry: this.onRetry });
  }

  // ── the payment and after ──

  private renderTransaction(tx: Transaction): TemplateResult {
    return renderTransaction(this.i18n, tx, {
      stepper: this.tracker.renderStepper(tx, this.i18n),
      trouble: this.tracker.renderTrouble(this.i18n),
      alert: this.renderAlert(),
      byBank: this.byBank,
      windowClosed: this.payWindow.closed,
      countdown: this.payWindow.render(),
      qr: this.qrOf,
      copied: (key) => this.copies.is(key),
      copyCode: this.onCopy,
      copyDetail: (key, value) =>
        void this.copies.copy(key, value, this.t('checkout.copied.announce', { value }), () => {
          const node = this.renderRoot.querySelector(`[data-testid="detail-${key}"]`);
          if (node) getSelection()?.selectAllChildren(node);
        }),
      sandbox: this.sandbox,
      paying: this.calls.paying,
      simulate: this.onSimulate,
      locked: typeof tx.request.exchangeRateId === 'string' || this.source.kind === 'locked',
      requote: (reason) => this.requestRequote(reason),
      restart: this.onRestart,
    });
  }

  // ── input ──

  private onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.submit();
  };

  private onRetry = (): void => {
    if (this.tx) {
      this.alert = undefined;
      this.tracker.retry();
      return;
    }
    void this.submit();
  };

  private async submit(): Promise<void> {
    if (this.calls.creating) return; // a double click sends one request
    this.purposeField.markSubmitted();
    this.alert = undefined;
    const source = this.source;
    if (source.kind === 'missing' || this.lock.expired) return;
    const purpose = this.purposeField.value;
    if (!purpose) {
      this.announce(this.t('checkout.purpose.required'));
      await this.updateComplete;
      this.purposeField.focus();
      return;
    }
    const request = onRampRequest(source, purpose);
    this.announce(this.t('checkout.creating'));
    await this.calls.create(request);
  }

  private onCopy = async (): Promise<void> => {
    const code = pixPaymentOf(this.tx?.state.payment)?.brCode;
    if (!code) return;
    const field = this.renderRoot.querySelector<HTMLTextAreaElement>('#brcode');
    await this.copies.copy('brcode', code, this.t('checkout.copied'), () => field && selectAll(field));
  };

  private onSimulate = (): void => {
    const id = this.tx?.id;
    if (!id || this.calls.paying) return;
    this.alert = undefined;
    this.calls.pay(id);
  };

  private onRestart = (): void => {
    this.reset();
    void this.updateComplete.then(() => this.purposeField.focus());
  };

  private requestRequote(reason: string): void {
    const exchangeRateId = this.source.kind === 'locked' ? this.exchangeRateId : undefined;
    this.dispatchEvent(new RampRequoteRequestedEvent({ reason, ...(exchangeRateId ? { exchangeRateId } : {}) }));
  }

  // ── the transaction's life ──

  private async created(tx: Transaction): Promise<void> {
    const receivedAt = Date.now();
    this.calls.created();
    this.payWindow.open(tx, receivedAt);
    this.tracker.begin(tx);
    this.announce(bankTransferOf(tx.state.payment) ? this.t('checkout.announce.created.bank') : this.t('checkout.announce.created'));
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#phase-title')?.focus();
  }

  /** A new status (`ramp-transaction-updated` is out): say it; leaving the payment panel (or reaching the end) replaces what had focus, so put it on the new heading. */
  private statusChanged(previous: Transaction, next: Transaction): void {
    if (next.state.status !== 'AWAITING_FUNDS') this.payWindow.stop();
    const news =
      next.state.status === 'FAILED'
        ? this.t(next.state.error?.code === 'EXPIRED' ? 'checkout.failed.EXPIRED' : 'checkout.failed.title')
        : this.tracker.stepNews(this.i18n);
    if (news) this.announce(news);
    if (previous.state.status === 'AWAITING_FUNDS' || isTerminal(next.state.status)) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#phase-title')?.focus());
    }
  }

  private failed(error: unknown, operation: string): void {
    const alert = alertFor(error);
    if (!alert) return;
    if (this.purposeField.placed(error)) {
      this.announce(this.i18n.plural('tx.form.invalid', 1));
      void this.updateComplete.then(() => this.purposeField.focus());
      return;
    }
    this.alert = alert;
    if (isReported(alert)) this.dispatchEvent(new RampErrorEvent(errorDetailFor(error, operation)));
  }

  private reset(): void {
    this.tracker.clear();
    this.payWindow.reset();
    this.alert = undefined;
    this.purposeField.reset();
    this.copies.clear();
    this.calls.reset();
  }

  /** Polite live region; the same sentence twice still changes the text, so it is read again. */
  private announce(message: string): void {
    this.announcement = message === this.announcement ? `${message}\u00a0` : message;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ramp-pix-checkout': RampPixCheckout;
  }
}

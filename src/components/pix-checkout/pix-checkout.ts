// <ramp-pix-checkout>: creates a PIX on-ramp (locked quote or BRL amount), shows its BR Code as QR and copy-paste, and follows it to SUCCESS.
import { html, nothing, svg, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { RampElement } from '../ramp-element';
import type { Bundle } from '../../i18n';
import { Task, TaskStatus } from '@lit/task';
import { blockchainName } from '../../contract/blockchains';
import type { Quote } from '../../contract/exchange-rates';
import type { BffOnRampRequest, Transaction } from '../../contract/transactions';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient, ProblemError, type BffClient } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { RampErrorEvent } from '../../events/error';
import { RampRequoteRequestedEvent } from '../../events/requote-requested';
import { I18nController, type MessageKey, type TranslateArgs } from '../../i18n';
import { formatAmount } from '../quote/amount';
import { CountdownController } from '../quote/countdown-controller';
import { formatCountdown } from '../quote/countdown';
import { alertText } from '../transaction/alert-text';
import { purposeKeys } from '../transaction/labels';
import { PaymentLock } from '../transaction/lock';
import { alertFor, errorDetailFor, isRetryable, placeFieldProblems, type TransactionAlert } from '../transaction/problems';
import { isPurpose, purposes } from '../transaction/purposes';
import { isTerminal } from '../transaction/steps';
import { TransactionTracker } from '../transaction/tracker';
import { supportReference } from '../support-reference';
import { copyText, selectAll } from './clipboard';
import { checkoutSource, onRampRequest, type CheckoutSource } from './model';
import { localDeadline, pixPaymentOf } from './payment-window';
import { pixCheckoutStyles } from './pix-checkout.styles';
import { qrSymbol, QUIET_ZONE, type QrSymbol } from './qr';

/** An empty string removes the attribute instead of leaving `session=""` behind. */
const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

type Currency = Quote['sourceCurrency'];
type CreateArgs = readonly [request: BffOnRampRequest, idempotencyKey: string];

/** Spoken reminders of the payment window, in seconds left. */
const WINDOW_THRESHOLDS = [300, 60] as const;

/**
 * The PIX checkout of an on-ramp. Given a locked quote (`exchange-rate-id`, from `ramp-quote-locked`) or an unlocked
 * BRL `amount`, the user picks the purpose and creates the payment; the element then shows the BR Code as a QR code
 * and as copy-and-paste text, the amount to pay and what arrives, counts down the payment window, and follows the
 * transaction live (AWAITING_FUNDS → TRANSFERRING_FIAT → TRADING → TRANSFERRING_STABLECOIN → SUCCESS) up to the
 * receipt and its block-explorer link. A closed window (FAILED, `EXPIRED`) offers to start again.
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
 * @csspart copy - The copy button.
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

  @state() private selectedPurpose = '';
  @state() private purposeTouched = false;
  @state() private submitted = false;
  @state() private purposeServerError = '';
  @state() private alert: TransactionAlert | undefined;
  @state() private windowClosed = false;
  @state() private copied = false;
  @state() private announcement = '';

  private readonly i18n = new I18nController(this);
  private readonly createKeys = new IdempotencyKeys();
  private readonly payKeys = new IdempotencyKeys();
  private qr: { text: string; symbol: QrSymbol } | undefined;
  private copiedTimer: ReturnType<typeof setTimeout> | undefined;

  private readonly createTask = new Task(this, {
    autoRun: false,
    task: ([request, idempotencyKey]: CreateArgs, { signal }) => this.client().createOnRamp(request, { idempotencyKey, signal }),
    onComplete: (tx) => void this.created(tx),
    onError: (error) => this.failed(error, 'createOnRamp'),
  });

  private readonly payTask = new Task(this, {
    autoRun: false,
    task: ([id, idempotencyKey]: readonly [string, string], { signal }) => this.client().simulatePayment(id, { idempotencyKey, signal }),
    onComplete: () => {
      this.announce(this.t('checkout.simulated'));
      this.tracker.refresh();
    },
    onError: (error) => this.failed(error, 'simulatePayment'),
  });

  private readonly tracker = new TransactionTracker(this, {
    type: 'ON_RAMP',
    client: () => this.client(),
    changed: (previous, next) => this.statusChanged(previous, next),
    lost: (alert) => (this.alert = alert),
  });

  private readonly countdown = new CountdownController(this, {
    thresholds: WINDOW_THRESHOLDS,
    onThreshold: (seconds) => this.announce(this.i18n.plural('checkout.announce.minutesLeft', Math.round(seconds / 60))),
    onExpire: () => {
      this.windowClosed = true;
      this.announce(this.t('checkout.windowClosed'));
      // The server closes the window on its own clock: ask it now rather than at the next tick.
      this.tracker.refresh();
    },
  });

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

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.copiedTimer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('purpose') && isPurpose(this.purpose) && !this.tx) this.selectedPurpose = this.purpose;
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
        <h2 id="title" part="title" class="title" tabindex="-1">${this.t('checkout.title')}</h2>
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

  private get source(): CheckoutSource {
    return checkoutSource({ exchangeRateId: this.exchangeRateId, amount: this.amount, stablecoin: this.stablecoin, blockchain: this.blockchain });
  }

  private money(amount: string | undefined, currency: string | undefined): string {
    if (!amount || !currency || !/^\d+(\.\d+)?$/.test(amount)) return amount ?? '';
    return formatAmount(amount, currency as Currency, this.i18n.locale);
  }

  // ── before the payment exists ──

  private renderForm(): TemplateResult {
    const source = this.source;
    const busy = this.createTask.status === TaskStatus.PENDING;
    const error = this.purposeError();
    const describedBy = error ? 'purpose-error' : nothing;
    return html`
      <form part="form" novalidate aria-busy=${busy ? 'true' : 'false'} @submit=${this.onSubmit}>
        <p class="muted">${this.t('checkout.intro')}</p>
        ${this.renderAlert()}
        ${source.kind === 'missing'
          ? html`<div class="notice" data-tone="danger" data-testid="missing">${this.t('checkout.missing')}</div>`
          : this.lock.expired
            ? this.lock.renderExpired()
            : this.renderSummary(source)}
        <div part="field" class="field">
          <label part="label" for="purpose">${this.t('checkout.purpose.label')}</label>
          <select
            id="purpose"
            name="purpose"
            part="select"
            required
            data-testid="purpose"
            aria-invalid=${error ? 'true' : 'false'}
            aria-describedby=${describedBy}
            @change=${this.onPurposeChange}
            @blur=${this.onPurposeBlur}
          >
            <option value="" ?selected=${!this.selectedPurpose}>${this.t('checkout.purpose.placeholder')}</option>
            ${purposes.map((p) => html`<option value=${p} ?selected=${p === this.selectedPurpose}>${this.t(purposeKeys[p])}</option>`)}
          </select>
          ${error ? html`<p id="purpose-error" part="error" class="error" data-testid="purpose-error">${error}</p>` : nothing}
        </div>
        ${this.lock.expired
          ? nothing
          : html`<div class="actions">
              <button
                part="submit"
                class="primary"
                type="submit"
                data-testid="create-payment"
                aria-disabled=${busy || source.kind === 'missing' ? 'true' : 'false'}
              >
                ${busy ? this.t('checkout.creating') : this.t('checkout.create')}
              </button>
            </div>`}
      </form>
    `;
  }

  /** Known amounts before creation: all of them with a locked quote we were given, the BRL amount when unlocked. */
  private renderSummary(source: Exclude<CheckoutSource, { kind: 'missing' }>): TemplateResult | typeof nothing {
    const quote = source.kind === 'locked' && this.quote?.id === source.exchangeRateId ? this.quote : undefined;
    if (source.kind === 'locked' && !quote) return nothing;
    const pay = quote ? this.money(quote.sourceAmount, quote.sourceCurrency) : this.money(source.kind === 'unlocked' ? source.sourceAmount : '', 'BRL');
    const receive = quote
      ? this.money(quote.finalTargetAmount, quote.targetCurrency)
      : this.t('checkout.receive.unlocked', { coin: source.kind === 'unlocked' ? source.targetCurrency : '' });
    return html`
      <dl part="summary" class="amounts" data-testid="summary">
        <dt>${this.t('checkout.pay')}</dt>
        <dd class="big" data-testid="summary-pay">${pay}</dd>
        <dt>${this.t('checkout.receive')}</dt>
        <dd data-testid="summary-receive">${receive}</dd>
      </dl>
      ${this.lock.renderCountdown()}
    `;
  }

  private purposeError(): string | undefined {
    if (this.purposeServerError) return this.t('tx.error.rejected', { message: this.purposeServerError });
    if (!this.selectedPurpose && (this.submitted || this.purposeTouched)) return this.t('checkout.purpose.required');
    return undefined;
  }

  private renderAlert(): TemplateResult | typeof nothing {
    const alert = this.alert;
    if (!alert) return nothing;
    const requote = alert.kind === 'requote';
    return html`
      <div part="alert" class="alert" role="alert" data-testid="alert" data-kind=${alert.kind}>
        <p>${alertText(alert, this.i18n)}</p>
        ${requote
          ? html`<button part="alert-action" type="button" data-testid="requote" @click=${() => this.requestRequote(alert.code)}>
              ${this.t('tx.requote')}
            </button>`
          : isRetryable(alert)
            ? html`<button part="alert-action" type="button" data-testid="retry" @click=${this.onRetry}>${this.t('tx.alert.retry')}</button>`
            : nothing}
      </div>
    `;
  }

  // ── the payment and after ──

  private renderTransaction(tx: Transaction): TemplateResult {
    const status = tx.state.status;
    const coin = tx.quote?.targetCurrency ?? String(tx.request.targetCurrency ?? '');
    const stepper = this.tracker.renderStepper(tx, this.i18n);
    const trouble = this.tracker.renderTrouble(this.i18n);
    if (status === 'AWAITING_FUNDS') return this.renderPayment(tx, stepper, trouble);
    if (status === 'SUCCESS') {
      const receipt = tx.state.receipt;
      return html`
        <div part="success" class="panel notice" data-tone="success" data-testid="success">
          <h3 id="phase-title" tabindex="-1">${this.t('checkout.success.title', { coin })}</h3>
          <dl class="amounts">
            <dt>${this.t('checkout.success.received')}</dt>
            <dd class="big" data-testid="received">${this.money(receipt?.targetAmount ?? tx.quote?.finalTargetAmount, coin)}</dd>
          </dl>
          ${supportReference(this.t('checkout.reference'), tx.id, 'reference')}
          ${receipt?.blockExplorerUrl ? this.renderExplorerLink(receipt.blockExplorerUrl) : nothing}
        </div>
        ${stepper}
      `;
    }
    if (status === 'FAILED') return this.renderFailed(tx, stepper);
    return html`
      <div class="panel" data-testid="progress">
        <h3 id="phase-title" tabindex="-1">${this.t('checkout.progress.title')}</h3>
        <p>${this.t('checkout.progress.body', { coin })}</p>
        ${this.renderAmounts(tx)} ${stepper} ${trouble}
      </div>
    `;
  }

  private renderExplorerLink(url: string): TemplateResult | typeof nothing {
    // Only web links: a `javascript:` URL from a compromised upstream must not become a clickable link.
    if (!/^https?:\/\//i.test(url)) return nothing;
    return html`
      <a part="explorer-link" class="explorer" href=${url} target="_blank" rel="noopener noreferrer" data-testid="explorer-link">
        ${this.t('checkout.success.explorer')}<span class="visually-hidden"> ${this.t('tx.newTab')}</span>
      </a>
    `;
  }

  private renderAmounts(tx: Transaction): TemplateResult {
    const quote = tx.quote;
    const pay = quote ? this.money(quote.sourceAmount, quote.sourceCurrency) : this.money(String(tx.request.sourceAmount ?? ''), 'BRL');
    const receive = quote ? this.money(quote.finalTargetAmount, quote.targetCurrency) : '';
    return html`
      <dl part="summary" class="amounts" data-testid="amounts">
        <dt>${this.t('checkout.amountToPay')}</dt>
        <dd class="big" data-testid="amount-to-pay">${pay}</dd>
        ${receive
          ? html`<dt>${this.t('checkout.receive')}</dt>
              <dd data-testid="amount-to-receive">${receive}</dd>`
          : nothing}
        ${quote?.blockchain
          ? html`<dt>${this.t('checkout.network')}</dt>
              <dd>${blockchainName(quote.blockchain)}</dd>`
          : nothing}
      </dl>
    `;
  }

  private renderPayment(tx: Transaction, stepper: TemplateResult, trouble: TemplateResult | typeof nothing): TemplateResult {
    const payment = pixPaymentOf(tx.state.payment);
    const amount = tx.quote ? this.money(tx.quote.sourceAmount, tx.quote.sourceCurrency) : this.money(String(tx.request.sourceAmount ?? ''), 'BRL');
    const paying = this.payTask.status === TaskStatus.PENDING;
    return html`
      <div part="payment" class="panel" data-testid="payment">
        <h3 id="phase-title" tabindex="-1">${this.t('checkout.payment.title', { amount })}</h3>
        ${this.renderAlert()}
        ${this.windowClosed
          ? html`<div class="notice" data-testid="window-closed">${this.t('checkout.windowClosed')}</div>`
          : payment
            ? html`
                <p class="muted">${this.t('checkout.payment.intro')}</p>
                <!-- The QR first for a desktop (scanned with a phone); the styles put the code to copy first on a touch screen. -->
                <div class="pay-ways">
                  ${this.renderQr(payment.brCode, amount)}
                  <div class="field code-field">
                    <label part="label" for="brcode">${this.t('checkout.code.label')}</label>
                    <div class="code-row">
                      <textarea id="brcode" part="code" class="code" readonly rows="3" spellcheck="false" data-testid="brcode" .value=${payment.brCode}></textarea>
                      <button part="copy" type="button" data-testid="copy" @click=${this.onCopy}>
                        ${this.copied ? this.t('checkout.copied') : this.t('checkout.copy')}
                      </button>
                    </div>
                  </div>
                </div>
                ${this.countdown.running || this.countdown.expired ? this.renderCountdown() : nothing}
              `
            : html`<p class="busy"><span class="spinner" aria-hidden="true"></span>${this.t('checkout.preparing')}</p>`}
        ${this.renderAmounts(tx)} ${stepper} ${trouble}
        ${this.sandbox && !this.windowClosed
          ? html`
              <div class="sandbox">
                <button
                  part="simulate"
                  type="button"
                  data-testid="simulate-payment"
                  aria-describedby="simulate-hint"
                  aria-disabled=${paying ? 'true' : 'false'}
                  @click=${this.onSimulate}
                >
                  ${paying ? this.t('checkout.simulating') : this.t('checkout.simulate')}
                </button>
                <p id="simulate-hint" class="hint">${this.t('checkout.simulate.hint')}</p>
              </div>
            `
          : nothing}
      </div>
    `;
  }

  /** One path for the dark modules, a white ground with the quiet zone: crisp at any size, readable in dark mode. */
  private renderQr(brCode: string, amount: string): TemplateResult {
    if (this.qr?.text !== brCode) this.qr = { text: brCode, symbol: qrSymbol(brCode) };
    const { size, path } = this.qr.symbol;
    const side = size + QUIET_ZONE * 2;
    return html`
      <figure part="qr" class="qr" data-testid="qr">
        <svg viewBox="0 0 ${side} ${side}" role="img" aria-label=${this.t('checkout.qr.label', { amount })} xmlns="http://www.w3.org/2000/svg">
          ${svg`<rect width=${side} height=${side} fill="#ffffff"></rect>
            <path transform="translate(${QUIET_ZONE} ${QUIET_ZONE})" d=${path} fill="#000000"></path>`}
        </svg>
      </figure>
    `;
  }

  private renderCountdown(): TemplateResult {
    const seconds = this.countdown.seconds;
    return html`
      <div part="countdown" class="countdown" data-testid="countdown" ?data-urgent=${seconds <= 60}>
        <span id="countdown-label">${this.t('checkout.countdown.label')}</span>
        <time role="timer" aria-labelledby="countdown-label" datetime="PT${seconds}S" data-testid="countdown-time">
          ${formatCountdown(seconds, this.i18n.locale)}
        </time>
      </div>
    `;
  }

  private renderFailed(tx: Transaction, stepper: TemplateResult): TemplateResult {
    const error = tx.state.error;
    const expired = error?.code === 'EXPIRED';
    const locked = typeof tx.request.exchangeRateId === 'string' || this.source.kind === 'locked';
    return html`
      <div part="failed" class="panel notice" data-tone="danger" data-testid="failed" data-code=${error?.code ?? 'UNKNOWN'}>
        <h3 id="phase-title" tabindex="-1">${this.t('checkout.failed.title')}</h3>
        <p>${expired ? this.t('checkout.failed.EXPIRED') : this.t('checkout.failed.other', { message: error?.message ?? error?.code ?? '—' })}</p>
        <div class="actions start">
          ${locked
            ? html`<button part="restart" class="primary" type="button" data-testid="restart" @click=${() => this.requestRequote(error?.code ?? 'FAILED')}>
                ${this.t('tx.requote')}
              </button>`
            : html`<button part="restart" class="primary" type="button" data-testid="restart" @click=${this.onRestart}>${this.t('checkout.restart')}</button>`}
        </div>
      </div>
      ${stepper}
    `;
  }

  // ── input ──

  private onPurposeChange = (event: Event): void => {
    this.selectedPurpose = (event.target as HTMLSelectElement).value;
    this.purposeServerError = '';
  };

  /** A select removed while focused (the payment replaced the form) blurs during that render: the user did not leave it. */
  private onPurposeBlur = (): void => {
    if (!this.tx) this.purposeTouched = true;
  };

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
    if (this.createTask.status === TaskStatus.PENDING) return; // a double click sends one request
    this.submitted = true;
    this.alert = undefined;
    const source = this.source;
    if (source.kind === 'missing' || this.lock.expired) return;
    const purpose = this.selectedPurpose;
    if (!isPurpose(purpose)) {
      this.announce(this.t('checkout.purpose.required'));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#purpose')?.focus();
      return;
    }
    const request = onRampRequest(source, purpose);
    this.announce(this.t('checkout.creating'));
    // Same body as the failed attempt → same key: the server creates at most one payment however often this is retried.
    await this.createTask.run([request, this.createKeys.keyFor(request)]);
  }

  private onCopy = async (): Promise<void> => {
    const code = pixPaymentOf(this.tx?.state.payment)?.brCode;
    if (!code) return;
    const field = this.renderRoot.querySelector<HTMLTextAreaElement>('#brcode');
    if (await copyText(code)) {
      this.copied = true;
      this.announce(this.t('checkout.copied'));
      clearTimeout(this.copiedTimer);
      this.copiedTimer = setTimeout(() => (this.copied = false), 2_500);
    } else if (field) {
      selectAll(field);
      this.announce(this.t('checkout.copy.manual'));
    }
  };

  private onSimulate = (): void => {
    const id = this.tx?.id;
    if (!id || this.payTask.status === TaskStatus.PENDING) return;
    this.alert = undefined;
    void this.payTask.run([id, this.payKeys.keyFor(id)]);
  };

  private onRestart = (): void => {
    this.reset();
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#purpose')?.focus());
  };

  private requestRequote(reason: string): void {
    const exchangeRateId = this.source.kind === 'locked' ? this.exchangeRateId : undefined;
    this.dispatchEvent(new RampRequoteRequestedEvent({ reason, ...(exchangeRateId ? { exchangeRateId } : {}) }));
  }

  // ── the transaction's life ──

  private async created(tx: Transaction): Promise<void> {
    const receivedAt = Date.now();
    this.createKeys.reset();
    this.payKeys.reset();
    this.windowClosed = false;
    const expiresAt = pixPaymentOf(tx.state.payment)?.expiresAt;
    // The 201 is fresh: its updatedAt is the server's "now", which gives this device's clock skew.
    const deadline = expiresAt ? localDeadline(expiresAt, tx.updatedAt, receivedAt) : undefined;
    if (deadline !== undefined && tx.state.status === 'AWAITING_FUNDS') this.countdown.start(deadline);
    this.tracker.begin(tx);
    this.announce(this.t('checkout.announce.created'));
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#phase-title')?.focus();
  }

  /** A new status (`ramp-transaction-updated` is out): say it; leaving the payment panel (or reaching the end) replaces what had focus, so put it on the new heading. */
  private statusChanged(previous: Transaction, next: Transaction): void {
    if (next.state.status !== 'AWAITING_FUNDS') this.countdown.stop();
    this.announceStep(next);
    if (previous.state.status === 'AWAITING_FUNDS' || isTerminal(next.state.status)) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#phase-title')?.focus());
    }
  }

  private announceStep(tx: Transaction): void {
    if (tx.state.status === 'FAILED') {
      this.announce(tx.state.error?.code === 'EXPIRED' ? this.t('checkout.failed.EXPIRED') : this.t('checkout.failed.title'));
      return;
    }
    const news = this.tracker.stepNews(this.i18n);
    if (news) this.announce(news);
  }

  private failed(error: unknown, operation: string): void {
    const alert = alertFor(error);
    if (!alert) return;
    if (error instanceof ProblemError && error.status === 400) {
      const { fields, unplaced } = placeFieldProblems(error.errors, (segments) => (segments[0] === 'purpose' ? 'purpose' : undefined));
      if (fields.purpose) this.purposeServerError = fields.purpose;
      if (fields.purpose && unplaced.length === 0) {
        this.announce(this.i18n.plural('tx.form.invalid', 1));
        void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#purpose')?.focus());
        return;
      }
    }
    this.alert = alert;
    if (alert.kind === 'network' || alert.kind === 'session' || alert.kind === 'forbidden' || alert.kind === 'notFound' || alert.kind === 'other') {
      this.report(error, operation);
    }
  }

  private report(error: unknown, operation: string): void {
    this.dispatchEvent(new RampErrorEvent(errorDetailFor(error, operation)));
  }

  private reset(): void {
    this.tracker.clear();
    this.countdown.stop();
    this.alert = undefined;
    this.windowClosed = false;
    this.submitted = false;
    this.purposeTouched = false;
    this.purposeServerError = '';
    this.copied = false;
    this.createKeys.reset();
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

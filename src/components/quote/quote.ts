// <ramp-quote>: the quote-and-lock panel: live floating quotes with their fees while visible, then a locked rate with a countdown.
import { html, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { RampElement } from '../ramp-element';
import { quoteStyles } from './quote.styles';
import type { Bundle } from '../../i18n';
import type { Quote } from '../../contract/exchange-rates';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient, type BffClient } from '../../client/bff-client';
import { RampErrorEvent } from '../../events/error';
import { I18nController, resolveLocale, type MessageKey, type TranslateArgs } from '../../i18n';
import { AccountWatch } from './account-watch';
import { BlipRetry } from './blip-retry';
import { systemClock, type Clock } from './clock';
import { lockBlock, type LockBlock } from './eligibility';
import { DEBOUNCE_MS, DEFAULT_REFRESH_MS, FloatingQuoteController } from './floating-quote';
import { QuoteForm } from './form';
import { QuoteLock, type Phase } from './lock';
import { blockText, lockedText } from './messages';
import { lockedRequest, toBlockchain, toDirection, toFiat, toStablecoin, type Blockchain, type Direction, type Fiat, type Stablecoin, type TimeLock } from './model';
import { quoteFailureOf, type QuoteAlert } from './problems';
import { renderAlert, renderExpired, renderHeld, renderLocked } from './panels';
import { lockFollowed } from './lock-watch';

export { DEBOUNCE_MS, DEFAULT_REFRESH_MS } from './floating-quote';

/** An empty string removes the attribute instead of leaving `session=""` or `lang=""` behind. */
const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

type Operation = 'floatingQuote' | 'lockQuote';

export { BLIP_RETRY_MS } from './blip-retry';

/**
 * The quote-and-lock panel. The user chooses buy (fiat → stablecoin) or sell, the fiat (its rail follows: PIX, SEPA,
 * SWIFT), the stablecoin and the network, and types what they pay, or what they want to receive. While the panel is
 * on screen it shows a floating quote (refreshed every `refresh-interval` ms and after typing settles) with its fees
 * and rates; "Lock rate" turns it into a locked quote, guaranteed for the chosen window, counted down on screen and
 * announced to screen readers at 30 s, 10 s and expiry. Amounts are decimal strings end to end; the server prices.
 *
 * @summary Quote and lock: live fiat ⇄ stablecoin quotes with fees, then a rate locked for 30 s, 1 min or 5 min.
 * @tag ramp-quote
 *
 * @fires ramp-quote-locked - {RampQuoteLockedEvent} Once per lock the user makes; `detail` is `{exchangeRateId, expiresAt, quote}`.
 * @fires ramp-quote-expired - {RampQuoteExpiredEvent} Once per lock, when its time runs out (`reason: 'timeout'`) or the user gives it up to change the amount (`reason: 'released'`); `detail` is `{exchangeRateId, reason}`.
 * @fires ramp-error - {RampErrorEvent} When a call fails for a reason the user cannot fix in the panel (expired session, forbidden, network, server). `detail` is `{code, status, detail, requestId, operation}` with `operation` `floatingQuote` or `lockQuote`.
 *
 * @csspart base - The card around everything.
 * @csspart title - The heading.
 * @csspart alert - The form-level error with its retry button.
 * @csspart retry - The retry button in the alert.
 * @csspart form - The floating-quote form.
 * @csspart direction-group - The buy / sell choice.
 * @csspart direction-option - One buy / sell choice, its label included.
 * @csspart field - The wrapper of one field (also `field-pay`, `field-receive`, `field-blockchain`).
 * @csspart label - A field's label.
 * @csspart amount-row - An amount input with its currency select.
 * @csspart input - An amount input (also `amount-input`).
 * @csspart select - A select (also `currency-select`).
 * @csspart hint - Help text under a field.
 * @csspart error - A field's error message.
 * @csspart empty - The line shown before there is a quote.
 * @csspart breakdown - The quote details: rates, fees and the final amount.
 * @csspart row - One line of the details (also `row-base-rate`, `row-service-fee`, `row-partner-fee`, `row-final-rate`, `row-final-amount`, `row-premium`, `row-source`).
 * @csspart final-amount - The amount the user receives.
 * @csspart route - The rail and network line.
 * @csspart lock-group - The lock-window choice.
 * @csspart lock-option - One lock window, its label included.
 * @csspart lock-button - The button that locks the rate.
 * @csspart locked - The locked-quote panel.
 * @csspart countdown - The time left (`role="timer"`).
 * @csspart locked-amount - The guaranteed amount, highlighted.
 * @csspart release - The "change amount" button of a locked quote.
 * @csspart expired - The expired-quote panel.
 * @csspart held - The panel of a lock a payment now holds (no countdown: the payment's window governs).
 * @csspart requote - The button that returns to floating quotes.
 * @csspart status - The polite live region (visually hidden).
 *
 * @cssprop --ramp-color-primary - Accent: selected choices, the lock button, the countdown.
 * @cssprop --ramp-color-on-primary - Text on the accent.
 * @cssprop --ramp-color-surface - Background.
 * @cssprop --ramp-color-surface-raised - Background of the details and the selected choice.
 * @cssprop --ramp-color-text - Text.
 * @cssprop --ramp-color-text-muted - Hints and secondary text.
 * @cssprop --ramp-color-border - Borders of the card and inputs.
 * @cssprop --ramp-color-danger - Errors.
 * @cssprop --ramp-color-danger-surface - Background of the alert and the expired panel.
 * @cssprop --ramp-color-success - Border of the locked panel.
 * @cssprop --ramp-color-success-surface - Background of the locked amount.
 * @cssprop --ramp-color-focus - Focus ring.
 * @cssprop --ramp-radius - Corner radius.
 * @cssprop --ramp-space - Base spacing.
 * @cssprop --ramp-font-family - Font.
 * @cssprop --ramp-font-size - Base font size.
 * @cssprop --ramp-quote-background - Card background (default: `--ramp-color-surface`).
 * @cssprop --ramp-quote-border-color - Card border (default: `--ramp-color-border`).
 * @cssprop --ramp-quote-radius - Card radius (default: `--ramp-radius`).
 * @cssprop --ramp-quote-padding - Card padding.
 * @cssprop --ramp-quote-max-width - Card width limit (default: 30rem).
 * @cssprop --ramp-quote-input-background - Input background.
 * @cssprop --ramp-quote-input-border-color - Input border.
 * @cssprop --ramp-quote-details-background - Background of the quote details (default: `--ramp-color-surface-raised`).
 * @cssprop --ramp-quote-highlight-background - Background of the locked amount (default: `--ramp-color-success-surface`).
 * @cssprop --ramp-quote-button-background - Lock button background (default: `--ramp-color-primary`).
 * @cssprop --ramp-quote-button-color - Lock button text (default: `--ramp-color-on-primary`).
 */
export class RampQuote extends RampElement {
  protected override messageBundles(): readonly Bundle[] {
    return ['core', 'money'];
  }

  static override styles = quoteStyles;

  /** The BFF's URL. Default: `/bff` beside the script's folder, i.e. `{origin}/bff` for `{origin}/sdk/ramp-widget.js`. */
  @property({ attribute: 'api-base' }) apiBase: string = defaultApiBase();

  /** A widget-session token bound to a customer (quotes belong to a customer). */
  @property({ reflect: true, converter: optionalAttribute }) session = '';

  /** Language (`en`, `pt-BR`, `es`); when empty, the closest `[lang]` above, then the browser's languages, then English. */
  @property({ reflect: true, converter: optionalAttribute }) override lang = '';

  /** `light` or `dark`; when absent, follows `prefers-color-scheme`. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** `buy` (fiat → stablecoin, on-ramp) or `sell` (stablecoin → fiat, off-ramp). The user can switch it. */
  @property() direction: Direction = 'buy';

  /** Hides the buy / sell choice: for a page (like `<ramp-widget>`'s tabs) that sets `direction` itself, so there is one switch. */
  @property({ attribute: 'hide-direction', type: Boolean }) hideDirection = false;

  /** `BRL` (PIX), `EUR` (SEPA) or `USD` (SWIFT): the rail follows the fiat. The user can switch it. */
  @property() fiat: Fiat = 'BRL';

  /** `USDC` or `USDT`. The user can switch it. */
  @property() stablecoin: Stablecoin = 'USDC';

  /** `ETHEREUM`, `BASE`, `TRON` or `POLYGON`; when absent, the server's default, which the first quote names. */
  @property() blockchain: Blockchain | undefined;

  /** The initial "you pay" amount, a decimal string in the source currency (`"1000"`, `"250.50"`). */
  @property() amount = '';

  /** Milliseconds between refreshes of the floating quote while the panel is visible. */
  @property({ attribute: 'refresh-interval', type: Number }) refreshInterval = DEFAULT_REFRESH_MS;

  /** The clock the panel's timers run on (countdown, refresh, debounce); tests set a fake one. */
  @property({ attribute: false }) clock: Clock = systemClock;

  @state() private alert: QuoteAlert | undefined;
  @state() private announcement = '';

  private readonly i18n = new I18nController(this);
  private failed: Operation | undefined;
  /** The session's customer with its limits and balances, to refuse before locking what the payment would refuse. */
  private readonly account = new AccountWatch(this, () => this.client(), () => this.session);
  /** A floating quote that got no answer is asked for again, backing off. */
  private readonly blips = new BlipRetry(this, () => this.clock, () => this.askAgain(), () => this.onOnline());

  private readonly lock = new QuoteLock(this, {
    client: () => this.client(),
    timeLock: () => this.form.timeLock,
    // An element paying with this lock (checkout, off-ramp) speaks its countdown: one voice, not two.
    threshold: (seconds) => {
      if (!lockFollowed(this.lock.quote?.id)) this.announce(this.t('quote.announce.secondsLeft', { seconds }));
    },
    locked: (quote, lock) => void this.locked(quote, lock),
    expired: (focusInside) => void this.expired(focusInside),
    failed: (error) => this.fail(error, 'lockQuote'),
    held: () => this.announce(this.t('quote.held.title')),
  });

  private readonly floating = new FloatingQuoteController(this, {
    client: () => this.client(),
    // Never while a lock is on or being made.
    allowed: () => this.lock.phase === 'floating' && !this.lock.pending && Boolean(this.session),
    held: () => Boolean(this.alert || this.form.error),
    wanted: () => ({ pair: this.form.pair, driver: this.form.driver, amount: this.form.parsed() }),
    invalid: (error) => this.form.showError({ kind: 'rule', error }),
    accepts: () => this.lock.phase === 'floating',
    landed: () => {
      // Limits, balances and the verification move while the panel is open: read them again with each fresh quote.
      void this.account.load();
      this.failed = undefined;
      // Back from a network blip: the alert that said so goes by itself.
      this.blips.end();
      if (this.alert?.kind === 'NETWORK') this.alert = undefined;
      if (this.form.error?.kind !== 'rule' || this.form.parsed().ok) this.form.error = undefined;
    },
    failed: (error) => this.fail(error, 'floatingQuote'),
  });

  private readonly form = new QuoteForm(this, this.i18n, this.floating, this.lock, {
    account: () => this.account.customer,
    block: () => this.block,
    announce: (message) => this.announce(message),
    typed: () => {
      if (this.alert && this.alert.kind !== 'VALIDATION_FAILED') this.alert = undefined;
      this.floating.stale = true;
      this.floating.schedule(DEBOUNCE_MS);
    },
    submit: () => void this.lockRate(),
  });

  /** The floating quote on screen, if any. */
  get quote(): Quote | undefined {
    return this.floating.quote;
  }

  /** The locked quote while its countdown runs or after it expired; undefined while floating. */
  get lockedQuote(): Quote | undefined {
    return this.lock.quote;
  }

  /** `floating`, `locked`, `expired`, or `held` (a payment was created with the lock: its window governs now). */
  get state(): Phase {
    return this.lock.phase;
  }

  /** Whether the panel is on screen (tests wait for it before moving a fake clock). */
  private get intersecting(): boolean {
    return this.floating.intersecting;
  }

  // ── lifecycle ──

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Attributes hold whatever the partner typed: unknown values fall back to the defaults instead of reaching the API.
    if (changed.has('direction')) this.direction = toDirection(this.direction);
    if (changed.has('fiat')) this.fiat = toFiat(this.fiat);
    if (changed.has('stablecoin')) this.stablecoin = toStablecoin(this.stablecoin);
    if (changed.has('blockchain')) this.blockchain = toBlockchain(this.blockchain);
    const locale = resolveLocale(this);
    if (changed.has('amount')) this.floating.estimate = undefined;
    this.form.follow(locale, changed.has('amount') ? this.amount : undefined);
    // New inputs: the quote on screen no longer answers them (set here, not in `updated`, to stay in this render).
    if (this.pairChanged(changed) || changed.has('session') || changed.has('amount') || changed.has('apiBase')) this.floating.stale = true;
    // A new session is the partner's answer to an expired or refused one.
    if (changed.has('session') && (this.alert?.kind === 'UNAUTHENTICATED' || this.alert?.kind === 'FORBIDDEN')) this.alert = undefined;
    if (this.pairChanged(changed)) {
      // A quote for another pair must never show under this one, nor its late answer land.
      this.floating.clear();
      // The amount is checked again against the new currencies when the new quote is asked for.
      this.form.error = undefined;
      if (this.alert?.kind === 'UNSUPPORTED_PAIR' || this.alert?.kind === 'VALIDATION_FAILED') this.alert = undefined;
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('session') || changed.has('apiBase')) void this.account.load();
    if (this.pairChanged(changed) || changed.has('session') || changed.has('amount') || changed.has('apiBase') || changed.has('refreshInterval')) {
      this.floating.schedule();
    }
  }

  private pairChanged(changed: PropertyValues<this>): boolean {
    return changed.has('direction') || changed.has('fiat') || changed.has('stablecoin') || changed.has('blockchain');
  }

  // ── derived ──

  private get block(): LockBlock | undefined {
    return lockBlock(this.account.customer, this.floating.stale ? undefined : this.floating.quote, this.direction, this.stablecoin, this.form.chain);
  }

  private client(): BffClient {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
  }

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  // ── locking ──

  /** Checks what the payment would check, then locks the amount the user typed on the chain they saw priced. */
  private async lockRate(): Promise<void> {
    if (this.lock.pending || this.lock.phase !== 'floating') return; // a double click locks once
    const form = this.form;
    const amount = form.lockable();
    if (amount === undefined) return;
    // What is on screen may be old (approved meanwhile, funds arrived): the verdict is taken on a fresh read.
    if (this.block) await this.account.load();
    const block = this.block;
    if (block) {
      this.announce(blockText(this.i18n, block));
      form.focus();
      return;
    }
    const body = lockedRequest({ ...form.pair, blockchain: form.chain }, form.driver, amount, form.timeLock);
    this.floating.stop();
    this.alert = undefined;
    await this.lock.lock(body, this.floating.quote);
  }

  private async locked(quote: Quote, lock: TimeLock): Promise<void> {
    this.failed = undefined;
    this.announce(lockedText(this.i18n, quote, lock));
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#locked-title')?.focus();
  }

  private async expired(focusInside: boolean): Promise<void> {
    if (!lockFollowed(this.lock.quote?.id)) this.announce(this.t('quote.announce.expired'));
    await this.updateComplete;
    // Focus was on what just disappeared: give it the way forward. Focus elsewhere on the page is left alone.
    if (focusInside) this.renderRoot.querySelector<HTMLElement>('[data-testid="requote"]')?.focus();
  }

  private onRelease = (): void => {
    this.lock.release();
    void this.backToFloating();
  };

  private onRequote = (): void => void this.backToFloating();

  private async backToFloating(): Promise<void> {
    this.lock.clear();
    void this.account.load();
    this.floating.stale = true;
    await this.updateComplete;
    this.floating.schedule();
    this.form.focus();
  }

  // ── failures ──

  private fail(error: unknown, operation: Operation): void {
    const failure = quoteFailureOf(error);
    if (!failure) return;
    this.failed = operation;
    if ('amount' in failure) return this.form.showError(failure.amount);
    // A blip heals by itself: the first one is said (and reported), the retries after it only retry.
    const again = failure.alert.kind === 'NETWORK' && this.alert?.kind === 'NETWORK';
    this.alert = failure.alert;
    if (failure.report && !again) this.dispatchEvent(new RampErrorEvent({ ...failure.report, operation }));
    // A lock is the user's act: it is retried when they say so. A floating quote is retried by itself, backing off.
    if (failure.alert.kind === 'NETWORK' && operation === 'floatingQuote') this.blips.schedule();
  }

  /** A fresh floating quote now, the alert left on screen until it lands (a failure keeps its words). */
  private askAgain(): void {
    if (this.failed !== 'floatingQuote' || this.alert?.kind !== 'NETWORK') return;
    this.floating.stale = true;
    this.floating.schedule(0);
  }

  /** The device is back online: no need to wait for the next retry. */
  private onOnline(): void {
    void this.account.load();
    if (this.alert?.kind !== 'NETWORK') return;
    this.blips.end();
    this.askAgain();
  }

  private onRetry = (): void => {
    const operation = this.failed;
    this.alert = undefined;
    if (operation === 'lockQuote') {
      void this.lockRate();
    } else {
      this.floating.stale = true;
      this.floating.schedule(0);
    }
  };

  /** Polite live region; the same sentence twice still changes the text, so it is read again. */
  private announce(message: string): void {
    this.announcement = message === this.announcement ? `${message}\u00a0` : message;
  }

  // ── rendering ──

  protected override render(): TemplateResult {
    const coin = this.stablecoin;
    const phase = this.lock.phase;
    return html`
      <section part="base" class="base" lang=${this.i18n.locale} aria-labelledby="title">
        <h2 id="title" part="title" class="title" tabindex="-1">${this.t(`quote.title.${this.direction}`, { coin })}</h2>
        ${renderAlert(this.i18n, this.alert, this.onRetry)}
        ${phase === 'floating'
          ? this.form.render()
          : phase === 'locked'
            ? renderLocked(this.i18n, this.lock, this.direction, this.onRelease)
            : phase === 'held'
              ? renderHeld(this.i18n, this.lock, this.onRequote)
              : renderExpired(this.i18n, this.onRequote)}
        <div part="status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="status">${this.announcement}</div>
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ramp-quote': RampQuote;
  }
}

// <ramp-quote>: the quote-and-lock panel: live floating quotes with their fees while visible, then a locked rate with a countdown.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { RampElement } from '../ramp-element';
import type { Bundle } from '../../i18n';
import { live } from 'lit/directives/live.js';
import { Task, TaskStatus } from '@lit/task';
import type { BffQuoteRequest, Quote } from '../../contract/exchange-rates';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient, NetworkError, ProblemError, type BffClient } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import type { FieldProblem } from '../../client/problem';
import { RampErrorEvent, type RampErrorDetail } from '../../events/error';
import { RampQuoteExpiredEvent } from '../../events/quote-expired';
import { RampQuoteLockedEvent } from '../../events/quote-locked';
import { I18nController, resolveLocale, type MessageKey, type TranslateArgs } from '../../i18n';
import { formatAmount, formatForInput, formatPercent, formatRate, parseAmount, reformatTyping, type Edit, type ParsedAmount } from './amount';
import { systemClock, type Clock, type TimerHandle } from './clock';
import { formatClockTime, formatCountdown } from './countdown';
import { CountdownController } from './countdown-controller';
import { rememberLockDeadline } from './lock-watch';
import { balanceOf, lockBlock, type LockBlock } from './eligibility';
import type { Customer } from '../../contract/customers';
import {
  blockchains,
  bpsToFraction,
  decimalsOf,
  directions,
  estimateSource,
  fiats,
  floatingRequest,
  isStablecoin,
  lockDurationMs,
  lockedRequest,
  lockPremium,
  feeRows,
  isZero,
  type FeeRow,
  railFor,
  sidesOf,
  stablecoins,
  timeLocks,
  timeLockSeconds,
  toBlockchain,
  toDirection,
  toFiat,
  toStablecoin,
  type Blockchain,
  type Currency,
  type Direction,
  type Driver,
  type Fiat,
  type Pair,
  type Stablecoin,
  type TimeLock,
} from './model';
import { placeAmountProblems, type AmountFieldError } from './problems';
import { quoteStyles } from './quote.styles';
import { BLOCKCHAIN_NAMES } from '../../contract/blockchains';
import { supportReference } from '../support-reference';

/** An empty string removes the attribute instead of leaving `session=""` or `lang=""` behind. */
const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

/** Typing settles for this long before a quote is asked for: one request per pause, not one per keystroke. */
export const DEBOUNCE_MS = 300;
/** Default refresh period of a floating quote while the panel is visible. */
export const DEFAULT_REFRESH_MS = 10_000;
/** Below this a refresh period is a mistake that would hammer the server. */
const MIN_REFRESH_MS = 100;
/** Seconds left at which the countdown is spoken (besides the lock itself and expiry). */
const SPOKEN_THRESHOLDS = [30, 10] as const;
/**
 * While the user drives "you receive", the source is solved from a quote's terms; with no quote for the pair yet, one
 * for this amount of the source currency gives them (rates, fee rates, flat fees do not depend on the size).
 */
const REFERENCE_SOURCE_AMOUNT = '1000';

const blockchainNames: Readonly<Record<Blockchain, string>> = BLOCKCHAIN_NAMES;

type Phase = 'floating' | 'locked' | 'expired';
type Side = 'pay' | 'receive';
const sideOf = (driver: Driver): Side => (driver === 'source' ? 'pay' : 'receive');

/** Form-level failures: the ones editing the amount cannot fix. */
type Alert =
  | { kind: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'NETWORK' }
  | { kind: 'UNSUPPORTED_PAIR' }
  | { kind: 'VALIDATION_FAILED'; problems: readonly FieldProblem[]; detail: string }
  | { kind: 'OTHER'; code: string };

type Operation = 'floatingQuote' | 'lockQuote';

interface FloatingArgs {
  pair: Pair;
  driver: Driver;
  /** The driver's amount, a decimal string. */
  amount: string;
  /** Target mode: a quote for this pair whose terms solve the source (the current one, when there is one). */
  terms: Quote | undefined;
}

interface FloatingResult {
  quote: Quote;
  /** Target mode: the source solved for `target` and asked for. */
  estimate?: { target: string; source: string };
}

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

  @state() private phase: Phase = 'floating';
  @state() private driver: Driver = 'source';
  /** The driver's view value, as the user sees it (`1.234,56`). */
  @state() private typed = '';
  @state() private amountError: AmountFieldError | undefined;
  @state() private floating: Quote | undefined;
  @state() private estimate: FloatingResult['estimate'];
  @state() private timeLock: TimeLock = '30s';
  @state() private locked: Quote | undefined;
  /** The floating quote on screen when the user locked, for the premium. */
  @state() private lockedFrom: Quote | undefined;
  @state() private alert: Alert | undefined;
  @state() private announcement = '';
  /** Inputs changed since the floating quote on screen was asked for. */
  @state() private stale = true;
  /** The session's customer with its limits and balances, to refuse before locking what the payment would refuse. */
  @state() private account: Customer | undefined;

  private readonly i18n = new I18nController(this);
  private readonly lockKeys = new IdempotencyKeys();
  private readonly countdown = new CountdownController(this, {
    clock: () => this.clock,
    thresholds: SPOKEN_THRESHOLDS,
    onThreshold: (seconds) => this.announce(this.t('quote.announce.secondsLeft', { seconds })),
    onExpire: () => void this.expire(),
  });

  private refreshTimer: TimerHandle | undefined;
  private lastQuotedAt = Number.NEGATIVE_INFINITY;
  private intersecting = false;
  private observer: IntersectionObserver | undefined;
  private viewLocale: string | undefined;
  private lockSentAt = 0;
  private failed: Operation | undefined;

  private readonly floatingTask = new Task<[FloatingArgs], FloatingResult>(this, {
    autoRun: false,
    task: ([args], { signal }) => this.fetchFloating(args, signal),
    onComplete: (result) => this.showFloating(result),
    onError: (error) => this.fail(error, 'floatingQuote'),
  });

  private readonly lockTask = new Task<[BffQuoteRequest, string], Quote>(this, {
    autoRun: false,
    task: ([body, idempotencyKey], { signal }) => this.client().createQuote(body, { idempotencyKey, signal }),
    onComplete: (quote) => void this.adoptLock(quote),
    onError: (error) => this.fail(error, 'lockQuote'),
  });

  /** The floating quote on screen, if any. */
  get quote(): Quote | undefined {
    return this.floating;
  }

  /** The locked quote while its countdown runs or after it expired; undefined while floating. */
  get lockedQuote(): Quote | undefined {
    return this.locked;
  }

  /** `floating`, `locked` or `expired`. */
  get state(): Phase {
    return this.phase;
  }

  // ── lifecycle ──

  override connectedCallback(): void {
    super.connectedCallback();
    if (typeof IntersectionObserver === 'function') {
      this.observer = new IntersectionObserver((entries) => {
        this.intersecting = entries.at(-1)?.isIntersecting ?? false;
        this.schedule();
      });
      this.observer.observe(this);
    } else {
      this.intersecting = true;
    }
    document.addEventListener('visibilitychange', this.onVisibilityChange);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.observer?.disconnect();
    this.observer = undefined;
    this.intersecting = false;
    document.removeEventListener('visibilitychange', this.onVisibilityChange);
    this.cancelRefresh();
    this.floatingTask.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Attributes hold whatever the partner typed: unknown values fall back to the defaults instead of reaching the API.
    if (changed.has('direction')) this.direction = toDirection(this.direction);
    if (changed.has('fiat')) this.fiat = toFiat(this.fiat);
    if (changed.has('stablecoin')) this.stablecoin = toStablecoin(this.stablecoin);
    if (changed.has('blockchain')) this.blockchain = toBlockchain(this.blockchain);
    const locale = resolveLocale(this);
    if (changed.has('amount')) {
      this.driver = 'source';
      this.estimate = undefined;
      this.amountError = undefined;
      // A decimal string as the API writes it; one the rules refuse is shown as given, so its error shows too.
      const parsed = parseAmount(this.amount, 'en', this.sides.source);
      this.typed = parsed.ok ? formatForInput(parsed.value, locale) : this.amount;
    } else if (this.viewLocale && locale !== this.viewLocale && this.typed) {
      // The language changed: the same amount, written the new language's way (1,234.5 ⇄ 1.234,5).
      const parsed = parseAmount(this.typed, this.viewLocale, this.driverCurrency);
      if (parsed.ok) this.typed = formatForInput(parsed.value, locale);
    }
    this.viewLocale = locale;
    // New inputs: the quote on screen no longer answers them (set here, not in `updated`, to stay in this render).
    if (this.pairChanged(changed) || changed.has('session') || changed.has('amount') || changed.has('apiBase')) this.stale = true;
    // A new session is the partner's answer to an expired or refused one.
    if (changed.has('session') && (this.alert?.kind === 'UNAUTHENTICATED' || this.alert?.kind === 'FORBIDDEN')) this.alert = undefined;
    if (this.pairChanged(changed)) {
      // A quote for another pair must never show under this one, nor its late answer land.
      this.floatingTask.abort();
      this.floating = undefined;
      this.estimate = undefined;
      // The amount is checked again against the new currencies when the new quote is asked for.
      this.amountError = undefined;
      if (this.alert?.kind === 'UNSUPPORTED_PAIR' || this.alert?.kind === 'VALIDATION_FAILED') this.alert = undefined;
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('session') || changed.has('apiBase')) void this.loadAccount();
    if (this.pairChanged(changed) || changed.has('session') || changed.has('amount') || changed.has('apiBase') || changed.has('refreshInterval')) {
      this.schedule();
    }
  }

  private pairChanged(changed: PropertyValues<this>): boolean {
    return changed.has('direction') || changed.has('fiat') || changed.has('stablecoin') || changed.has('blockchain');
  }

  // ── derived ──

  private get pair(): Pair {
    return { direction: this.direction, fiat: this.fiat, stablecoin: this.stablecoin, blockchain: this.blockchain };
  }

  private get sides() {
    return sidesOf(this.pair);
  }

  private get driverCurrency(): Currency {
    return this.driver === 'source' ? this.sides.source : this.sides.target;
  }

  private parsedDriver(): ParsedAmount {
    return parseAmount(this.typed, this.i18n.locale, this.driverCurrency);
  }

  private get refreshMs(): number {
    const ms = Number(this.refreshInterval);
    return Number.isFinite(ms) && ms > 0 ? Math.max(MIN_REFRESH_MS, ms) : DEFAULT_REFRESH_MS;
  }

  /** "You pay" while the user drives "you receive": the source asked for, or solved at once from the quote on screen. */
  private payEstimate(): string | undefined {
    const target = this.parsedDriver();
    if (!target.ok) return undefined;
    if (this.estimate?.target === target.value) return this.estimate.source;
    return this.floating ? estimateSource(this.floating, target.value) : undefined;
  }

  /** What each amount input shows: the typed text for the driver, the quote's figure for the other. */
  private viewOf(side: Side): string {
    if (side === sideOf(this.driver)) return this.typed;
    const locale = this.i18n.locale;
    if (side === 'receive') return this.floating && this.parsedDriver().ok ? formatForInput(this.floating.finalTargetAmount, locale) : '';
    const estimate = this.payEstimate();
    return estimate ? formatForInput(estimate, locale) : '';
  }

  /** Best effort: without it nothing is refused here, and the payment still has the server's word. */
  private async loadAccount(): Promise<void> {
    if (!this.session) {
      this.account = undefined;
      return;
    }
    try {
      this.account = await this.client().getCustomer({ include: ['limits', 'balances'] });
    } catch {
      this.account = undefined;
    }
  }

  private get chain(): string | undefined {
    return this.blockchain ?? this.floating?.blockchain;
  }

  private get block(): LockBlock | undefined {
    return lockBlock(this.account, this.stale ? undefined : this.floating, this.direction, this.stablecoin, this.chain);
  }

  private blockText(block: LockBlock): string {
    const usd = (amount: string) => formatAmount(amount, 'USD', this.i18n.locale);
    switch (block.kind) {
      case 'notApproved':
        return this.t('quote.block.notApproved');
      case 'rejected':
        return this.t('quote.block.rejected');
      case 'single':
        return this.t('quote.block.single', { max: usd(block.max) });
      case 'daily':
        return this.t('quote.block.daily', { remaining: usd(block.remaining) });
      case 'monthly':
        return this.t('quote.block.monthly', { remaining: usd(block.remaining) });
      case 'balance':
        return this.t('quote.block.balance', { balance: formatAmount(block.balance, block.coin as Stablecoin, this.i18n.locale) });
    }
  }

  private client(): BffClient {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
  }

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  // ── refresh policy ──

  /** Floating quotes are asked for only while someone can see them, and never while a lock is on or being made. */
  private canRefresh(): boolean {
    return (
      this.isConnected &&
      this.intersecting &&
      document.visibilityState === 'visible' &&
      this.phase === 'floating' &&
      this.lockTask.status !== TaskStatus.PENDING &&
      Boolean(this.session)
    );
  }

  /**
   * Plans the next floating quote: after `delayMs` when given (typing), at once when the inputs changed, otherwise one
   * period after the last answer. A failure the user must act on (an alert, a refused amount) stops the timer until
   * they do; so does leaving the screen, and coming back refreshes at once if the quote on screen is old.
   */
  private schedule(delayMs?: number): void {
    this.cancelRefresh();
    if (!this.canRefresh()) return;
    if (delayMs === undefined && (this.alert || this.amountError)) return;
    const due = delayMs ?? (this.stale ? 0 : Math.max(0, this.lastQuotedAt + this.refreshMs - this.clock.now()));
    this.refreshTimer = this.clock.setTimeout(() => {
      this.refreshTimer = undefined;
      void this.refresh();
    }, due);
  }

  private cancelRefresh(): void {
    if (this.refreshTimer !== undefined) this.clock.clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
  }

  private onVisibilityChange = (): void => this.schedule();

  private async refresh(): Promise<void> {
    if (!this.canRefresh()) return;
    const parsed = this.parsedDriver();
    if (!parsed.ok) {
      // Nothing to quote: the old figures would describe another amount.
      this.floatingTask.abort();
      this.floating = undefined;
      this.estimate = undefined;
      if (parsed.error !== 'empty') this.showAmountError({ kind: 'rule', error: parsed.error });
      return;
    }
    this.stale = false;
    const pair = this.pair;
    await this.floatingTask.run([{ pair, driver: this.driver, amount: parsed.value, terms: this.driver === 'target' ? this.floating : undefined }]);
  }

  /** One floating quote; in target mode the source is solved from the terms of a quote for the pair (fetched first if none). */
  private async fetchFloating({ pair, driver, amount, terms }: FloatingArgs, signal: AbortSignal): Promise<FloatingResult> {
    const client = this.client();
    if (driver === 'source') return { quote: await client.createQuote(floatingRequest(pair, amount), { signal }) };
    const reference = terms ?? (await client.createQuote(floatingRequest(pair, REFERENCE_SOURCE_AMOUNT), { signal }));
    const source = estimateSource(reference, amount);
    if (!source) throw new ProblemError(400, { code: 'VALIDATION_FAILED', errors: [{ path: 'targetAmount', message: 'amount too small to cover fees', code: 'BELOW_MINIMUM' }] });
    const chain = pair.blockchain ?? reference.blockchain;
    const quote = await client.createQuote(floatingRequest({ ...pair, blockchain: chain }, source), { signal });
    return { quote, estimate: { target: amount, source } };
  }

  private showFloating({ quote, estimate }: FloatingResult): void {
    if (this.phase !== 'floating') return; // a lock started meanwhile: its answer is the one that counts
    this.floating = quote;
    this.estimate = estimate;
    this.lastQuotedAt = this.clock.now();
    // Limits, balances and the verification move while the panel is open: read them again with each fresh quote.
    void this.loadAccount();
    this.failed = undefined;
    if (this.amountError?.kind !== 'rule' || this.parsedDriver().ok) this.amountError = undefined;
    // A debounce already waiting (the user typed while this was on its way) keeps its turn.
    if (this.refreshTimer === undefined) this.schedule();
  }

  // ── input ──

  private onAmountInput = (event: InputEvent): void => {
    const input = event.target as HTMLInputElement;
    const side = input.name as Side;
    const driver: Driver = side === 'pay' ? 'source' : 'target';
    const locale = this.i18n.locale;
    const currency = driver === 'source' ? this.sides.source : this.sides.target;
    let edit: Edit;
    if (event.inputType === 'insertFromPaste' || event.inputType === 'insertFromDrop') {
      // A paste is read whole, so `1.234,56` or `1,234.56` arrive as the amount they are in any language.
      const parsed = parseAmount(input.value, locale, currency);
      const value = parsed.ok ? formatForInput(parsed.value, locale) : reformatTyping(input.value, input.value.length, locale).value;
      edit = { value, caret: value.length };
    } else {
      edit = reformatTyping(input.value, input.selectionStart ?? input.value.length, locale, this.viewOf(side), event.inputType);
    }
    if (input.value !== edit.value) input.value = edit.value;
    if (this.shadowRoot?.activeElement === input) input.setSelectionRange(edit.caret, edit.caret);
    if (driver !== this.driver) {
      this.driver = driver;
      this.estimate = undefined;
    }
    this.typed = edit.value;
    // A fixed amount clears its error at once; a still-wrong one keeps the old message until typing settles.
    if (parseAmount(edit.value, locale, currency).ok || !edit.value) this.amountError = undefined;
    if (this.alert && this.alert.kind !== 'VALIDATION_FAILED') this.alert = undefined;
    this.stale = true;
    this.schedule(DEBOUNCE_MS);
  };

  private onDirectionChange = (event: Event): void => {
    this.direction = toDirection((event.target as HTMLInputElement).value);
  };

  private onCurrencyChange = (event: Event): void => {
    const value = (event.target as HTMLSelectElement).value;
    if ((stablecoins as readonly string[]).includes(value)) this.stablecoin = toStablecoin(value);
    else this.fiat = toFiat(value);
  };

  private onBlockchainChange = (event: Event): void => {
    this.blockchain = toBlockchain((event.target as HTMLSelectElement).value);
  };

  private onTimeLockChange = (event: Event): void => {
    const value = (event.target as HTMLInputElement).value;
    this.timeLock = timeLocks.find((l) => l === value) ?? '30s';
    // The server's verdict on an amount may hang on the window (a premium can make it too small): let it judge again.
    if (this.amountError && this.amountError.kind !== 'rule') this.amountError = undefined;
  };

  // ── locking ──

  private onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.lock();
  };

  private async lock(): Promise<void> {
    if (this.lockTask.status === TaskStatus.PENDING || this.phase !== 'floating') return; // a double click locks once
    const parsed = this.parsedDriver();
    if (!parsed.ok) {
      this.showAmountError({ kind: 'rule', error: parsed.error === 'empty' ? 'zero' : parsed.error });
      this.focusAmount();
      return;
    }
    if (this.amountError) {
      this.announceAmountError();
      this.focusAmount();
      return;
    }
    // What is on screen may be old (approved meanwhile, funds arrived): the verdict is taken on a fresh read.
    if (this.block) await this.loadAccount();
    const block = this.block;
    if (block) {
      this.announce(this.blockText(block));
      this.focusAmount();
      return;
    }
    // Lock on the chain the user saw priced: the chosen one, else the one the server named.
    const chain = this.blockchain ?? this.floating?.blockchain;
    const body = lockedRequest({ ...this.pair, blockchain: chain }, this.driver, parsed.value, this.timeLock);
    // Same body as a failed attempt (a retry) → same key, so the server keeps at most one lock for it.
    const key = this.lockKeys.keyFor(body);
    this.cancelRefresh();
    this.floatingTask.abort();
    this.alert = undefined;
    this.lockedFrom = this.floating;
    this.lockSentAt = this.clock.now();
    await this.lockTask.run([body, key]);
  }

  private async adoptLock(quote: Quote): Promise<void> {
    if (!quote.id || !quote.expiresAt) {
      this.fail(new ProblemError(502, { code: 'INVALID_RESPONSE', detail: 'The locked quote came without id or expiresAt.' }), 'lockQuote');
      return;
    }
    this.lockKeys.reset();
    this.locked = quote;
    this.phase = 'locked';
    this.failed = undefined;
    // The window is measured on the server's clock (expiresAt − createdAt) and started when the request left: the
    // countdown can end a little early, never late, whatever the device clock says.
    const lock = quote.timeLock ?? this.timeLock;
    const duration = lockDurationMs(quote) ?? timeLockSeconds[lock] * 1000;
    this.countdown.start(this.lockSentAt + duration);
    // The checkout and the off-ramp paying with this lock count down to the same instant (on the system clock).
    rememberLockDeadline(quote.id, Date.now() + (this.lockSentAt + duration - this.clock.now()));
    this.dispatchEvent(new RampQuoteLockedEvent({ exchangeRateId: quote.id, expiresAt: quote.expiresAt, quote }));
    this.announce(
      this.t('quote.announce.locked', {
        duration: this.t(`quote.duration.${lock}`),
        amount: formatAmount(quote.finalTargetAmount, quote.targetCurrency, this.i18n.locale),
      }),
    );
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#locked-title')?.focus();
  }

  private async expire(): Promise<void> {
    const quote = this.locked;
    if (this.phase !== 'locked' || !quote?.id) return;
    const focusInside = Boolean(this.shadowRoot?.activeElement);
    this.phase = 'expired';
    this.dispatchEvent(new RampQuoteExpiredEvent({ exchangeRateId: quote.id, reason: 'timeout' }));
    this.announce(this.t('quote.announce.expired'));
    await this.updateComplete;
    // Focus was on what just disappeared: give it the way forward. Focus elsewhere on the page is left alone.
    if (focusInside) this.renderRoot.querySelector<HTMLElement>('[data-testid="requote"]')?.focus();
  }

  /** The user gives the lock up to change something: the partner hears that this id is no longer on offer. */
  private onRelease = (): void => {
    const id = this.locked?.id;
    this.countdown.stop();
    if (this.phase === 'locked' && id) this.dispatchEvent(new RampQuoteExpiredEvent({ exchangeRateId: id, reason: 'released' }));
    void this.backToFloating();
  };

  private onRequote = (): void => void this.backToFloating();

  private async backToFloating(): Promise<void> {
    this.countdown.stop();
    void this.loadAccount();
    this.phase = 'floating';
    this.locked = undefined;
    this.lockedFrom = undefined;
    this.stale = true;
    await this.updateComplete;
    this.schedule();
    this.focusAmount();
  }

  // ── failures ──

  private fail(error: unknown, operation: Operation): void {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    this.failed = operation;
    if (operation === 'floatingQuote') {
      this.floating = undefined;
      this.estimate = undefined;
    }
    if (error instanceof ProblemError) {
      if (error.status === 400) {
        const { amounts, unplaced } = placeAmountProblems(error.errors, error.problem);
        // Whatever the path, the user typed one amount: the error belongs on it (a floating quote in target mode
        // asks with a solved source, whose problems are still about what was typed).
        const onAmount = amounts.sourceAmount ?? amounts.targetAmount;
        if (onAmount && unplaced.length === 0) {
          this.showAmountError(onAmount);
          return;
        }
        this.alert = { kind: 'VALIDATION_FAILED', problems: unplaced, detail: error.detail };
      } else if (error.code === 'UNSUPPORTED_PAIR') {
        this.alert = { kind: 'UNSUPPORTED_PAIR' };
        return; // another choice fixes it: not a failure to report
      } else if (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND') {
        this.alert = { kind: error.code };
      } else {
        this.alert = { kind: 'OTHER', code: error.code };
      }
      this.report(operation, { code: error.code, status: error.status, detail: error.detail, ...(error.requestId ? { requestId: error.requestId } : {}) });
    } else if (error instanceof NetworkError) {
      this.alert = { kind: 'NETWORK' };
      this.report(operation, { code: 'NETWORK_ERROR', status: null, detail: error.message });
    } else {
      this.alert = { kind: 'OTHER', code: 'CLIENT_ERROR' };
      this.report(operation, { code: 'CLIENT_ERROR', status: null, detail: error instanceof Error ? error.message : String(error) });
    }
  }

  private onRetry = (): void => {
    const operation = this.failed;
    this.alert = undefined;
    if (operation === 'lockQuote') {
      void this.lock();
    } else {
      this.stale = true;
      this.schedule(0);
    }
  };

  private showAmountError(error: AmountFieldError): void {
    this.amountError = error;
    this.announceAmountError();
  }

  private announceAmountError(): void {
    const message = this.amountErrorText();
    if (message) this.announce(this.t('quote.announce.fieldError', { field: this.t(`quote.${sideOf(this.driver)}.label`), message }));
  }

  private report(operation: Operation, detail: Omit<RampErrorDetail, 'operation'>): void {
    this.dispatchEvent(new RampErrorEvent({ ...detail, operation }));
  }

  private focusAmount(): void {
    this.renderRoot.querySelector<HTMLElement>(`#${sideOf(this.driver)}-amount`)?.focus();
  }

  /** Polite live region; the same sentence twice still changes the text, so it is read again. */
  private announce(message: string): void {
    this.announcement = message === this.announcement ? `${message}\u00a0` : message;
  }

  // ── rendering ──

  protected override render(): TemplateResult {
    const coin = this.stablecoin;
    return html`
      <section part="base" class="base" lang=${this.i18n.locale} aria-labelledby="title">
        <h2 id="title" part="title" class="title" tabindex="-1">${this.t(`quote.title.${this.direction}`, { coin })}</h2>
        ${this.renderAlert()}
        ${this.phase === 'floating' ? this.renderFloating() : this.phase === 'locked' ? this.renderLocked() : this.renderExpired()}
        <div part="status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="status">${this.announcement}</div>
      </section>
    `;
  }

  private renderAlert(): TemplateResult | typeof nothing {
    const alert = this.alert;
    if (!alert) return nothing;
    const message =
      alert.kind === 'VALIDATION_FAILED'
        ? this.t('quote.alert.VALIDATION_FAILED', { detail: alert.problems.map((p) => `${p.path}: ${this.problemText(p)}`).join('; ') || alert.detail })
        : alert.kind === 'OTHER'
          ? this.t('quote.alert.OTHER', { code: alert.code })
          : this.t(`quote.alert.${alert.kind}`);
    const retry = alert.kind !== 'UNSUPPORTED_PAIR' && alert.kind !== 'VALIDATION_FAILED';
    return html`
      <div part="alert" class="alert" role="alert" data-testid="alert" data-kind=${alert.kind}>
        <p>${message}</p>
        ${retry ? html`<button part="retry" class="secondary" type="button" data-testid="retry" @click=${this.onRetry}>${this.t('quote.alert.retry')}</button>` : nothing}
      </div>
    `;
  }

  /** A field problem in the user's language when its code is one the panel knows; otherwise the server's text as it came. */
  private problemText(problem: FieldProblem): string {
    switch (problem.code) {
      case 'REQUIRED':
      case 'UNKNOWN_FIELD':
      case 'NOT_ONE_OF':
      case 'CONFLICTING_FIELDS':
        return this.t(`quote.problem.${problem.code}`);
      default:
        return problem.message;
    }
  }

  private renderFloating(): TemplateResult {
    const locking = this.lockTask.status === TaskStatus.PENDING;
    const updating = this.floatingTask.status === TaskStatus.PENDING;
    const selectedChain = this.blockchain ?? this.floating?.blockchain;
    const block = this.block;
    return html`
      <form part="form" class="form" novalidate aria-busy=${locking || updating ? 'true' : 'false'} @submit=${this.onSubmit}>
        <fieldset part="direction-group" class="segmented">
          <legend class="visually-hidden">${this.t('quote.direction.legend')}</legend>
          ${directions.map(
            (d) => html`
              <label part="direction-option" class="segment">
                <input type="radio" name="direction" value=${d} data-testid="direction-${d}" .checked=${this.direction === d} @change=${this.onDirectionChange} />
                <span>${this.t(`quote.direction.${d}`)}</span>
              </label>
            `,
          )}
        </fieldset>
        ${this.renderAmount('pay')} ${this.renderAmount('receive')}
        <div part="field field-blockchain" class="field">
          <label part="label" for="blockchain">${this.t('quote.blockchain.label')}</label>
          <select id="blockchain" part="select" data-testid="blockchain" @change=${this.onBlockchainChange}>
            ${selectedChain ? nothing : html`<option value="" selected>${this.t('quote.blockchain.default')}</option>`}
            ${blockchains.map((b) => html`<option value=${b} ?selected=${b === selectedChain}>${blockchainNames[b]}</option>`)}
          </select>
        </div>
        ${this.renderBreakdown(updating)}
        <fieldset part="lock-group" class="lock-group" aria-describedby="lock-hint">
          <legend part="label">${this.t('quote.lock.legend')}</legend>
          <div class="segmented">
            ${timeLocks.map(
              (l) => html`
                <label part="lock-option" class="segment">
                  <input type="radio" name="time-lock" value=${l} data-testid="time-lock-${l}" .checked=${this.timeLock === l} @change=${this.onTimeLockChange} />
                  <span>${this.t(`quote.lock.${l}`)}</span>
                </label>
              `,
            )}
          </div>
          <p id="lock-hint" part="hint" class="hint">${this.t('quote.lock.hint')}</p>
        </fieldset>
        ${this.renderAccount()}
        <button
          part="lock-button"
          class="primary"
          type="submit"
          data-testid="lock"
          aria-disabled=${locking || block ? 'true' : 'false'}
          aria-describedby=${block ? 'lock-block' : nothing}
        >
          ${locking ? this.t('quote.lock.submitting') : this.t('quote.lock.submit')}
        </button>
      </form>
    `;
  }

  /** On sell the balance of the chosen coin and chain, the limits still open, and why a lock would be refused. */
  private renderAccount(): TemplateResult | typeof nothing {
    const account = this.account;
    if (!account) return nothing;
    const locale = this.i18n.locale;
    const balance = this.direction === 'sell' ? balanceOf(account, this.stablecoin, this.chain) : undefined;
    const limits = account.transactionLimits;
    const block = this.block;
    return html`
      <div part="account" class="account hint" data-testid="account">
        ${balance !== undefined
          ? html`<p data-testid="balance">
              ${this.t('quote.account.balance', {
                amount: formatAmount(balance, this.stablecoin, locale),
                blockchain: blockchainNames[this.chain as Blockchain] ?? this.chain ?? '',
              })}
            </p>`
          : nothing}
        ${limits
          ? html`<p data-testid="limits">
              ${this.t('quote.account.limits', {
                daily: formatAmount(limits.daily.remaining, 'USD', locale),
                single: formatAmount(limits.single.max, 'USD', locale),
              })}
            </p>`
          : nothing}
        ${block ? html`<p id="lock-block" part="error" class="error" data-testid="lock-block" data-kind=${block.kind}>${this.blockText(block)}</p>` : nothing}
      </div>
    `;
  }

  private renderAmount(side: Side): TemplateResult {
    const sides = this.sides;
    const currency = side === 'pay' ? sides.source : sides.target;
    const isDriver = side === sideOf(this.driver);
    const errorText = isDriver ? this.amountErrorText() : undefined;
    const hint = isDriver ? undefined : side === 'pay' ? this.t('quote.estimate.hint') : this.t('quote.receive.hint');
    const describedBy = [hint ? `${side}-hint` : '', errorText ? `${side}-error` : ''].filter(Boolean).join(' ');
    const locale = this.i18n.locale;
    const options = isStablecoin(currency)
      ? stablecoins.map((c) => ({ value: c, label: c }))
      : fiats.map((f) => ({ value: f, label: this.t('quote.fiat.option', { currency: f, rail: railFor[f] }) }));
    return html`
      <div part="field field-${side}" class="field">
        <label part="label" for="${side}-amount">${this.t(`quote.${side}.label`)}</label>
        <div part="amount-row" class="amount-row">
          <input
            id="${side}-amount"
            name=${side}
            part="input amount-input"
            data-testid="amount-${side}"
            type="text"
            inputmode="decimal"
            autocomplete="off"
            spellcheck="false"
            placeholder=${formatForInput('0.00', locale)}
            aria-invalid=${errorText ? 'true' : 'false'}
            aria-describedby=${describedBy || nothing}
            .value=${live(this.viewOf(side))}
            @input=${this.onAmountInput}
          />
          <label class="visually-hidden" for="${side}-currency">${this.t(`quote.${side}.currency`)}</label>
          <select id="${side}-currency" part="select currency-select" data-testid="currency-${side}" @change=${this.onCurrencyChange}>
            ${options.map((o) => html`<option value=${o.value} ?selected=${o.value === currency}>${o.label}</option>`)}
          </select>
        </div>
        ${hint ? html`<p id="${side}-hint" part="hint" class="hint">${hint}</p>` : nothing}
        ${errorText ? html`<p id="${side}-error" part="error" class="error" data-testid="amount-error">${errorText}</p>` : nothing}
      </div>
    `;
  }

  private amountErrorText(): string | undefined {
    const error = this.amountError;
    if (!error) return undefined;
    const currency = this.driverCurrency;
    const locale = this.i18n.locale;
    switch (error.kind) {
      case 'tooSmall':
        return error.minimumSourceAmount
          ? this.t('quote.error.tooSmall', { minimum: formatAmount(error.minimumSourceAmount, this.sides.source, locale) })
          : this.t('quote.error.tooSmall.noMinimum');
      case 'text':
        return this.t('quote.error.rejected', { message: error.message });
      case 'rule':
        switch (error.error) {
          case 'invalid':
            return this.t('quote.error.invalid', { example: formatForInput('1234.56', locale) });
          case 'tooManyDecimals':
            return this.t('quote.error.tooManyDecimals', { currency, decimals: decimalsOf(currency) });
          case 'zero':
            return this.t('quote.error.zero');
          case 'tooLarge':
            return this.t('quote.error.tooLarge');
        }
    }
  }

  private renderBreakdown(updating: boolean): TemplateResult {
    const q = this.floating;
    if (!q) {
      return html`<p part="empty" class="empty" data-testid="quote-empty">${updating ? this.t('quote.updating') : this.t('quote.empty')}</p>`;
    }
    return html`
      <div part="breakdown" class="breakdown" data-testid="breakdown" data-stale=${this.stale || updating ? 'true' : 'false'}>
        <h3 class="details-title">
          ${this.t('quote.details')}
          <span class="updating" data-testid="updating" ?hidden=${!updating}>${this.t('quote.updating')}</span>
        </h3>
        ${this.renderFigures(q)}
        <p part="route" class="route hint" data-testid="route">${this.routeText(q)}</p>
        <p part="hint" class="hint">${this.t('quote.indicative')}</p>
      </div>
    `;
  }

  /**
   * Rates, the amount before fees, each fee once (its % and its flat part) and the final amount: the rows add up to the
   * difference between the amount before fees and the final one. A lock's premium is its own row, taken out of the
   * service fee it is priced into (`floating`: the quote it was locked from).
   */
  private renderFigures(q: Quote, first: TemplateResult | typeof nothing = nothing, floating?: Quote): TemplateResult {
    const locale = this.i18n.locale;
    const rate = (value: string) => this.t('quote.rate.value', { source: q.sourceCurrency, rate: formatRate(value, locale), target: q.targetCurrency });
    const rows = feeRows(q, floating);
    const money = (amount: string) => formatAmount(amount, rows.currency, locale);
    const terms = (row: FeeRow) => {
      const percent = formatPercent(bpsToFraction(row.bps), locale);
      return isZero(row.flat) ? percent : this.t('quote.fee.rateAndFlat', { percent, flat: money(row.flat) });
    };
    const premium = q.type === 'LOCKED' && floating ? lockPremium(q, floating) : undefined;
    return html`
      <dl class="figures">
        ${first}
        <div part="row row-base-rate" class="row">
          <dt>${this.t('quote.rate.base')}</dt>
          <dd data-testid="base-rate">${rate(q.baseExchangeRate)}</dd>
        </div>
        <div part="row row-base-amount" class="row">
          <dt>${this.t('quote.base.amount')}</dt>
          <dd data-testid="base-amount">${money(rows.base)}</dd>
        </div>
        <div part="row row-service-fee" class="row">
          <dt data-testid="service-fee-label">${this.t('quote.fee.service', { percent: terms(rows.service) })}</dt>
          <dd data-testid="service-fee">−\u00a0${money(rows.service.amount)}</dd>
        </div>
        ${rows.premium
          ? html`<div part="row row-premium" class="row">
              <dt data-testid="lock-premium-label">${this.t('quote.locked.premium.rate', { percent: formatPercent(bpsToFraction(rows.premium.bps), locale) })}</dt>
              <dd data-testid="lock-premium">−\u00a0${money(rows.premium.amount)}</dd>
            </div>`
          : premium
            ? html`<div part="row row-premium" class="row">
                <dt data-testid="lock-premium-label">${this.t('quote.locked.premium')}</dt>
                <dd data-testid="lock-premium">${this.t('quote.locked.premium.none')}</dd>
              </div>`
            : nothing}
        <div part="row row-partner-fee" class="row">
          <dt data-testid="partner-fee-label">${this.t('quote.fee.partner', { percent: terms(rows.partner) })}</dt>
          <dd data-testid="partner-fee">−\u00a0${money(rows.partner.amount)}</dd>
        </div>
        <div part="row row-final-rate" class="row">
          <dt>${this.t('quote.rate.final')}</dt>
          <dd data-testid="final-rate">${rate(q.finalExchangeRate)}</dd>
        </div>
        <div part="row row-final-amount" class="row total">
          <dt>${this.t('quote.receive.label')}</dt>
          <dd part="final-amount" data-testid="final-amount">${formatAmount(q.finalTargetAmount, q.targetCurrency, locale)}</dd>
        </div>
      </dl>
    `;
  }

  private routeText(q: Quote): string {
    const params = { rail: q.rail, blockchain: blockchainNames[q.blockchain] ?? q.blockchain };
    return this.direction === 'buy' ? this.t('quote.route.buy', params) : this.t('quote.route.sell', params);
  }

  private renderLocked(): TemplateResult {
    const q = this.locked;
    if (!q) return html``;
    const locale = this.i18n.locale;
    const sourceRow = html`
      <div part="row row-source" class="row">
        <dt>${this.t('quote.pay.label')}</dt>
        <dd data-testid="locked-source">${formatAmount(q.sourceAmount, q.sourceCurrency, locale)}</dd>
      </div>
    `;
    return html`
      <div part="locked" class="locked" data-testid="locked">
        <div class="locked-header">
          <h3 id="locked-title" class="locked-title" tabindex="-1">${this.t('quote.locked.title')}</h3>
          <p class="countdown-line">
            <span id="time-left">${this.t('quote.locked.timeLeft')}</span>
            <span part="countdown" class="countdown" role="timer" aria-labelledby="time-left" data-testid="countdown"
              >${formatCountdown(this.countdown.seconds, locale)}</span
            >
          </p>
        </div>
        <p part="locked-amount" class="locked-amount" data-testid="locked-amount">
          <span class="locked-amount-label">${this.t('quote.receive.label')}</span>
          <strong>${formatAmount(q.finalTargetAmount, q.targetCurrency, locale)}</strong>
        </p>
        ${this.renderFigures(q, sourceRow, this.lockedFrom)}
        <p part="route" class="route hint">${this.routeText(q)}</p>
        <dl class="meta">
          <div class="row">
            <dt>${this.t('quote.locked.until')}</dt>
            <dd data-testid="expires-at">${q.expiresAt ? formatClockTime(q.expiresAt, locale) : ''}</dd>
          </div>
        </dl>
        ${q.id ? supportReference(this.t('quote.locked.reference'), q.id, 'exchange-rate-id') : nothing}
        <button part="release" class="secondary" type="button" data-testid="release" @click=${this.onRelease}>${this.t('quote.locked.change')}</button>
      </div>
    `;
  }

  private renderExpired(): TemplateResult {
    return html`
      <div part="expired" class="expired" data-testid="expired">
        <h3 id="expired-title" class="expired-title">${this.t('quote.expired.title')}</h3>
        <p>${this.t('quote.expired.body')}</p>
        <button part="requote" class="primary" type="button" data-testid="requote" @click=${this.onRequote}>${this.t('quote.requote')}</button>
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ramp-quote': RampQuote;
  }
}

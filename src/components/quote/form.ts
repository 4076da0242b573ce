// <ramp-quote>'s floating-quote form: the amount the user drives (its view value as typed and its error), the pair and lock-window choices, and their rendering.
import { html, nothing, type LitElement, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Customer } from '../../contract/customers';
import type { I18nController } from '../../i18n';
import { formatAmount, formatForInput, parseAmount, reformatTyping, type Edit, type ParsedAmount } from './amount';
import { balanceOf, type LockBlock } from './eligibility';
import { blockchainNames, renderBreakdown } from './figures';
import type { FloatingQuoteController } from './floating-quote';
import type { QuoteLock } from './lock';
import { amountErrorText, blockText } from './messages';
import {
  blockchains,
  directions,
  estimateSource,
  fiats,
  isStablecoin,
  railFor,
  sidesOf,
  stablecoins,
  timeLocks,
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
  type Sides,
  type Stablecoin,
  type TimeLock,
} from './model';
import type { AmountFieldError } from './problems';

type Side = 'pay' | 'receive';
const sideOf = (driver: Driver): Side => (driver === 'source' ? 'pay' : 'receive');

/** The element the form belongs to: the pair is its public properties, which the user's choices set. */
export type QuoteFormHost = LitElement & { direction: Direction; fiat: Fiat; stablecoin: Stablecoin; blockchain: Blockchain | undefined; hideDirection: boolean };

export interface QuoteFormOptions {
  /** The session's customer, for the balance and limits shown under the form. */
  account: () => Customer | undefined;
  /** Why a lock would be refused now, if it would. */
  block: () => LockBlock | undefined;
  announce: (message: string) => void;
  /** The user edited an amount (the form has taken it): a new quote is due once typing settles. */
  typed: () => void;
  /** "Lock rate" was pressed. */
  submit: () => void;
}

interface FormState {
  driver: Driver;
  /** The driver's view value, as the user sees it (`1.234,56`). */
  typed: string;
  error: AmountFieldError | undefined;
  timeLock: TimeLock;
}

/**
 * The user drives one amount, "you pay" (`source`) or "you receive" (`target`); the other input shows the quote's
 * figure for it. The form keeps the driver's view value as typed and reads the model value (a decimal string) from it
 * in the panel's language. It renders into the host's shadow root, so the host's styles and tests reach it unchanged.
 */
export class QuoteForm {
  #s: FormState = { driver: 'source', typed: '', error: undefined, timeLock: '30s' };
  /** The language the view value is written in. */
  #viewLocale: string | undefined;

  constructor(
    private readonly host: QuoteFormHost,
    private readonly i18n: I18nController,
    private readonly floating: FloatingQuoteController,
    private readonly lock: QuoteLock,
    private readonly options: QuoteFormOptions,
  ) {}

  get driver(): Driver {
    return this.#s.driver;
  }

  /** The lock window chosen. */
  get timeLock(): TimeLock {
    return this.#s.timeLock;
  }

  /** The error shown on the driver's input. */
  get error(): AmountFieldError | undefined {
    return this.#s.error;
  }

  set error(error: AmountFieldError | undefined) {
    this.#set({ error });
  }

  /** The pair the host's properties say. */
  get pair(): Pair {
    const host = this.host;
    return { direction: host.direction, fiat: host.fiat, stablecoin: host.stablecoin, blockchain: host.blockchain };
  }

  get sides(): Sides {
    return sidesOf(this.pair);
  }

  /** The currency of the amount the user drives. */
  get currency(): Currency {
    return this.#s.driver === 'source' ? this.sides.source : this.sides.target;
  }

  /** The chain the user sees priced: the chosen one, else the one the server named. */
  get chain(): Blockchain | undefined {
    return this.host.blockchain ?? this.floating.quote?.blockchain;
  }

  /** The driver's model value, read from what the user typed. */
  parsed(): ParsedAmount {
    return parseAmount(this.#s.typed, this.i18n.locale, this.currency);
  }

  /** From the host's `willUpdate`: a new `amount` attribute (a decimal string as the API writes it), or a new language. */
  follow(locale: string, amount: string | undefined): void {
    if (amount !== undefined) {
      // One the rules refuse is shown as given, so its error shows too.
      const parsed = parseAmount(amount, 'en', this.sides.source);
      this.#set({ driver: 'source', error: undefined, typed: parsed.ok ? formatForInput(parsed.value, locale) : amount });
    } else if (this.#viewLocale && locale !== this.#viewLocale && this.#s.typed) {
      // The language changed: the same amount, written the new language's way (1,234.5 ⇄ 1.234,5).
      const parsed = parseAmount(this.#s.typed, this.#viewLocale, this.currency);
      if (parsed.ok) this.#set({ typed: formatForInput(parsed.value, locale) });
    }
    this.#viewLocale = locale;
  }

  /**
   * Before a lock: the amount's model value when it may be locked; else its error is shown and said, focus goes to
   * it, and undefined.
   */
  lockable(): string | undefined {
    const parsed = this.parsed();
    if (!parsed.ok) this.showError({ kind: 'rule', error: parsed.error === 'empty' ? 'zero' : parsed.error });
    else if (this.error) this.announceError();
    else return parsed.value;
    this.focus();
    return undefined;
  }

  showError(error: AmountFieldError): void {
    this.#set({ error });
    this.announceError();
  }

  /** Says the driver's error in the live region. */
  announceError(): void {
    const error = this.#s.error;
    const message = error ? amountErrorText(this.i18n, error, this.currency, this.sides.source) : undefined;
    if (message) this.options.announce(this.i18n.t('quote.announce.fieldError', { field: this.i18n.t(`quote.${sideOf(this.#s.driver)}.label`), message }));
  }

  /** Focus on the amount the user drives. */
  focus(): void {
    this.host.renderRoot.querySelector<HTMLElement>(`#${sideOf(this.#s.driver)}-amount`)?.focus();
  }

  /** Like a `@state` field: a change re-renders the host, the same value does not. */
  #set(change: Partial<FormState>): void {
    const next = { ...this.#s, ...change };
    if ((Object.keys(change) as (keyof FormState)[]).every((key) => Object.is(next[key], this.#s[key]))) return;
    this.#s = next;
    this.host.requestUpdate();
  }

  /** "You pay" while the user drives "you receive": the source asked for, or solved at once from the quote on screen. */
  #payEstimate(): string | undefined {
    const target = this.parsed();
    if (!target.ok) return undefined;
    const { quote, estimate } = this.floating;
    if (estimate?.target === target.value) return estimate.source;
    return quote ? estimateSource(quote, target.value) : undefined;
  }

  /** What each amount input shows: the typed text for the driver, the quote's figure for the other. */
  #viewOf(side: Side): string {
    if (side === sideOf(this.#s.driver)) return this.#s.typed;
    const locale = this.i18n.locale;
    const quote = this.floating.quote;
    if (side === 'receive') return quote && this.parsed().ok ? formatForInput(quote.finalTargetAmount, locale) : '';
    const estimate = this.#payEstimate();
    return estimate ? formatForInput(estimate, locale) : '';
  }

  #onAmountInput = (event: InputEvent): void => {
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
      edit = reformatTyping(input.value, input.selectionStart ?? input.value.length, locale, this.#viewOf(side), event.inputType);
    }
    if (input.value !== edit.value) input.value = edit.value;
    if (this.host.shadowRoot?.activeElement === input) input.setSelectionRange(edit.caret, edit.caret);
    if (driver !== this.#s.driver) {
      this.#set({ driver });
      this.floating.estimate = undefined;
    }
    this.#set({ typed: edit.value });
    // A fixed amount clears its error at once; a still-wrong one keeps the old message until typing settles.
    if (parseAmount(edit.value, locale, currency).ok || !edit.value) this.#set({ error: undefined });
    this.options.typed();
  };

  #onDirectionChange = (event: Event): void => {
    this.host.direction = toDirection((event.target as HTMLInputElement).value);
  };

  #onCurrencyChange = (event: Event): void => {
    const value = (event.target as HTMLSelectElement).value;
    if ((stablecoins as readonly string[]).includes(value)) this.host.stablecoin = toStablecoin(value);
    else this.host.fiat = toFiat(value);
  };

  #onBlockchainChange = (event: Event): void => {
    this.host.blockchain = toBlockchain((event.target as HTMLSelectElement).value);
  };

  #onTimeLockChange = (event: Event): void => {
    const value = (event.target as HTMLInputElement).value;
    this.#set({ timeLock: timeLocks.find((l) => l === value) ?? '30s' });
    // The server's verdict on an amount may hang on the window (a premium can make it too small): let it judge again.
    if (this.#s.error && this.#s.error.kind !== 'rule') this.#set({ error: undefined });
  };

  #onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    this.options.submit();
  };

  render(): TemplateResult {
    const locking = this.lock.pending;
    const updating = this.floating.pending;
    const selectedChain = this.chain;
    const block = this.options.block();
    return html`
      <form part="form" class="form" novalidate aria-busy=${locking || updating ? 'true' : 'false'} @submit=${this.#onSubmit}>
        ${this.host.hideDirection ? nothing : this.#renderDirection()} ${this.#renderAmount('pay')} ${this.#renderAmount('receive')}
        <div part="field field-blockchain" class="field">
          <label part="label" for="blockchain">${this.i18n.t('quote.blockchain.label')}</label>
          <select id="blockchain" part="select" data-testid="blockchain" @change=${this.#onBlockchainChange}>
            ${selectedChain ? nothing : html`<option value="" selected>${this.i18n.t('quote.blockchain.default')}</option>`}
            ${blockchains.map((b) => html`<option value=${b} ?selected=${b === selectedChain}>${blockchainNames[b]}</option>`)}
          </select>
        </div>
        ${renderBreakdown(this.i18n, this.floating.quote, { updating, stale: this.floating.stale, direction: this.host.direction })}
        <fieldset part="lock-group" class="lock-group" aria-describedby="lock-hint">
          <legend part="label">${this.i18n.t('quote.lock.legend')}</legend>
          <div class="segmented">
            ${timeLocks.map(
              (l) => html`
                <label part="lock-option" class="segment">
                  <input type="radio" name="time-lock" value=${l} data-testid="time-lock-${l}" .checked=${this.#s.timeLock === l} @change=${this.#onTimeLockChange} />
                  <span>${this.i18n.t(`quote.lock.${l}`)}</span>
                </label>
              `,
            )}
          </div>
          <p id="lock-hint" part="hint" class="hint">${this.i18n.t('quote.lock.hint')}</p>
        </fieldset>
        ${this.#renderAccount()}
        <button
          part="lock-button"
          class="primary"
          type="submit"
          data-testid="lock"
          aria-disabled=${locking || block ? 'true' : 'false'}
          aria-describedby=${block ? 'lock-block' : nothing}
        >
          ${locking ? this.i18n.t('quote.lock.submitting') : this.i18n.t('quote.lock.submit')}
        </button>
      </form>
    `;
  }

  /** The buy / sell choice; a host with its own (the widget's tabs) hides it, so there is one switch. */
  #renderDirection(): TemplateResult {
    return html`<fieldset part="direction-group" class="segmented">
          <legend class="visually-hidden">${this.i18n.t('quote.direction.legend')}</legend>
          ${directions.map(
            (d) => html`
              <label part="direction-option" class="segment">
                <input type="radio" name="direction" value=${d} data-testid="direction-${d}" .checked=${this.host.direction === d} @change=${this.#onDirectionChange} />
                <span>${this.i18n.t(`quote.direction.${d}`)}</span>
              </label>
            `,
          )}
        </fieldset>`;
  }

  /** On sell the balance of the chosen coin and chain, the limits still open, and why a lock would be refused. */
  #renderAccount(): TemplateResult | typeof nothing {
    const account = this.options.account();
    if (!account) return nothing;
    const locale = this.i18n.locale;
    const balance = this.host.direction === 'sell' ? balanceOf(account, this.host.stablecoin, this.chain) : undefined;
    const limits = account.transactionLimits;
    const block = this.options.block();
    return html`
      <div part="account" class="account hint" data-testid="account">
        ${balance !== undefined
          ? html`<p data-testid="balance">
              ${this.i18n.t('quote.account.balance', {
                amount: formatAmount(balance, this.host.stablecoin, locale),
                blockchain: blockchainNames[this.chain as Blockchain] ?? this.chain ?? '',
              })}
            </p>`
          : nothing}
        ${limits
          ? html`<p data-testid="limits">
              ${this.i18n.t('quote.account.limits', {
                daily: formatAmount(limits.daily.remaining, 'USD', locale),
                single: formatAmount(limits.single.max, 'USD', locale),
              })}
            </p>`
          : nothing}
        ${block ? html`<p id="lock-block" part="error" class="error" data-testid="lock-block" data-kind=${block.kind}>${blockText(this.i18n, block)}</p>` : nothing}
      </div>
    `;
  }

  #renderAmount(side: Side): TemplateResult {
    const sides = this.sides;
    const currency = side === 'pay' ? sides.source : sides.target;
    const isDriver = side === sideOf(this.#s.driver);
    const error = isDriver ? this.#s.error : undefined;
    const errorText = error ? amountErrorText(this.i18n, error, currency, sides.source) : undefined;
    const hint = isDriver ? undefined : side === 'pay' ? this.i18n.t('quote.estimate.hint') : this.i18n.t('quote.receive.hint');
    const describedBy = [hint ? `${side}-hint` : '', errorText ? `${side}-error` : ''].filter(Boolean).join(' ');
    const locale = this.i18n.locale;
    const options = isStablecoin(currency)
      ? stablecoins.map((c) => ({ value: c, label: c }))
      : fiats.map((f) => ({ value: f, label: this.i18n.t('quote.fiat.option', { currency: f, rail: railFor[f] }) }));
    return html`
      <div part="field field-${side}" class="field">
        <label part="label" for="${side}-amount">${this.i18n.t(`quote.${side}.label`)}</label>
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
            .value=${live(this.#viewOf(side))}
            @input=${this.#onAmountInput}
          />
          <label class="visually-hidden" for="${side}-currency">${this.i18n.t(`quote.${side}.currency`)}</label>
          <select id="${side}-currency" part="select currency-select" data-testid="currency-${side}" @change=${this.#onCurrencyChange}>
            ${options.map((o) => html`<option value=${o.value} ?selected=${o.value === currency}>${o.label}</option>`)}
          </select>
        </div>
        ${hint ? html`<p id="${side}-hint" part="hint" class="hint">${hint}</p>` : nothing}
        ${errorText ? html`<p id="${side}-error" part="error" class="error" data-testid="amount-error">${errorText}</p>` : nothing}
      </div>
    `;
  }
}

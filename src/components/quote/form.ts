// <ramp-quote>'s floating-quote form (direction, amounts, network, details, lock window, account, lock button) and its form-level alert.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Customer } from '../../contract/customers';
import { formatAmount, formatForInput } from './amount';
import { balanceOf, type LockBlock } from './eligibility';
import { blockchainNames, renderBreakdown } from './figures';
import type { FloatingQuoteController } from './floating-quote';
import type { QuoteLock } from './lock';
import { alertText, amountErrorText, blockText, type Words } from './messages';
import {
  blockchains,
  directions,
  fiats,
  isStablecoin,
  railFor,
  stablecoins,
  timeLocks,
  type Blockchain,
  type Direction,
  type Driver,
  type Sides,
  type Stablecoin,
  type TimeLock,
} from './model';
import type { AmountFieldError, QuoteAlert } from './problems';

export type Side = 'pay' | 'receive';
export const sideOf = (driver: Driver): Side => (driver === 'source' ? 'pay' : 'receive');

/** Everything the form shows, read from the host once per render, and where its inputs go. */
export interface FormView {
  direction: Direction;
  stablecoin: Stablecoin;
  sides: Sides;
  driver: Driver;
  /** What each amount input shows. */
  value: (side: Side) => string;
  amountError: AmountFieldError | undefined;
  /** The chosen network, else the one the floating quote named. */
  chain: Blockchain | undefined;
  floating: Pick<FloatingQuoteController, 'quote' | 'stale' | 'pending'>;
  lock: Pick<QuoteLock, 'pending'>;
  timeLock: TimeLock;
  account: Customer | undefined;
  block: LockBlock | undefined;
  on: {
    submit: (event: SubmitEvent) => void;
    direction: (event: Event) => void;
    amount: (event: InputEvent) => void;
    currency: (event: Event) => void;
    blockchain: (event: Event) => void;
    timeLock: (event: Event) => void;
  };
}

export function renderForm(w: Words, v: FormView): TemplateResult {
  const { block } = v;
  const locking = v.lock.pending;
  const updating = v.floating.pending;
  return html`
      <form part="form" class="form" novalidate aria-busy=${locking || updating ? 'true' : 'false'} @submit=${v.on.submit}>
        <fieldset part="direction-group" class="segmented">
          <legend class="visually-hidden">${w.t('quote.direction.legend')}</legend>
          ${directions.map(
            (d) => html`
              <label part="direction-option" class="segment">
                <input type="radio" name="direction" value=${d} data-testid="direction-${d}" .checked=${v.direction === d} @change=${v.on.direction} />
                <span>${w.t(`quote.direction.${d}`)}</span>
              </label>
            `,
          )}
        </fieldset>
        ${renderAmount(w, v, 'pay')} ${renderAmount(w, v, 'receive')}
        <div part="field field-blockchain" class="field">
          <label part="label" for="blockchain">${w.t('quote.blockchain.label')}</label>
          <select id="blockchain" part="select" data-testid="blockchain" @change=${v.on.blockchain}>
            ${v.chain ? nothing : html`<option value="" selected>${w.t('quote.blockchain.default')}</option>`}
            ${blockchains.map((b) => html`<option value=${b} ?selected=${b === v.chain}>${blockchainNames[b]}</option>`)}
          </select>
        </div>
        ${renderBreakdown(w, v.floating.quote, { updating, stale: v.floating.stale, direction: v.direction })}
        <fieldset part="lock-group" class="lock-group" aria-describedby="lock-hint">
          <legend part="label">${w.t('quote.lock.legend')}</legend>
          <div class="segmented">
            ${timeLocks.map(
              (l) => html`
                <label part="lock-option" class="segment">
                  <input type="radio" name="time-lock" value=${l} data-testid="time-lock-${l}" .checked=${v.timeLock === l} @change=${v.on.timeLock} />
                  <span>${w.t(`quote.lock.${l}`)}</span>
                </label>
              `,
            )}
          </div>
          <p id="lock-hint" part="hint" class="hint">${w.t('quote.lock.hint')}</p>
        </fieldset>
        ${renderAccount(w, v)}
        <button
          part="lock-button"
          class="primary"
          type="submit"
          data-testid="lock"
          aria-disabled=${locking || block ? 'true' : 'false'}
          aria-describedby=${block ? 'lock-block' : nothing}
        >
          ${locking ? w.t('quote.lock.submitting') : w.t('quote.lock.submit')}
        </button>
      </form>
    `;
}

/** On sell the balance of the chosen coin and chain, the limits still open, and why a lock would be refused. */
function renderAccount(w: Words, v: FormView): TemplateResult | typeof nothing {
  const { account, block } = v;
  if (!account) return nothing;
  const locale = w.locale;
  const balance = v.direction === 'sell' ? balanceOf(account, v.stablecoin, v.chain) : undefined;
  const limits = account.transactionLimits;
  return html`
      <div part="account" class="account hint" data-testid="account">
        ${balance !== undefined
          ? html`<p data-testid="balance">
              ${w.t('quote.account.balance', {
                amount: formatAmount(balance, v.stablecoin, locale),
                blockchain: blockchainNames[v.chain as Blockchain] ?? v.chain ?? '',
              })}
            </p>`
          : nothing}
        ${limits
          ? html`<p data-testid="limits">
              ${w.t('quote.account.limits', {
                daily: formatAmount(limits.daily.remaining, 'USD', locale),
                single: formatAmount(limits.single.max, 'USD', locale),
              })}
            </p>`
          : nothing}
        ${block ? html`<p id="lock-block" part="error" class="error" data-testid="lock-block" data-kind=${block.kind}>${blockText(w, block)}</p>` : nothing}
      </div>
    `;
}

function renderAmount(w: Words, v: FormView, side: Side): TemplateResult {
  const sides = v.sides;
  const currency = side === 'pay' ? sides.source : sides.target;
  const isDriver = side === sideOf(v.driver);
  const error = isDriver ? v.amountError : undefined;
  const errorText = error ? amountErrorText(w, error, currency, sides.source) : undefined;
  const hint = isDriver ? undefined : side === 'pay' ? w.t('quote.estimate.hint') : w.t('quote.receive.hint');
  const describedBy = [hint ? `${side}-hint` : '', errorText ? `${side}-error` : ''].filter(Boolean).join(' ');
  const locale = w.locale;
  const options = isStablecoin(currency)
    ? stablecoins.map((c) => ({ value: c, label: c }))
    : fiats.map((f) => ({ value: f, label: w.t('quote.fiat.option', { currency: f, rail: railFor[f] }) }));
  return html`
      <div part="field field-${side}" class="field">
        <label part="label" for="${side}-amount">${w.t(`quote.${side}.label`)}</label>
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
            .value=${live(v.value(side))}
            @input=${v.on.amount}
          />
          <label class="visually-hidden" for="${side}-currency">${w.t(`quote.${side}.currency`)}</label>
          <select id="${side}-currency" part="select currency-select" data-testid="currency-${side}" @change=${v.on.currency}>
            ${options.map((o) => html`<option value=${o.value} ?selected=${o.value === currency}>${o.label}</option>`)}
          </select>
        </div>
        ${hint ? html`<p id="${side}-hint" part="hint" class="hint">${hint}</p>` : nothing}
        ${errorText ? html`<p id="${side}-error" part="error" class="error" data-testid="amount-error">${errorText}</p>` : nothing}
      </div>
    `;
}

/** The failure editing the amount cannot fix, with a retry where trying again can help. */
export function renderAlert(w: Words, alert: QuoteAlert | undefined, retry: () => void): TemplateResult | typeof nothing {
  if (!alert) return nothing;
  const again = alert.kind !== 'UNSUPPORTED_PAIR' && alert.kind !== 'VALIDATION_FAILED';
  return html`
      <div part="alert" class="alert" role="alert" data-testid="alert" data-kind=${alert.kind}>
        <p>${alertText(w, alert)}</p>
        ${again ? html`<button part="retry" class="secondary" type="button" data-testid="retry" @click=${retry}>${w.t('quote.alert.retry')}</button>` : nothing}
      </div>
    `;
}

// The panels of <ramp-quote> besides its form: the alert above it, the locked quote with its countdown that replaces it, and the notice that the lock expired.
import { html, nothing, type TemplateResult } from 'lit';
import { supportReference } from '../support-reference';
import { formatAmount } from './amount';
import { formatClockTime, formatCountdown } from './countdown';
import { renderFigures, routeText } from './figures';
import { alertText, type Words } from './messages';
import type { QuoteLock } from './lock';
import type { Direction } from './model';
import type { QuoteAlert } from './problems';

// The templates here keep the indentation they had as methods of RampQuote: their whitespace text nodes are part of the
// DOM partners and tests read, so moving them changes no character of it.

/** The guaranteed amount, highlighted, with the time left (`role="timer"`), the figures, the deadline and the quote's id. */
export function renderLocked(w: Words, lock: Pick<QuoteLock, 'quote' | 'from' | 'seconds'>, direction: Direction, release: () => void): TemplateResult {
  const q = lock.quote;
  if (!q) return html``;
  const locale = w.locale;
  const sourceRow = html`
      <div part="row row-source" class="row">
        <dt>${w.t('quote.pay.label')}</dt>
        <dd data-testid="locked-source">${formatAmount(q.sourceAmount, q.sourceCurrency, locale)}</dd>
      </div>
    `;
  return html`
      <div part="locked" class="locked" data-testid="locked">
        <div class="locked-header">
          <h3 id="locked-title" class="locked-title" tabindex="-1">${w.t('quote.locked.title')}</h3>
          <p class="countdown-line">
            <span id="time-left">${w.t('quote.locked.timeLeft')}</span>
            <span part="countdown" class="countdown" role="timer" aria-labelledby="time-left" data-testid="countdown"
              >${formatCountdown(lock.seconds, locale)}</span
            >
          </p>
        </div>
        <p part="locked-amount" class="locked-amount" data-testid="locked-amount">
          <span class="locked-amount-label">${w.t('quote.receive.label')}</span>
          <strong>${formatAmount(q.finalTargetAmount, q.targetCurrency, locale)}</strong>
        </p>
        ${renderFigures(w, q, sourceRow, lock.from)}
        <p part="route" class="route hint">${routeText(w, q, direction)}</p>
        <dl class="meta">
          <div class="row">
            <dt>${w.t('quote.locked.until')}</dt>
            <dd data-testid="expires-at">${q.expiresAt ? formatClockTime(q.expiresAt, locale) : ''}</dd>
          </div>
        </dl>
        ${q.id ? supportReference(w.t('quote.locked.reference'), q.id, 'exchange-rate-id') : nothing}
        <button part="release" class="secondary" type="button" data-testid="release" @click=${release}>${w.t('quote.locked.change')}</button>
      </div>
    `;
}

/** The lock a payment holds: the guaranteed amount, no countdown (the payment's window governs), a way to a new quote. */
export function renderHeld(w: Words, lock: Pick<QuoteLock, 'quote'>, requote: () => void): TemplateResult {
  const q = lock.quote;
  return html`
      <div part="held" class="locked" data-testid="held">
        <h3 id="held-title" class="locked-title" tabindex="-1">${w.t('quote.held.title')}</h3>
        ${q
          ? html`<p part="locked-amount" class="locked-amount" data-testid="locked-amount">
              <span class="locked-amount-label">${w.t('quote.receive.label')}</span>
              <strong>${formatAmount(q.finalTargetAmount, q.targetCurrency, w.locale)}</strong>
            </p>`
          : nothing}
        <p>${w.t('quote.held.body')}</p>
        <button part="requote" class="secondary" type="button" data-testid="requote" @click=${requote}>${w.t('quote.requote')}</button>
      </div>
    `;
}

export function renderExpired(w: Words, requote: () => void): TemplateResult {
  return html`
      <div part="expired" class="expired" data-testid="expired">
        <h3 id="expired-title" class="expired-title">${w.t('quote.expired.title')}</h3>
        <p>${w.t('quote.expired.body')}</p>
        <button part="requote" class="primary" type="button" data-testid="requote" @click=${requote}>${w.t('quote.requote')}</button>
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

// The figures of a quote as <ramp-quote> shows them: rates, the amount before fees, each fee, a lock's premium, the final amount and the route.
import { html, nothing, type TemplateResult } from 'lit';
import type { Quote } from '../../contract/exchange-rates';
import { BLOCKCHAIN_NAMES } from '../../contract/blockchains';
import { formatAmount, formatPercent, formatRate } from './amount';
import type { Words } from './messages';
import { bpsToFraction, feeRows, isZero, lockPremium, type Blockchain, type Direction, type FeeRow } from './model';

// The templates here keep the indentation they had as methods of RampQuote: their whitespace text nodes are part of the
// DOM partners and tests read, so moving them changes no character of it.

export const blockchainNames: Readonly<Record<Blockchain, string>> = BLOCKCHAIN_NAMES;

/** The floating quote's details, marked stale while they answer older inputs; a line in their place before the first quote. */
export function renderBreakdown(w: Words, q: Quote | undefined, o: { updating: boolean; stale: boolean; direction: Direction }): TemplateResult {
  if (!q) {
    return html`<p part="empty" class="empty" data-testid="quote-empty">${o.updating ? w.t('quote.updating') : w.t('quote.empty')}</p>`;
  }
  return html`
      <div part="breakdown" class="breakdown" data-testid="breakdown" data-stale=${o.stale || o.updating ? 'true' : 'false'}>
        <h3 class="details-title">
          ${w.t('quote.details')}
          <span class="updating" data-testid="updating" ?hidden=${!o.updating}>${w.t('quote.updating')}</span>
        </h3>
        ${renderFigures(w, q)}
        <p part="route" class="route hint" data-testid="route">${routeText(w, q, o.direction)}</p>
        <p part="hint" class="hint">${w.t('quote.indicative')}</p>
      </div>
    `;
}

/**
 * Rates, the amount before fees, each fee once (its % and its flat part) and the final amount: the rows add up to the
 * difference between the amount before fees and the final one. A lock's premium is its own row, taken out of the
 * service fee it is priced into (`floating`: the quote it was locked from).
 */
export function renderFigures(w: Words, q: Quote, first: TemplateResult | typeof nothing = nothing, floating?: Quote): TemplateResult {
  const locale = w.locale;
  const rate = (value: string) => w.t('quote.rate.value', { source: q.sourceCurrency, rate: formatRate(value, locale), target: q.targetCurrency });
  const rows = feeRows(q, floating);
  const money = (amount: string) => formatAmount(amount, rows.currency, locale);
  const terms = (row: FeeRow) => {
    const percent = formatPercent(bpsToFraction(row.bps), locale);
    return isZero(row.flat) ? percent : w.t('quote.fee.rateAndFlat', { percent, flat: money(row.flat) });
  };
  const premium = q.type === 'LOCKED' && floating ? lockPremium(q, floating) : undefined;
  return html`
      <dl class="figures">
        ${first}
        <div part="row row-base-rate" class="row">
          <dt>${w.t('quote.rate.base')}</dt>
          <dd data-testid="base-rate">${rate(q.baseExchangeRate)}</dd>
        </div>
        <div part="row row-base-amount" class="row">
          <dt>${w.t('quote.base.amount')}</dt>
          <dd data-testid="base-amount">${money(rows.base)}</dd>
        </div>
        <div part="row row-service-fee" class="row">
          <dt data-testid="service-fee-label">${w.t('quote.fee.service', { percent: terms(rows.service) })}</dt>
          <dd data-testid="service-fee">−\u00a0${money(rows.service.amount)}</dd>
        </div>
        ${rows.premium
          ? html`<div part="row row-premium" class="row">
              <dt data-testid="lock-premium-label">${w.t('quote.locked.premium.rate', { percent: formatPercent(bpsToFraction(rows.premium.bps), locale) })}</dt>
              <dd data-testid="lock-premium">−\u00a0${money(rows.premium.amount)}</dd>
            </div>`
          : premium
            ? html`<div part="row row-premium" class="row">
                <dt data-testid="lock-premium-label">${w.t('quote.locked.premium')}</dt>
                <dd data-testid="lock-premium">${w.t('quote.locked.premium.none')}</dd>
              </div>`
            : nothing}
        <div part="row row-partner-fee" class="row">
          <dt data-testid="partner-fee-label">${w.t('quote.fee.partner', { percent: terms(rows.partner) })}</dt>
          <dd data-testid="partner-fee">−\u00a0${money(rows.partner.amount)}</dd>
        </div>
        <div part="row row-final-rate" class="row">
          <dt>${w.t('quote.rate.final')}</dt>
          <dd data-testid="final-rate">${rate(q.finalExchangeRate)}</dd>
        </div>
        <div part="row row-final-amount" class="row total">
          <dt>${w.t('quote.receive.label')}</dt>
          <dd part="final-amount" data-testid="final-amount">${formatAmount(q.finalTargetAmount, q.targetCurrency, locale)}</dd>
        </div>
      </dl>
    `;
}

/** "Pay by PIX · receive on Base" (buy), "Send on Base · paid out by PIX" (sell). */
export function routeText(w: Words, q: Quote, direction: Direction): string {
  const params = { rail: q.rail, blockchain: blockchainNames[q.blockchain] ?? q.blockchain };
  return direction === 'buy' ? w.t('quote.route.buy', params) : w.t('quote.route.sell', params);
}

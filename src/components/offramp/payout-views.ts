// The sub-templates of <ramp-offramp>: the amounts to confirm, the add-account button, an alert with its way out, and the payout's panels.
import { html, nothing, type TemplateResult } from 'lit';
import type { BankAccount } from '../../contract/bank-accounts';
import type { Quote } from '../../contract/exchange-rates';
import type { Transaction } from '../../contract/transactions';
import { formatInstant, type I18nController } from '../../i18n';
import { formatAmount } from '../quote/amount';
import { supportReference } from '../support-reference';
import { renderTransactionAlert } from '../transaction/alert-view';
import type { PaymentLock } from '../transaction/lock';
import type { TransactionAlert } from '../transaction/problems';
import { isTerminal, type TransactionStatus } from '../transaction/steps';
import { identifierText } from './format';
import type { PayoutSource } from './payout';

/** An amount in the user's format; what is not a plain decimal with a currency is shown as it came. */
export function money(i18n: I18nController, amount: string | undefined, currency: string | undefined): string {
  if (!amount || !currency || !/^\d+(\.\d+)?$/.test(amount)) return amount ?? '';
  return formatAmount(amount, currency as Quote['sourceCurrency'], i18n.locale);
}

/** What the user sends and receives, under the lock's countdown; once the lock expired, the way to a new quote. */
export function renderSummary(
  i18n: I18nController,
  source: PayoutSource,
  quote: Quote | undefined,
  lock: Pick<PaymentLock, 'expired' | 'renderExpired' | 'renderCountdown'>,
): TemplateResult | typeof nothing {
  if (source.kind === 'missing') return html`<div class="notice" data-tone="danger" data-testid="missing">${i18n.t('offramp.missing')}</div>`;
  if (source.kind === 'locked' && !quote) return nothing;
  if (lock.expired) return lock.renderExpired();
  return html`${lock.renderCountdown()}
    <dl part="summary" class="amounts" data-testid="summary">
      <dt>${i18n.t('offramp.send')}</dt>
      <dd class="big" data-testid="summary-send">
        ${quote ? money(i18n, quote.sourceAmount, quote.sourceCurrency) : source.kind === 'unlocked' ? money(i18n, source.amount, source.stablecoin) : ''}
      </dd>
      ${quote
        ? html`<dt>${i18n.t('offramp.receive')}</dt>
            <dd data-testid="summary-receive">${money(i18n, quote.finalTargetAmount, quote.targetCurrency)}</dd>`
        : nothing}
    </dl>
  `;
}

/** The button that opens (and closes) the add-account form. */
export function renderAddAccount(i18n: I18nController, adding: boolean, toggle: () => void): TemplateResult {
  return html`
    <div class="actions start">
      <button part="add-account" type="button" data-testid="add-account" aria-expanded=${adding ? 'true' : 'false'} aria-controls="bank-form" @click=${toggle}>
        ${i18n.t('offramp.accounts.add')}
      </button>
    </div>
  `;
}

/** A problem with its way out: a new quote (`requote`) or the same request again (`retry`). */
export function renderAlert(
  i18n: I18nController,
  alert: TransactionAlert,
  way: { retry: () => void; requote: (reason: string) => void },
  testid: string,
): TemplateResult {
  return renderTransactionAlert(i18n, alert, way, testid);
}

/** What the payout's panels take from the element besides the transaction. */
export interface PayoutView {
  /** The account paid, as chosen. */
  account: BankAccount | undefined;
  stepper: TemplateResult;
  trouble: TemplateResult | typeof nothing;
  keyTypeName: (keyType: string) => string;
  again: () => void;
}

/** Which panel a status shows: a new one replaces what had focus. */
export const panelOf = (s: TransactionStatus): string =>
  s === 'SUCCESS' ? 'success' : s === 'REFUNDING' || s === 'REFUNDED' || s === 'FAILED' ? s : 'progress';

/** The payout's panel for its status: on its way (with the settlement estimate), paid, or failed and refunded. */
export function renderPayout(i18n: I18nController, tx: Transaction, view: PayoutView): TemplateResult {
  const status = tx.state.status;
  const { account, stepper, trouble } = view;
  const coin = tx.quote?.sourceCurrency ?? String(tx.request.sourceCurrency ?? '');
  const fiat = tx.quote?.targetCurrency ?? account?.currency ?? String(tx.request.targetCurrency ?? '');
  const settlement =
    tx.state.estimatedSettlementAt && account?.rail !== 'PIX' && !isTerminal(status)
      ? html`<p part="settlement" data-testid="settlement">
          ${i18n.t('offramp.settlement', { time: formatInstant(tx.state.estimatedSettlementAt, i18n.locale) })}
        </p>`
      : nothing;
  const amounts = html`
    <dl part="summary" class="amounts" data-testid="amounts">
      <dt>${i18n.t('offramp.send')}</dt>
      <dd data-testid="amount-send">${money(i18n, tx.quote?.sourceAmount ?? String(tx.request.amount ?? ''), coin)}</dd>
      ${tx.quote
        ? html`<dt>${status === 'SUCCESS' ? i18n.t('offramp.success.paid') : i18n.t('offramp.receive')}</dt>
            <dd class="big" data-testid="amount-receive">${money(i18n, tx.state.receipt?.targetAmount ?? tx.quote.finalTargetAmount, fiat)}</dd>`
        : nothing}
      ${account
        ? html`<dt>${i18n.t('offramp.to')}</dt>
            <dd>${account.name} · ${identifierText(account, view.keyTypeName)}</dd>`
        : nothing}
    </dl>
    ${supportReference(i18n.t('offramp.reference'), tx.id, 'reference')}
  `;
  const again = html`<div class="actions start">
    <button part="again" type="button" data-testid="again" @click=${view.again}>${i18n.t('offramp.again')}</button>
  </div>`;
  if (status === 'SUCCESS') {
    return html`
      <div part="success" class="panel notice" data-tone="success" data-testid="success">
        <h3 id="phase-title" tabindex="-1">${i18n.t('offramp.success.title')}</h3>
        ${amounts} ${renderExplorerLink(i18n, tx)}
      </div>
      ${stepper} ${again}
    `;
  }
  if (status === 'REFUNDING' || status === 'REFUNDED' || status === 'FAILED') {
    const title = status === 'REFUNDED' ? 'offramp.refunded.title' : status === 'REFUNDING' ? 'offramp.refunding.title' : 'offramp.failed.title';
    const body = status === 'REFUNDED' ? 'offramp.refunded.body' : status === 'REFUNDING' ? 'offramp.refunding.body' : 'offramp.failed.body';
    return html`
      <div part="refund" class="panel notice" data-tone="danger" data-testid=${status === 'REFUNDED' ? 'refunded' : status === 'REFUNDING' ? 'refunding' : 'failed'}>
        <h3 id="phase-title" tabindex="-1">${i18n.t(title)}</h3>
        <p>${i18n.t(body, { coin })}</p>
        ${amounts}
      </div>
      ${stepper} ${trouble} ${isTerminal(status) ? again : nothing}
    `;
  }
  return html`
    <div class="panel" data-testid="progress">
      <h3 id="phase-title" tabindex="-1">${i18n.t('offramp.progress.title')}</h3>
      <p>${i18n.t('offramp.progress.body', { coin })}</p>
      ${amounts} ${settlement} ${stepper} ${trouble}
    </div>
  `;
}

function renderExplorerLink(i18n: I18nController, tx: Transaction): TemplateResult | typeof nothing {
  const url = tx.state.receipt?.blockExplorerUrl;
  // Only web links: a `javascript:` URL from a compromised upstream must not become a clickable link.
  if (!url || !/^https?:\/\//i.test(url)) return nothing;
  return html`<a part="explorer-link" class="explorer" href=${url} target="_blank" rel="noopener noreferrer" data-testid="explorer-link">
    ${i18n.t('offramp.explorer')}<span class="visually-hidden"> ${i18n.t('tx.newTab')}</span>
  </a>`;
}

// The sub-templates of <ramp-pix-checkout> around a payment: amounts, the PIX QR and code, bank-transfer details, countdown, receipt, failure.
import { html, nothing, svg, type TemplateResult } from 'lit';
import { blockchainName } from '../../contract/blockchains';
import type { Quote } from '../../contract/exchange-rates';
import type { Transaction } from '../../contract/transactions';
import type { I18nController } from '../../i18n';
import { formatAmount } from '../quote/amount';
import { formatClockTime, formatCountdown } from '../quote/countdown';
import { supportReference } from '../support-reference';
import { bankTransferOf, pixPaymentOf, type BankTransferPayment } from './payment-window';
import { QUIET_ZONE, type QrSymbol } from './qr';

/** An amount in the user's format; what is not a plain decimal with a currency is shown as it came. */
export function money(locale: I18nController['locale'], amount: string | undefined, currency: string | undefined): string {
  if (!amount || !currency || !/^\d+(\.\d+)?$/.test(amount)) return amount ?? '';
  return formatAmount(amount, currency as Quote['sourceCurrency'], locale);
}

/** What the transaction's panels take from the element besides the transaction. */
export interface TransactionView {
  stepper: TemplateResult;
  trouble: TemplateResult | typeof nothing;
  alert: TemplateResult | typeof nothing;
  /** Paid by a SEPA or SWIFT transfer, not by PIX. */
  byBank: boolean;
  /** The payment window closed on this device's clock; else its countdown. */
  windowClosed: boolean;
  countdown: TemplateResult | typeof nothing;
  qr: (brCode: string) => QrSymbol;
  copied: (key: string) => boolean;
  copyCode: () => void;
  copyDetail: (key: string, value: string) => void;
  /** Sandbox: the "Simulate payment" button, and whether its call is under way. */
  sandbox: boolean;
  paying: boolean;
  simulate: () => void;
  /** Paid with a locked quote: a failure offers a new quote (`requote`) rather than a fresh start (`restart`). */
  locked: boolean;
  requote: (reason: string) => void;
  restart: () => void;
}

/** The transaction's panel for its status: the payment, the money on its way, the receipt or the failure. */
export function renderTransaction(i18n: I18nController, tx: Transaction, view: TransactionView): TemplateResult {
  const status = tx.state.status;
  const coin = tx.quote?.targetCurrency ?? String(tx.request.targetCurrency ?? '');
  if (status === 'AWAITING_FUNDS') return renderPayment(i18n, tx, view);
  if (status === 'SUCCESS') return renderSuccess(i18n, tx, coin, view.stepper);
  if (status === 'FAILED') return renderFailed(i18n, tx, view.stepper, view);
  return html`
    <div class="panel" data-testid="progress">
      <h3 id="phase-title" tabindex="-1">${i18n.t('checkout.progress.title')}</h3>
      <p>${i18n.t('checkout.progress.body', { coin })}</p>
      ${renderAmounts(i18n, tx)} ${view.stepper} ${view.trouble}
    </div>
  `;
}

function renderPayment(i18n: I18nController, tx: Transaction, view: TransactionView): TemplateResult {
  const payment = pixPaymentOf(tx.state.payment);
  const transfer = bankTransferOf(tx.state.payment);
  const locale = i18n.locale;
  const amount = tx.quote ? money(locale, tx.quote.sourceAmount, tx.quote.sourceCurrency) : money(locale, String(tx.request.sourceAmount ?? ''), 'BRL');
  return html`
    <div part="payment" class="panel" data-testid="payment" data-rail=${String(tx.state.payment?.rail ?? '')}>
      <h3 id="phase-title" tabindex="-1">${view.byBank ? i18n.t('checkout.payment.title.bank', { amount }) : i18n.t('checkout.payment.title', { amount })}</h3>
      ${view.alert}
      ${view.windowClosed
        ? html`<div class="notice" data-testid="window-closed">${i18n.t('checkout.windowClosed')}</div>`
        : transfer
          ? renderBankTransfer(i18n, transfer, { copied: view.copied, onCopy: view.copyDetail }, view.countdown)
          : payment
            ? renderPixCode(i18n, { brCode: payment.brCode, qr: view.qr(payment.brCode), amount, copied: view.copied('brcode'), onCopy: view.copyCode }, view.countdown)
            : html`<p class="busy"><span class="spinner" aria-hidden="true"></span>${view.byBank ? i18n.t('checkout.preparing.bank') : i18n.t('checkout.preparing')}</p>`}
      ${renderAmounts(i18n, tx)} ${view.stepper} ${view.trouble}
      ${view.sandbox && !view.windowClosed ? renderSimulate(i18n, view.paying, view.simulate) : nothing}
    </div>
  `;
}

/** What the transaction pays and brings, and on which chain. */
export function renderAmounts(i18n: I18nController, tx: Transaction): TemplateResult {
  const quote = tx.quote;
  const locale = i18n.locale;
  const pay = quote ? money(locale, quote.sourceAmount, quote.sourceCurrency) : money(locale, String(tx.request.sourceAmount ?? ''), 'BRL');
  const receive = quote ? money(locale, quote.finalTargetAmount, quote.targetCurrency) : '';
  return html`
    <dl part="summary" class="amounts" data-testid="amounts">
      <dt>${i18n.t('checkout.amountToPay')}</dt>
      <dd class="big" data-testid="amount-to-pay">${pay}</dd>
      ${receive
        ? html`<dt>${i18n.t('checkout.receive')}</dt>
            <dd data-testid="amount-to-receive">${receive}</dd>`
        : nothing}
      ${quote?.blockchain
        ? html`<dt>${i18n.t('checkout.network')}</dt>
            <dd>${blockchainName(quote.blockchain)}</dd>`
        : nothing}
    </dl>
  `;
}

/** The QR code and the same code to copy and paste. */
function renderPixCode(
  i18n: I18nController,
  pix: { brCode: string; qr: QrSymbol; amount: string; copied: boolean; onCopy: () => void },
  countdown: TemplateResult | typeof nothing,
): TemplateResult {
  return html`
    <p class="muted">${i18n.t('checkout.payment.intro')}</p>
    <!-- The QR first for a desktop (scanned with a phone); the styles put the code to copy first on a touch screen. -->
    <div class="pay-ways">
      ${renderQr(i18n, pix.qr, pix.amount)}
      <div class="field code-field">
        <label part="label" for="brcode">${i18n.t('checkout.code.label')}</label>
        <div class="code-row">
          <textarea id="brcode" part="code" class="code" readonly rows="3" spellcheck="false" data-testid="brcode" .value=${pix.brCode}></textarea>
          <button part="copy" type="button" data-testid="copy" @click=${pix.onCopy}>
            ${pix.copied ? i18n.t('checkout.copied') : i18n.t('checkout.copy')}
          </button>
        </div>
      </div>
    </div>
    ${countdown}
  `;
}

/** One path for the dark modules, a white ground with the quiet zone: crisp at any size, readable in dark mode. */
function renderQr(i18n: I18nController, symbol: QrSymbol, amount: string): TemplateResult {
  const { size, path } = symbol;
  const side = size + QUIET_ZONE * 2;
  return html`
    <figure part="qr" class="qr" data-testid="qr">
      <svg viewBox="0 0 ${side} ${side}" role="img" aria-label=${i18n.t('checkout.qr.label', { amount })} xmlns="http://www.w3.org/2000/svg">
        ${svg`<rect width=${side} height=${side} fill="#ffffff"></rect>
          <path transform="translate(${QUIET_ZONE} ${QUIET_ZONE})" d=${path} fill="#000000"></path>`}
      </svg>
    </figure>
  `;
}

/** SEPA/SWIFT: the details to type into the bank's transfer form, each with its copy button, and the deadline. */
function renderBankTransfer(
  i18n: I18nController,
  transfer: BankTransferPayment,
  copy: { copied: (key: string) => boolean; onCopy: (key: string, value: string) => void },
  countdown: TemplateResult | typeof nothing,
): TemplateResult {
  const locale = i18n.locale;
  const amount = transfer.amount && transfer.currency ? money(locale, transfer.amount, transfer.currency) : transfer.amount;
  const details: [key: string, label: string, value: string, shown?: string][] = [
    ['beneficiary', i18n.t('checkout.bank.beneficiary'), transfer.beneficiary],
    ['iban', transfer.rail === 'SWIFT' && !/^[A-Z]{2}\d{2}/.test(transfer.iban) ? i18n.t('checkout.bank.account') : i18n.t('checkout.bank.iban'), transfer.iban],
    ['bic', i18n.t('checkout.bank.bic'), transfer.bic],
    ['reference', i18n.t('checkout.bank.reference'), transfer.reference],
    // The amount to copy is the plain decimal a bank form takes; the one shown is in the user's format.
    ['amount', i18n.t('checkout.bank.amount'), transfer.amount, amount],
  ];
  return html`
    <p class="muted">${i18n.t('checkout.bank.intro', { rail: transfer.rail })}</p>
    <dl part="bank-details" class="bank-details" data-testid="bank-details">
      ${details
        .filter(([, , value]) => value)
        .map(
          ([key, label, value, shown]) => html`
            <div class="bank-detail" data-detail=${key}>
              <dt id="detail-${key}">${label}</dt>
              <dd>
                <span class="detail-value" data-testid="detail-${key}">${shown ?? value}</span>
                <button
                  part="copy"
                  type="button"
                  class="copy-detail"
                  data-testid="copy-${key}"
                  aria-describedby="detail-${key}"
                  @click=${() => copy.onCopy(key, value)}
                >
                  ${copy.copied(key) ? i18n.t('checkout.copied.detail') : i18n.t('checkout.copy.detail')}
                </button>
              </dd>
            </div>
          `,
        )}
      ${transfer.expiresAt
        ? html`<div class="bank-detail" data-detail="deadline">
            <dt>${i18n.t('checkout.bank.deadline')}</dt>
            <dd data-testid="detail-deadline">${formatClockTime(transfer.expiresAt, locale)}</dd>
          </div>`
        : nothing}
    </dl>
    <p class="hint">${i18n.t('checkout.bank.referenceHint')}</p>
    ${countdown}
  `;
}

/** The time left to pay. */
export function renderCountdown(i18n: I18nController, seconds: number): TemplateResult {
  return html`
    <div part="countdown" class="countdown" data-testid="countdown" ?data-urgent=${seconds <= 60}>
      <span id="countdown-label">${i18n.t('checkout.countdown.label')}</span>
      <time role="timer" aria-labelledby="countdown-label" datetime="PT${seconds}S" data-testid="countdown-time">
        ${formatCountdown(seconds, i18n.locale)}
      </time>
    </div>
  `;
}

/** Sandbox: pays the charge as a bank app would. */
function renderSimulate(i18n: I18nController, paying: boolean, onSimulate: () => void): TemplateResult {
  return html`
    <div class="sandbox">
      <button
        part="simulate"
        type="button"
        data-testid="simulate-payment"
        aria-describedby="simulate-hint"
        aria-disabled=${paying ? 'true' : 'false'}
        @click=${onSimulate}
      >
        ${paying ? i18n.t('checkout.simulating') : i18n.t('checkout.simulate')}
      </button>
      <p id="simulate-hint" class="hint">${i18n.t('checkout.simulate.hint')}</p>
    </div>
  `;
}

/** The receipt: what arrived, the reference for support and the block-explorer link. */
function renderSuccess(i18n: I18nController, tx: Transaction, coin: string, stepper: TemplateResult): TemplateResult {
  const receipt = tx.state.receipt;
  return html`
    <div part="success" class="panel notice" data-tone="success" data-testid="success">
      <h3 id="phase-title" tabindex="-1">${i18n.t('checkout.success.title', { coin })}</h3>
      <dl class="amounts">
        <dt>${i18n.t('checkout.success.received')}</dt>
        <dd class="big" data-testid="received">${money(i18n.locale, receipt?.targetAmount ?? tx.quote?.finalTargetAmount, coin)}</dd>
      </dl>
      ${supportReference(i18n.t('checkout.reference'), tx.id, 'reference')}
      ${receipt?.blockExplorerUrl ? renderExplorerLink(i18n, receipt.blockExplorerUrl) : nothing}
    </div>
    ${stepper}
  `;
}

function renderExplorerLink(i18n: I18nController, url: string): TemplateResult | typeof nothing {
  // Only web links: a `javascript:` URL from a compromised upstream must not become a clickable link.
  if (!/^https?:\/\//i.test(url)) return nothing;
  return html`
    <a part="explorer-link" class="explorer" href=${url} target="_blank" rel="noopener noreferrer" data-testid="explorer-link">
      ${i18n.t('checkout.success.explorer')}<span class="visually-hidden"> ${i18n.t('tx.newTab')}</span>
    </a>
  `;
}

/** A failed payment, with its way out: a new quote when it was locked (`requote`), else a fresh start (`restart`). */
function renderFailed(
  i18n: I18nController,
  tx: Transaction,
  stepper: TemplateResult,
  way: { locked: boolean; requote: (reason: string) => void; restart: () => void },
): TemplateResult {
  const error = tx.state.error;
  const expired = error?.code === 'EXPIRED';
  return html`
    <div part="failed" class="panel notice" data-tone="danger" data-testid="failed" data-code=${error?.code ?? 'UNKNOWN'}>
      <h3 id="phase-title" tabindex="-1">${i18n.t('checkout.failed.title')}</h3>
      <p>${expired ? i18n.t('checkout.failed.EXPIRED') : i18n.t('checkout.failed.other')}</p>
      <div class="actions start">
        ${way.locked
          ? html`<button part="restart" class="primary" type="button" data-testid="restart" @click=${() => way.requote(error?.code ?? 'FAILED')}>
              ${i18n.t('tx.requote')}
            </button>`
          : html`<button part="restart" class="primary" type="button" data-testid="restart" @click=${way.restart}>${i18n.t('checkout.restart')}</button>`}
      </div>
    </div>
    ${stepper}
  `;
}

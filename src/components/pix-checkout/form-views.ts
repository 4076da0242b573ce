// The sub-templates of <ramp-pix-checkout> before the payment exists: the form with the known amounts, and the alert with its way out.
import { html, nothing, type TemplateResult } from 'lit';
import type { Quote } from '../../contract/exchange-rates';
import type { I18nController } from '../../i18n';
import { renderTransactionAlert } from '../transaction/alert-view';
import type { TransactionAlert } from '../transaction/problems';
import type { PaymentLock } from '../transaction/lock';
import type { CheckoutSource } from './model';
import { money } from './payment-views';

/** What the form takes from the element. */
export interface FormView {
  source: CheckoutSource;
  /** The quote we were given, when it is the one we pay with. */
  lockedQuote: Quote | undefined;
  lock: Pick<PaymentLock, 'expired' | 'renderExpired' | 'renderCountdown'>;
  /** The create call is under way. */
  busy: boolean;
  byBank: boolean;
  alert: TemplateResult | typeof nothing;
  purpose: TemplateResult;
  submit: (event: SubmitEvent) => void;
}

/** The purpose form that creates the payment; once the locked quote expired, it gives way to a re-quote. */
export function renderForm(i18n: I18nController, view: FormView): TemplateResult {
  const { source, lock, busy } = view;
  return html`
    <form part="form" novalidate aria-busy=${busy ? 'true' : 'false'} @submit=${view.submit}>
      <p class="muted">${view.byBank ? i18n.t('checkout.intro.bank') : i18n.t('checkout.intro')}</p>
      ${view.alert}
      ${source.kind === 'missing'
        ? html`<div class="notice" data-tone="danger" data-testid="missing">${i18n.t('checkout.missing')}</div>`
        : lock.expired
          ? lock.renderExpired()
          : renderSummary(i18n, source, view.lockedQuote, lock.renderCountdown())}
      ${view.purpose}
      ${lock.expired
        ? nothing
        : html`<div class="actions">
            <button
              part="submit"
              class="primary"
              type="submit"
              data-testid="create-payment"
              aria-disabled=${busy || source.kind === 'missing' ? 'true' : 'false'}
            >
              ${busy ? i18n.t('checkout.creating') : i18n.t('checkout.create')}
            </button>
          </div>`}
    </form>
  `;
}

/** Known amounts before creation: all of them with a locked quote we were given (`quote`), the BRL amount when unlocked. */
function renderSummary(
  i18n: I18nController,
  source: Exclude<CheckoutSource, { kind: 'missing' }>,
  quote: Quote | undefined,
  countdown: TemplateResult | typeof nothing,
): TemplateResult | typeof nothing {
  if (source.kind === 'locked' && !quote) return nothing;
  const locale = i18n.locale;
  const pay = quote ? money(locale, quote.sourceAmount, quote.sourceCurrency) : money(locale, source.kind === 'unlocked' ? source.sourceAmount : '', 'BRL');
  const receive = quote
    ? money(locale, quote.finalTargetAmount, quote.targetCurrency)
    : i18n.t('checkout.receive.unlocked', { coin: source.kind === 'unlocked' ? source.targetCurrency : '' });
  return html`
    <dl part="summary" class="amounts" data-testid="summary">
      <dt>${i18n.t('checkout.pay')}</dt>
      <dd class="big" data-testid="summary-pay">${pay}</dd>
      <dt>${i18n.t('checkout.receive')}</dt>
      <dd data-testid="summary-receive">${receive}</dd>
    </dl>
    ${countdown}
  `;
}

/** A problem the form or the payment ran into, with a new quote or a retry when either can help. */
export function renderAlert(
  i18n: I18nController,
  alert: TransactionAlert | undefined,
  way: { requote: (reason: string) => void; retry: () => void },
): TemplateResult | typeof nothing {
  if (!alert) return nothing;
  return renderTransactionAlert(i18n, alert, way);
}

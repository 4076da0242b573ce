// A transaction problem as the off-ramp and the checkout show it: the sentence, with a new quote or a retry when either can help.
import { html, nothing, type TemplateResult } from 'lit';
import type { I18nController } from '../../i18n';
import { alertText } from './alert-text';
import { isRetryable, type TransactionAlert } from './problems';

export function renderTransactionAlert(
  i18n: I18nController,
  alert: TransactionAlert,
  way: { retry: () => void; requote: (reason: string) => void },
  testid = 'alert',
): TemplateResult {
  return html`
    <div part="alert" class="alert" role="alert" data-testid=${testid} data-kind=${alert.kind}>
      <p>${alertText(alert, i18n)}</p>
      ${alert.kind === 'requote'
        ? html`<button part="alert-action" type="button" data-testid="requote" @click=${() => way.requote(alert.code)}>${i18n.t('tx.requote')}</button>`
        : isRetryable(alert)
          ? html`<button part="alert-action" type="button" data-testid="retry" @click=${way.retry}>${i18n.t('tx.alert.retry')}</button>`
          : nothing}
    </div>
  `;
}

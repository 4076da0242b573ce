// The withdrawal's steps: the form (chain, coin, amount, address, each problem on its field), the confirmation that repeats
// all four before anything is sent, and the sent transfer with its live status.
import { html, nothing, type TemplateResult } from 'lit';
import { BLOCKCHAINS, blockchainName, type Blockchain } from '../../contract/blockchains';
import { STABLECOINS, type Stablecoin } from '../../contract/currencies';
import { formatAmount, formatForInput } from '../quote/amount';
import { summarize } from '../history/summary';
import { alertText } from '../transaction/alert-text';
import type { TransactionAlert } from '../transaction/problems';
import { familyOf } from './address';
import { balanceOf, type AmountProblem, type ToProblem } from './withdraw-model';
import type { WalletPanel } from './wallet-panel';

/** The amount's problem in the reader's words (the example amount in the reader's own format). */
function amountMessage(p: WalletPanel, problem: AmountProblem, available: string): string {
  const t = p.i18n.t.bind(p.i18n);
  switch (problem) {
    case 'balance':
      return t('withdraw.error.amount.balance', { amount: available });
    case 'invalid':
      return t('withdraw.error.amount.invalid', { example: formatForInput('10.50', p.i18n.locale) });
    case 'empty':
      return t('withdraw.error.amount.empty');
    case 'zero':
      return t('withdraw.error.amount.zero');
    case 'tooManyDecimals':
      return t('withdraw.error.amount.tooManyDecimals');
    case 'tooLarge':
      return t('withdraw.error.amount.tooLarge');
  }
}

function toMessage(p: WalletPanel, problem: ToProblem, blockchain: string): string {
  const t = p.i18n.t.bind(p.i18n);
  switch (problem) {
    case 'required':
      return t('withdraw.error.to.required');
    case 'format':
      return t('withdraw.error.to.format', { blockchain });
    case 'checksum':
      return t('withdraw.error.to.checksum');
    case 'own':
      return t('withdraw.error.to.own');
  }
}

interface TextField {
  id: string;
  label: string;
  /** An address: monospace, neither spell-checked nor capitalised. */
  address?: boolean;
  inputmode?: string;
  value: string;
  hint: string;
  error: string | undefined;
  onInput: (value: string) => void;
}

/** A text field with its hint and, when it has one, its error, both named by the input. */
function textField(f: TextField): TemplateResult {
  return html`<div class="field">
    <label for=${f.id}>${f.label}</label>
    <input
      id=${f.id}
      class=${f.address ? 'mono' : nothing}
      inputmode=${f.inputmode ?? nothing}
      autocomplete="off"
      spellcheck=${f.address ? 'false' : nothing}
      autocapitalize=${f.address ? 'off' : nothing}
      .value=${f.value}
      aria-invalid=${f.error ? 'true' : 'false'}
      aria-describedby=${f.error ? `${f.id}-hint ${f.id}-error` : `${f.id}-hint`}
      @input=${(e: Event) => f.onInput((e.target as HTMLInputElement).value)}
    />
    <p id="${f.id}-hint" class="hint">${f.hint}</p>
    ${f.error ? html`<p id="${f.id}-error" class="error">${f.error}</p>` : nothing}
  </div>`;
}

export function renderForm(p: WalletPanel): TemplateResult {
  const t = p.i18n.t.bind(p.i18n);
  const d = p.draft;
  const wallets = p.customer?.wallets ?? [];
  if (!d) return html`<p>${t('wallet.empty')}</p>`;
  const chains = BLOCKCHAINS.filter((b) => wallets.some((w) => w.blockchain === b));
  const name = blockchainName(d.blockchain);
  const available = formatAmount(balanceOf(wallets, d.blockchain, d.coin), d.coin, p.i18n.locale);
  const amountError = p.problems.amount && amountMessage(p, p.problems.amount, available);
  const toError = p.problems.to && toMessage(p, p.problems.to, name);
  return html`<form class="withdraw" part="withdraw" novalidate @submit=${(e: Event) => (e.preventDefault(), void p.review())}>
    <h2 id="wallet-step-title" tabindex="-1">${t('withdraw.title')}</h2>
    <div class="field">
      <label for="withdraw-chain">${t('withdraw.chain')}</label>
      <select id="withdraw-chain" @change=${(e: Event) => p.edit({ blockchain: (e.target as HTMLSelectElement).value as Blockchain })}>
        ${chains.map((b) => html`<option value=${b} ?selected=${b === d.blockchain}>${blockchainName(b)}</option>`)}
      </select>
    </div>
    <div class="field">
      <label for="withdraw-coin">${t('withdraw.coin')}</label>
      <select id="withdraw-coin" @change=${(e: Event) => p.edit({ coin: (e.target as HTMLSelectElement).value as Stablecoin })}>
        ${STABLECOINS.map((c) => html`<option value=${c} ?selected=${c === d.coin}>${c}</option>`)}
      </select>
    </div>
    ${textField({
      id: 'withdraw-amount',
      label: `${t('withdraw.amount')} (${d.coin})`,
      inputmode: 'decimal',
      value: d.amount,
      hint: t('withdraw.available', { amount: available }),
      error: amountError,
      onInput: (amount) => p.edit({ amount }),
    })}
    ${textField({
      id: 'withdraw-to',
      label: t('withdraw.to'),
      address: true,
      value: d.to,
      hint: familyOf(d.blockchain) === 'TRON' ? t('withdraw.to.hint.TRON') : t('withdraw.to.hint.EVM', { blockchain: name }),
      error: toError,
      onInput: (to) => p.edit({ to }),
    })}
    <div class="actions start">
      <button type="submit" class="primary" data-action="review">${t('withdraw.review')}</button>
      <button type="button" data-action="cancel" @click=${() => void p.go('overview', '[data-action="withdraw"]')}>${t('withdraw.cancel')}</button>
    </div>
  </form>`;
}

function alertBlock(p: WalletPanel, alert: TransactionAlert | undefined): TemplateResult | typeof nothing {
  if (!alert) return nothing;
  const t = p.i18n.t.bind(p.i18n);
  const text =
    alert.kind === 'balance'
      ? t('withdraw.balance', { asset: alert.asset ?? p.request?.currency ?? '', blockchain: blockchainName(alert.blockchain ?? p.request?.blockchain ?? '') })
      : alertText(alert, p.i18n);
  return html`<div id="withdraw-alert" class="alert" role="alert" tabindex="-1" data-kind=${alert.kind}>${text}</div>`;
}

export function renderConfirm(p: WalletPanel): TemplateResult {
  const t = p.i18n.t.bind(p.i18n);
  const r = p.request;
  if (!r) return html``;
  const amount = formatAmount(r.amount, r.currency, p.i18n.locale);
  return html`<section class="confirm" part="withdraw-confirm" aria-labelledby="wallet-step-title">
    <h2 id="wallet-step-title" tabindex="-1">${t('withdraw.confirm.title')}</h2>
    <p>${t('withdraw.confirm.intro')}</p>
    <dl class="facts">
      <div><dt>${t('withdraw.chain')}</dt><dd data-confirm="blockchain">${blockchainName(r.blockchain ?? '')}</dd></div>
      <div><dt>${t('withdraw.coin')}</dt><dd data-confirm="coin">${r.currency}</dd></div>
      <div><dt>${t('withdraw.amount')}</dt><dd data-confirm="amount">${amount}</dd></div>
      <div><dt>${t('withdraw.to')}</dt><dd data-confirm="to" class="mono">${r.to}</dd></div>
    </dl>
    ${alertBlock(p, p.alert)}
    <div class="actions start">
      <button type="button" class="primary" data-action="send" aria-disabled=${p.sending ? 'true' : 'false'} @click=${() => void p.send()}>
        ${p.sending ? t('withdraw.sending') : t('withdraw.confirm.send')}
      </button>
      <button type="button" data-action="edit" ?disabled=${p.sending} @click=${() => void p.go('form', '#withdraw-amount')}>${t('withdraw.confirm.edit')}</button>
    </div>
  </section>`;
}

export function renderSent(p: WalletPanel): TemplateResult {
  const t = p.i18n.t.bind(p.i18n);
  const sent = p.sent;
  if (!sent) return html``;
  const s = summarize(sent);
  return html`<section class="sent" part="withdraw-sent" aria-labelledby="wallet-step-title" data-transaction=${sent.id}>
    <h2 id="wallet-step-title" tabindex="-1">${t('withdraw.sent.title')}</h2>
    <dl class="facts">
      <div><dt>${t('history.detail.status')}</dt><dd role="status"><span class="badge" data-status=${sent.state.status}>${t(s.statusKey)}</span></dd></div>
      <div><dt>${t('history.detail.sent')}</dt><dd>${s.source ? formatAmount(s.source.amount, s.source.currency, p.i18n.locale) : '—'}</dd></div>
      <div><dt>${t('history.detail.destination')}</dt><dd class="mono">${s.to ?? '—'}</dd></div>
    </dl>
    <div class="actions start">
      <button type="button" class="primary" data-action="history" @click=${() => p.showHistory()}>${t('withdraw.sent.history')}</button>
      <button type="button" data-action="wallet" @click=${() => void p.load()}>${t('widget.tab.wallet')}</button>
    </div>
  </section>`;
}

// The widget's history: one row per transaction (direction, amounts, rail or chain, status, when), and a row's detail in
// place of the list, with a Back button that returns focus to the row it came from.
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { BffClient } from '../../client/bff-client';
import type { Transaction } from '../../contract/transactions';
import { blockchainName } from '../../contract/blockchains';
import { formatInstant, type I18nController } from '../../i18n';
import { formatAmount } from '../quote/amount';
import { paymentRows, safeHttpUrl, summarize, type Money, type Summary } from './summary';

export interface PanelHost extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export class HistoryPanel implements ReactiveController {
  transactions: readonly Transaction[] | undefined;
  selected: Transaction | undefined;
  #generation = 0;

  constructor(
    private readonly host: PanelHost,
    private readonly i18n: I18nController,
    private readonly client: () => BffClient,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.#generation++;
  }

  /** The newest transactions; a failed read shows an empty list rather than an endless "loading". */
  async load(): Promise<void> {
    const generation = ++this.#generation;
    this.transactions = undefined;
    this.selected = undefined;
    this.host.requestUpdate();
    let list: readonly Transaction[];
    try {
      list = (await this.client().listTransactions({ size: 20 })).data;
    } catch {
      list = [];
    }
    if (generation !== this.#generation) return;
    this.transactions = list;
    this.host.requestUpdate();
  }

  private async open(t: Transaction): Promise<void> {
    this.selected = t;
    this.host.requestUpdate();
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>('#history-detail-title')?.focus();
  }

  private async back(): Promise<void> {
    const from = this.selected?.id;
    this.selected = undefined;
    this.host.requestUpdate();
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>(`[data-open="${from}"]`)?.focus();
  }

  private money(m: Money | undefined): string {
    return m ? formatAmount(m.amount, m.currency, this.i18n.locale) : '—';
  }

  private route(s: Summary): string {
    return [s.rail, blockchainName(s.blockchain)].filter(Boolean).join(' · ');
  }

  private amounts(s: Summary): TemplateResult {
    const to = s.target ? this.money(s.target) : shortAddress(s.to);
    return html`<span class="amount">${this.money(s.source)}</span>
      <span aria-hidden="true">→</span><span class="visually-hidden"> ${this.i18n.t('history.to')} </span>
      <span class="amount">${to}</span>`;
  }

  render(): TemplateResult {
    const t = this.i18n.t.bind(this.i18n);
    if (this.selected) return this.renderDetail(this.selected);
    if (!this.transactions) return html`<p role="status">${t('tx.history.loading')}</p>`;
    if (!this.transactions.length) return html`<p>${t('tx.history.empty')}</p>`;
    return html`<ul class="history" part="history">
      ${this.transactions.map((tx) => {
        const s = summarize(tx);
        return html`<li data-transaction=${tx.id}>
          <button type="button" class="row" data-open=${tx.id} @click=${() => void this.open(tx)}>
            <span class="row-head"><strong>${t(s.directionKey)}</strong> <span class="badge" data-status=${tx.state.status}>${t(s.statusKey)}</span></span>
            <span class="row-amounts">${this.amounts(s)}</span>
            <span class="muted">${this.route(s)} · ${formatInstant(tx.createdAt, this.i18n.locale)}</span>
          </button>
        </li>`;
      })}
    </ul>`;
  }

  private renderDetail(tx: Transaction): TemplateResult {
    const t = this.i18n.t.bind(this.i18n);
    const s = summarize(tx);
    const receipt = tx.state.receipt;
    const explorer = safeHttpUrl(receipt?.blockExplorerUrl);
    const payment = paymentRows(tx);
    const row = (label: string, value: unknown, cls = '') => html`<div><dt>${label}</dt><dd class=${cls}>${value}</dd></div>`;
    const paymentValue = (field: string, value: string) => {
      if (field === 'expiresAt') return formatInstant(value, this.i18n.locale);
      if (field === 'keyType' && ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'].includes(value)) return t(`bank.keyType.${value as 'CPF'}`);
      return value;
    };
    return html`<section class="detail" part="history-detail" aria-labelledby="history-detail-title" data-detail=${tx.id}>
      <button type="button" class="link back" data-action="back" @click=${() => void this.back()}>
        <span aria-hidden="true">←</span> ${t('history.back')}
      </button>
      <h2 id="history-detail-title" tabindex="-1">${t('history.detail.title', { direction: t(s.directionKey), date: formatInstant(tx.createdAt, this.i18n.locale) })}</h2>
      <dl class="facts">
        ${row(t('history.detail.status'), html`<span class="badge" data-status=${tx.state.status}>${t(s.statusKey)}</span>`)}
        ${s.target
          ? html`${row(t('history.detail.source'), this.money(s.source))}${row(t('history.detail.target'), this.money(s.target))}`
          : html`${row(t('history.detail.sent'), this.money(s.source))}${row(t('history.detail.destination'), s.to ?? '—', 'mono')}`}
        ${row(s.rail ? t('history.detail.route') : t('history.detail.network'), this.route(s))}
        ${row(t('history.detail.created'), formatInstant(tx.createdAt, this.i18n.locale))}
        ${row(t('history.detail.reference'), tx.id, 'mono')}
        ${receipt?.transactionHash ? row(t('history.detail.hash'), receipt.transactionHash, 'mono') : nothing}
      </dl>
      ${explorer
        ? html`<p><a href=${explorer} target="_blank" rel="noopener noreferrer" data-testid="receipt">${t('history.detail.receipt')}<span class="visually-hidden"> ${t('tx.newTab')}</span></a></p>`
        : nothing}
      ${payment.length
        ? html`<h3 id="history-payment">${t('history.detail.payment')}</h3>
            <dl class="facts" aria-labelledby="history-payment" data-testid="payment">
              ${payment.map((p) => row(t(p.label), paymentValue(p.field, p.value), p.field === 'brCode' || p.field === 'iban' || p.field === 'keyValue' ? 'mono' : ''))}
            </dl>`
        : nothing}
    </section>`;
  }
}

/** `0x5290…9EE7`: enough to recognise an address in a row; the detail shows it whole. */
function shortAddress(address: string | undefined): string {
  if (!address) return '—';
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

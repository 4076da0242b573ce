// The widget's wallet: per chain the customer's address (copy, QR, explorer) and balances, and a withdrawal in three steps
// (form → confirmation → sent, whose status follows the transfer until it settles).
import type { ReactiveController, TemplateResult } from 'lit';
import type { BffClient } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { transactionFeed } from '../../client/transaction-feed';
import type { FeedSubscription } from '../../client/feed';
import type { Customer } from '../../contract/customers';
import { blockchainName } from '../../contract/blockchains';
import type { BffTransferRequest, Transaction } from '../../contract/transactions';
import type { I18nController } from '../../i18n';
import type { PanelHost } from '../history/history-view';
import { CopyFeedback } from '../pix-checkout/copy-feedback';
import { selectAll } from '../pix-checkout/clipboard';
import { lastQrSymbol } from '../pix-checkout/qr';
import { alertFor, type TransactionAlert } from '../transaction/problems';
import { checkWithdraw, firstDraft, type WithdrawDraft, type WithdrawProblems } from './withdraw-model';
import { renderOverview } from './wallet-views';
import { renderConfirm, renderForm, renderSent } from './withdraw-views';

export type WalletStep = 'overview' | 'form' | 'confirm' | 'sent';

export class WalletPanel implements ReactiveController {
  customer: Customer | undefined;
  failed = false;
  step: WalletStep = 'overview';
  draft: WithdrawDraft | undefined;
  problems: WithdrawProblems = {};
  request: BffTransferRequest | undefined;
  alert: TransactionAlert | undefined;
  sending = false;
  sent: Transaction | undefined;
  announcement = '';
  readonly copies: CopyFeedback;
  /** One QR encoder per chain, each keeping its last symbol: a render draws the same address without encoding it again. */
  readonly qr = new Map<string, ReturnType<typeof lastQrSymbol>>();
  #keys = new IdempotencyKeys();
  #follow: FeedSubscription | undefined;
  #generation = 0;

  constructor(
    readonly host: PanelHost,
    readonly i18n: I18nController,
    private readonly client: () => BffClient,
    /** Opens the widget's history (after a withdrawal). */
    readonly showHistory: () => void,
  ) {
    host.addController(this);
    this.copies = new CopyFeedback(host, i18n, (message) => this.announce(message));
  }

  hostDisconnected(): void {
    this.#generation++;
    this.#follow?.stop();
  }

  /** The widget left the wallet: nobody reads the sent transfer's status any more (opening the tab again starts over). */
  leave(): void {
    this.#follow?.stop();
  }

  qrOf(chain: string) {
    let symbol = this.qr.get(chain);
    if (!symbol) this.qr.set(chain, (symbol = lastQrSymbol()));
    return symbol;
  }

  announce(message: string): void {
    this.announcement = message;
    this.host.requestUpdate();
  }

  /** The customer with its wallets' balances; back to the overview. */
  async load(): Promise<void> {
    const generation = ++this.#generation;
    this.#follow?.stop();
    this.step = 'overview';
    this.customer = undefined;
    this.failed = false;
    this.host.requestUpdate();
    try {
      const customer = await this.client().getCustomer({ include: ['balances'] });
      if (generation !== this.#generation) return;
      this.customer = customer;
    } catch {
      if (generation !== this.#generation) return;
      this.failed = true;
    }
    this.host.requestUpdate();
  }

  copy(chain: string, address: string): Promise<void> {
    return this.copies.copy(chain, address, this.i18n.t('wallet.copied.announce', { blockchain: blockchainName(chain) }), () => {
      const field = this.host.renderRoot.querySelector<HTMLInputElement>(`[data-address="${chain}"]`);
      if (field) selectAll(field);
    });
  }

  async go(step: WalletStep, focus = '#wallet-step-title'): Promise<void> {
    this.step = step;
    this.host.requestUpdate();
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>(focus)?.focus();
  }

  startWithdraw(): void {
    this.draft ??= firstDraft(this.customer?.wallets ?? []);
    this.problems = {};
    this.alert = undefined;
    void this.go('form');
  }

  edit(change: Partial<WithdrawDraft>): void {
    if (!this.draft) return;
    this.draft = { ...this.draft, ...change };
    // A fixed field's message goes as the user fixes it; new ones wait for the next review.
    for (const key of Object.keys(change) as (keyof WithdrawDraft)[]) {
      if (key === 'amount' || key === 'to') delete this.problems[key];
      if (key === 'blockchain' || key === 'coin') this.problems = {};
    }
    this.host.requestUpdate();
  }

  async review(): Promise<void> {
    if (!this.draft) return;
    const checked = checkWithdraw(this.draft, this.customer?.wallets ?? [], this.i18n.locale);
    this.alert = undefined;
    if (!checked.ok) {
      this.problems = checked.problems;
      this.host.requestUpdate();
      await this.host.updateComplete;
      const first = checked.problems.amount ? '#withdraw-amount' : '#withdraw-to';
      this.host.renderRoot.querySelector<HTMLElement>(first)?.focus();
      return;
    }
    this.problems = {};
    this.request = checked.request;
    await this.go('confirm');
  }

  async send(): Promise<void> {
    const request = this.request;
    if (!request || this.sending) return;
    this.sending = true;
    this.alert = undefined;
    this.host.requestUpdate();
    const generation = this.#generation;
    try {
      const created = await this.client().createTransfer(request, { idempotencyKey: this.#keys.keyFor(request) });
      if (generation !== this.#generation) return;
      this.#keys.reset();
      this.sent = created;
      this.draft = undefined;
      this.follow(created.id);
      await this.go('sent');
    } catch (error) {
      this.alert = alertFor(error);
      this.host.requestUpdate();
      await this.host.updateComplete;
      this.host.renderRoot.querySelector<HTMLElement>('#withdraw-alert')?.focus();
    } finally {
      this.sending = false;
      this.host.requestUpdate();
    }
  }

  /** The sent transfer's status, read until it settles. */
  private follow(id: string): void {
    this.#follow?.stop();
    this.#follow = transactionFeed(this.client(), id, { intervalMs: 2_000 })({
      next: (t) => {
        this.sent = t;
        this.host.requestUpdate();
        if (t.state.status === 'SUCCESS' || t.state.status === 'FAILED') this.#follow?.stop();
      },
      error: () => undefined,
    });
  }

  render(): TemplateResult {
    switch (this.step) {
      case 'overview':
        return renderOverview(this);
      case 'form':
        return renderForm(this);
      case 'confirm':
        return renderConfirm(this);
      case 'sent':
        return renderSent(this);
    }
  }
}

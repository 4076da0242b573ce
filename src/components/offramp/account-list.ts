// The off-ramp's payout accounts: one page at a time (newest first), re-read while a holder is under verification, one picked; an account added here is picked once it can receive money.
import { html, nothing, type LitElement, type ReactiveController, type TemplateResult } from 'lit';
import type { BankAccount } from '../../contract/bank-accounts';
import type { Quote } from '../../contract/exchange-rates';
import type { BffClient, Page } from '../../client/bff-client';
import { pollingFeed } from '../../client/feed';
import type { I18nController, MessageKey, TranslateArgs } from '../../i18n';
import { FeedController } from '../feed-controller';
import { alertFor, type TransactionAlert } from '../transaction/problems';
import { railKeys, relationshipKeys } from './bank-labels';
import { holderName, identifierText } from './format';
import { unavailableReason } from './payout';

const verificationKeys = {
  NOT_STARTED: 'status.NOT_STARTED',
  UNDER_VERIFICATION: 'status.UNDER_VERIFICATION',
  APPROVED: 'status.APPROVED',
  TEMPORARY_REJECTION: 'status.TEMPORARY_REJECTION',
  FINAL_REJECTION: 'status.FINAL_REJECTION',
} as const;

export interface AccountListOptions {
  client: () => BffClient;
  session: () => string;
  pageSize: () => number;
  pollInterval: () => number;
  /** The locked quote paid out: accounts of another currency cannot be picked. */
  quote: () => Quote | undefined;
  keyTypeName: (keyType: string) => string;
  announce: (message: string) => void;
  report: (error: unknown, operation: string) => void;
  renderAlert: (alert: TransactionAlert, retry: () => void, testid: string) => TemplateResult;
  /** The error under the list ("choose an account"), from the payout form's rules. */
  error: () => string | undefined;
  /** The "Add a bank account" button, at the foot of the list. */
  renderAdd: () => TemplateResult;
  /** The user picked an account. */
  chosen: () => void;
}

interface AccountListState {
  page: Page<BankAccount> | undefined;
  status: 'idle' | 'loading' | 'ready' | 'error';
  alert: TransactionAlert | undefined;
  selectedId: string;
  /** The picked account itself, so the choice survives paging away from it. */
  picked: BankAccount | undefined;
}

/** Loads, shows and pages the accounts into the host's shadow root (radio buttons named `bankAccount`); `selected` is the one picked. */
export class AccountList implements ReactiveController {
  private s: AccountListState = { page: undefined, status: 'idle', alert: undefined, selectedId: '', picked: undefined };
  /** The cursor of the page on screen (undefined: the first), so a re-read during verification reads the same page. */
  private cursor: string | undefined;
  private listAbort: AbortController | undefined;
  /** An account this element added: picked for the user as soon as its holder is approved. */
  private addedAccountId: string | undefined;

  /** Re-reads the page on screen while a holder on it is under verification. */
  private readonly verificationFeed: FeedController<Page<BankAccount>>;

  constructor(
    private readonly host: LitElement,
    private readonly i18n: I18nController,
    private readonly options: AccountListOptions,
  ) {
    host.addController(this);
    this.verificationFeed = new FeedController<Page<BankAccount>>(host, { next: (page) => this.showPage(page, false) });
  }

  hostDisconnected(): void {
    this.listAbort?.abort();
  }

  /** The bank account currently picked (as last read, when it is on the page shown). */
  get selected(): BankAccount | undefined {
    const { selectedId, page, picked } = this.s;
    if (!selectedId) return undefined;
    return page?.data.find((a) => a.id === selectedId) ?? (picked?.id === selectedId ? picked : undefined);
  }

  /** Read the page on screen again (after a payout: balances and holders may have moved). */
  reload(): Promise<void> {
    return this.load(this.cursor);
  }

  /** A payout exists: stop re-reading holders under verification. */
  stopFollowing(): void {
    this.verificationFeed.stop();
  }

  /** The add-account form saved one: back to the first page (newest first, so it is on top), focus on the list. */
  async added(account: BankAccount): Promise<void> {
    this.addedAccountId = account.id;
    await this.load(undefined);
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>('#accounts-legend')?.focus();
  }

  private patch(change: Partial<AccountListState>): void {
    this.s = { ...this.s, ...change };
    this.host.requestUpdate();
  }

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  private onChange = (event: Event): void => {
    const selectedId = (event.target as HTMLInputElement).value;
    this.patch({ selectedId, picked: this.s.page?.data.find((a) => a.id === selectedId) });
    this.options.chosen();
  };

  render(): TemplateResult {
    const page = this.s.page;
    const error = this.options.error();
    return html`
      <fieldset part="accounts" class="section" data-testid="accounts" aria-describedby=${error ? 'accounts-error' : nothing}>
        <legend id="accounts-legend" tabindex="-1">${this.t('offramp.accounts.legend')}</legend>
        ${this.s.alert ? this.options.renderAlert(this.s.alert, () => void this.load(this.cursor), 'accounts-alert') : nothing}
        ${this.s.status === 'loading' && !page
          ? html`<p class="busy" data-testid="accounts-loading"><span class="spinner" aria-hidden="true"></span>${this.t('offramp.accounts.loading')}</p>`
          : nothing}
        ${page && page.data.length === 0 && !page.pagination.hasPreviousPage
          ? html`<p class="muted" data-testid="accounts-empty">${this.t('offramp.accounts.empty')}</p>`
          : nothing}
        ${page && page.data.length > 0
          ? html`<div class="accounts-list" data-testid="account-list" aria-busy=${this.s.status === 'loading' ? 'true' : 'false'}>
              ${page.data.map((account) => this.renderAccount(account))}
            </div>`
          : nothing}
        ${error ? html`<p id="accounts-error" part="error" class="error" data-testid="account-error">${error}</p>` : nothing}
        ${page && (page.pagination.hasNextPage || page.pagination.hasPreviousPage) ? this.renderPager(page) : nothing}
        ${this.options.renderAdd()}
      </fieldset>
    `;
  }

  private renderAccount(account: BankAccount): TemplateResult {
    const status = account.holder.verification.status;
    const reason = unavailableReason(account, this.options.quote());
    const detailId = `account-${account.id}-detail`;
    return html`
      <label part="account" class="choice account" data-testid="account" data-account-id=${account.id} data-status=${status}>
        <input
          type="radio"
          name="bankAccount"
          value=${account.id}
          .checked=${account.id === this.s.selectedId}
          ?disabled=${reason !== undefined}
          aria-describedby=${detailId}
          @change=${this.onChange}
        />
        <span class="account-text">
          <span class="account-head">
            <span>${account.name}</span>
            <span part="badge" class="badge" data-status=${status}>${this.t(verificationKeys[status])}</span>
          </span>
          <span id=${detailId} class="hint account-detail">
            ${this.t(railKeys[account.rail])} · ${identifierText(account, this.options.keyTypeName)} · ${holderName(account)} (${this.t(relationshipKeys[account.holder.relationship])})
            ${reason === 'verification' ? html`<br />${this.t('offramp.accounts.pending')}` : nothing}
            ${reason === 'currency' ? html`<br />${this.t('offramp.accounts.otherCurrency', { currency: this.options.quote()?.targetCurrency ?? '' })}` : nothing}
          </span>
        </span>
      </label>
    `;
  }

  private renderPager(page: Page<BankAccount>): TemplateResult {
    const busy = this.s.status === 'loading';
    return html`
      <nav part="pager" class="pager" aria-label=${this.t('offramp.accounts.pages')}>
        <button
          part="pager-button"
          type="button"
          class="small"
          data-testid="accounts-previous"
          ?disabled=${!page.pagination.hasPreviousPage || busy}
          @click=${() => this.turnPage(page.pagination.previousCursor, 'previous')}
        >
          ${this.t('offramp.accounts.previous')}
        </button>
        <button
          part="pager-button"
          type="button"
          class="small"
          data-testid="accounts-next"
          ?disabled=${!page.pagination.hasNextPage || busy}
          @click=${() => this.turnPage(page.pagination.nextCursor, 'next')}
        >
          ${this.t('offramp.accounts.next')}
        </button>
      </nav>
    `;
  }

  // ── reading ──

  async load(cursor: string | undefined, focusAfter?: 'previous' | 'next' | 'legend'): Promise<void> {
    this.listAbort?.abort();
    this.verificationFeed.stop();
    if (!this.options.session()) {
      this.patch({ status: 'idle' });
      return;
    }
    const abort = (this.listAbort = new AbortController());
    this.patch({ status: 'loading', alert: undefined });
    try {
      const page = await this.options.client().listBankAccounts({ size: this.options.pageSize(), cursor }, { signal: abort.signal });
      if (abort.signal.aborted) return;
      this.cursor = cursor;
      this.showPage(page, true);
      if (focusAfter) await this.focusAfterPaging(focusAfter);
    } catch (error) {
      if (abort.signal.aborted) return;
      this.patch({ status: 'error', alert: alertFor(error) });
      if (this.s.alert) this.options.report(error, 'listBankAccounts');
    }
  }

  /** A page arrived (a new one, or the same one re-read while a holder is verified): announce what changed, keep following if needed. */
  private showPage(page: Page<BankAccount>, fresh: boolean): void {
    const before = new Map(this.s.page?.data.map((a) => [a.id, a.holder.verification.status]));
    this.patch({ page, status: 'ready' });
    if (!fresh) {
      for (const account of page.data) {
        const was = before.get(account.id);
        const now = account.holder.verification.status;
        if (was && was !== now) this.options.announce(this.t('offramp.accounts.statusChanged', { name: account.name, status: this.t(verificationKeys[now]) }));
      }
    }
    // The account the user just added is picked for them once it can receive money, if they have picked none.
    const added = page.data.find((a) => a.id === this.addedAccountId);
    if (added && !this.s.selectedId && unavailableReason(added, this.options.quote()) === undefined) {
      this.patch({ selectedId: added.id });
      this.addedAccountId = undefined;
    }
    const fresher = page.data.find((a) => a.id === this.s.selectedId);
    if (fresher) this.patch({ picked: fresher });
    const verifying = page.data.some((a) => a.holder.verification.status === 'UNDER_VERIFICATION' || a.holder.verification.status === 'NOT_STARTED');
    if (!verifying) this.verificationFeed.stop();
    else if (!this.verificationFeed.active) {
      const client = this.options.client();
      const size = this.options.pageSize();
      const cursor = this.cursor;
      this.verificationFeed.start((immediate) =>
        pollingFeed((signal) => client.listBankAccounts({ size, cursor }, { signal }), { intervalMs: this.options.pollInterval(), immediate }),
      );
    }
  }

  private turnPage(cursor: string | null, direction: 'previous' | 'next'): void {
    if (!cursor || this.s.status === 'loading') return;
    void this.load(cursor, direction);
  }

  /** The pressed button may now be disabled (first or last page): then focus goes to the list, never to the page's body. */
  private async focusAfterPaging(pressed: 'previous' | 'next' | 'legend'): Promise<void> {
    await this.host.updateComplete;
    const page = this.s.page;
    this.options.announce(this.i18n.plural('offramp.accounts.shown', page?.data.length ?? 0));
    const button = pressed === 'legend' ? null : this.host.renderRoot.querySelector<HTMLButtonElement>(`[data-testid="accounts-${pressed}"]`);
    if (button && !button.disabled) return button.focus();
    const first = this.host.renderRoot.querySelector<HTMLInputElement>('input[name="bankAccount"]:not(:disabled)');
    (first ?? this.host.renderRoot.querySelector<HTMLElement>('#accounts-legend'))?.focus();
  }
}

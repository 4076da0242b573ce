// <ramp-offramp>: picks (or adds) a payout bank account, confirms a locked quote with a purpose, and follows the off-ramp to SUCCESS or REFUNDED.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { RampElement } from '../ramp-element';
import type { Bundle } from '../../i18n';
import { Task, TaskStatus } from '@lit/task';
import type { BankAccount } from '../../contract/bank-accounts';
import type { Quote } from '../../contract/exchange-rates';
import type { BffOffRampRequest, Transaction } from '../../contract/transactions';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient, ProblemError, type BffClient } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { RampBankAccountCreatedEvent } from '../../events/bank-account-created';
import { RampErrorEvent } from '../../events/error';
import { RampRequoteRequestedEvent } from '../../events/requote-requested';
import { formatInstant, I18nController, type MessageKey, type TranslateArgs } from '../../i18n';
import { formatAmount } from '../quote/amount';
import { alertText } from '../transaction/alert-text';
import { purposeKeys } from '../transaction/labels';
import { PaymentLock } from '../transaction/lock';
import { alertFor, errorDetailFor, isRetryable, placeFieldProblems, type TransactionAlert } from '../transaction/problems';
import { isPurpose, purposes } from '../transaction/purposes';
import { isTerminal, type TransactionStatus } from '../transaction/steps';
import { TransactionTracker } from '../transaction/tracker';
import { AccountList } from './account-list';
import { BankAccountForm } from './bank-account-form';
import { keyTypeKeys } from './bank-labels';
import { identifierText } from './format';
import type { BankRail, PixKeyType } from './model';
import { supportReference } from '../support-reference';
import { offrampStyles } from './offramp.styles';
import { offRampRequest, payoutSource, purposeFits, unavailableReason, type PayoutSource } from './payout';

const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

type Currency = Quote['sourceCurrency'];
type PayoutField = 'account' | 'purpose';

/**
 * The off-ramp: the user picks one of their payout bank accounts (paged, newest first; only accounts whose holder is
 * APPROVED can be picked, and the list is re-read while a holder is under verification), or adds one (PIX, SEPA or
 * SWIFT, checked as the server checks), chooses a purpose (PERSONAL_ACCOUNT only for their own account) and confirms
 * a locked quote (`exchange-rate-id`) or an unlocked stablecoin `amount`. The element then follows the transaction
 * live: TRANSFERRING_STABLECOIN → TRADING → TRANSFERRING_FIAT → SUCCESS, or REFUNDING → REFUNDED after a failure,
 * with the expected settlement time for SEPA and SWIFT.
 *
 * @summary Off-ramp: choose or add a bank account, confirm the payout, follow it to the bank.
 * @tag ramp-offramp
 *
 * @fires ramp-bank-account-created - {RampBankAccountCreatedEvent} When the user added a bank account; `detail` is the account (holder UNDER_VERIFICATION).
 * @fires ramp-transaction-created - {RampTransactionCreatedEvent} Once per payout created; `detail` is the transaction (status TRANSFERRING_STABLECOIN).
 * @fires ramp-transaction-updated - {RampTransactionUpdatedEvent} On each status change seen; `detail` is the transaction.
 * @fires ramp-requote-requested - {RampRequoteRequestedEvent} When the user asks for a new quote after RATE_EXPIRED or RATE_ALREADY_USED; `detail` is `{exchangeRateId, reason}`.
 * @fires ramp-error - {RampErrorEvent} When a call fails for a reason the user cannot fix here (session, network, server).
 *
 * @csspart base - The card around everything.
 * @csspart title - The heading.
 * @csspart summary - The amounts list (you send, you receive).
 * @csspart accounts - The fieldset of bank accounts.
 * @csspart account - One bank account choice (with its radio).
 * @csspart badge - An account's verification status.
 * @csspart pager - The previous / next row.
 * @csspart pager-button - A previous / next button.
 * @csspart add-account - The button that opens the add-account form.
 * @csspart bank-form - The add-account form.
 * @csspart field - The wrapper of one field (also `field-<name>`).
 * @csspart label - A field's label.
 * @csspart input - A text or date input.
 * @csspart select - A select.
 * @csspart hint - Help text under a field.
 * @csspart error - A field's error message.
 * @csspart save - The add-account submit button.
 * @csspart form - The payout form (purpose and confirm).
 * @csspart submit - The "Confirm payout" button.
 * @csspart alert - A form-level problem with its way out.
 * @csspart alert-action - The button in the alert.
 * @csspart stepper - The status list; each item is `step` plus `step-done`, `step-current`, `step-upcoming` or `step-failed`.
 * @csspart step - One status step.
 * @csspart settlement - The expected settlement time.
 * @csspart success - The receipt panel.
 * @csspart refund - The panel of a failed, refunded payout.
 * @csspart explorer-link - The block-explorer link.
 * @csspart again - The "Make another payout" button.
 * @csspart status - The polite live region (visually hidden).
 *
 * @cssprop --ramp-color-primary - Accent: buttons, current step, chosen account.
 * @cssprop --ramp-color-on-primary - Text on the accent.
 * @cssprop --ramp-color-surface - Background.
 * @cssprop --ramp-color-surface-raised - Background of the add-account form.
 * @cssprop --ramp-color-text - Text.
 * @cssprop --ramp-color-text-muted - Secondary text.
 * @cssprop --ramp-color-border - Borders.
 * @cssprop --ramp-color-danger - Errors and failed steps.
 * @cssprop --ramp-color-danger-surface - Background of alerts.
 * @cssprop --ramp-color-success - Completed steps, approved badges.
 * @cssprop --ramp-color-success-surface - Background of the receipt.
 * @cssprop --ramp-color-focus - Focus ring.
 * @cssprop --ramp-radius - Corner radius.
 * @cssprop --ramp-space - Base spacing.
 * @cssprop --ramp-font-family - Font.
 * @cssprop --ramp-font-size - Base font size.
 * @cssprop --ramp-offramp-background - Card background (default: `--ramp-color-surface`).
 * @cssprop --ramp-offramp-border-color - Card border (default: `--ramp-color-border`).
 * @cssprop --ramp-offramp-radius - Card radius (default: `--ramp-radius`).
 * @cssprop --ramp-offramp-padding - Card padding.
 * @cssprop --ramp-offramp-max-width - Card width limit (default: 36rem).
 * @cssprop --ramp-offramp-account-background - Background of an account choice.
 * @cssprop --ramp-offramp-form-background - Background of the add-account form (default: `--ramp-color-surface-raised`).
 * @cssprop --ramp-offramp-form-border-color - Border of the add-account form.
 * @cssprop --ramp-offramp-input-background - Input background.
 * @cssprop --ramp-offramp-button-background - Primary button background (default: `--ramp-color-primary`).
 * @cssprop --ramp-offramp-button-color - Primary button text (default: `--ramp-color-on-primary`).
 */
export class RampOfframp extends RampElement {
  protected override messageBundles(): readonly Bundle[] {
    return ['core', 'money'];
  }

  static override styles = offrampStyles;

  /** The BFF's URL. Default: `/bff` beside the script's folder. */
  @property({ attribute: 'api-base' }) apiBase: string = defaultApiBase();

  /** A widget-session token bound to the customer who cashes out. */
  @property({ reflect: true, converter: optionalAttribute }) session = '';

  /** Language (`en`, `pt-BR`, `es`); when empty, the closest `[lang]` above, then the browser's. */
  @property({ reflect: true, converter: optionalAttribute }) override lang = '';

  /** `light` or `dark`; when absent, follows `prefers-color-scheme`. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** A LOCKED quote's id (`ramp-quote-locked` → `detail.exchangeRateId`). Wins over `amount`. */
  @property({ attribute: 'exchange-rate-id' }) exchangeRateId = '';

  /** Unlocked off-ramp: the stablecoin amount to sell, a plain decimal string (`"100.00"`). */
  @property() amount = '';

  /** Unlocked off-ramp: `USDC` (default) or `USDT`. */
  @property() stablecoin = 'USDC';

  /** Unlocked off-ramp: the chain the stablecoin leaves from; default the service's. */
  @property() blockchain = '';

  /** Bank accounts per page (1–100). */
  @property({ attribute: 'page-size', type: Number }) pageSize = 10;

  /** Milliseconds between reads while a payout, or a holder's verification, is under way. */
  @property({ attribute: 'poll-interval', type: Number }) pollInterval = 2_000;

  /** The locked quote itself (`ramp-quote-locked` → `detail.quote`): shows the amounts and keeps accounts of another currency out. */
  @property({ attribute: false }) quote: Quote | undefined;

  @state() private selectedPurpose = '';
  @state() private purposeTouched = false;
  @state() private submitted = false;
  @state() private payoutServerErrors: Partial<Record<PayoutField, string>> = {};
  @state() private alert: TransactionAlert | undefined;
  @state() private announcement = '';

  private readonly i18n = new I18nController(this);
  private readonly payoutKeys = new IdempotencyKeys();
  /** The account of the payout on screen (the list may page away from it). */
  private payoutAccount: BankAccount | undefined;

  private readonly bankForm = new BankAccountForm(this, this.i18n, {
    client: () => this.client(),
    session: () => this.session,
    rail: () => (this.lockedQuote ? railFor(this.lockedQuote.targetCurrency) : 'PIX'),
    announce: (message) => this.announce(message),
    report: (error, operation) => this.report(error, operation),
    renderAlert: (alert, retry, testid) => this.renderAlert(alert, retry, testid),
    created: (account) => void this.accountCreated(account),
  });

  private readonly payoutTask = new Task(this, {
    autoRun: false,
    task: ([body, idempotencyKey]: readonly [BffOffRampRequest, string], { signal }) => this.client().createOffRamp(body, { idempotencyKey, signal }),
    onComplete: (tx) => void this.created(tx),
    onError: (error) => this.payoutFailed(error),
  });

  private readonly tracker = new TransactionTracker(this, {
    type: 'OFF_RAMP',
    client: () => this.client(),
    changed: (previous, next) => this.statusChanged(previous, next),
    lost: (alert) => (this.alert = alert),
  });

  private readonly accountList = new AccountList(this, this.i18n, {
    client: () => this.client(),
    session: () => this.session,
    pageSize: () => this.pageSize,
    pollInterval: () => this.pollInterval,
    quote: () => this.lockedQuote,
    keyTypeName: (keyType) => this.keyTypeName(keyType),
    announce: (message) => this.announce(message),
    report: (error, operation) => this.report(error, operation),
    renderAlert: (alert, retry, testid) => this.renderAlert(alert, retry, testid),
    error: () => this.payoutFieldError('account'),
    renderAdd: () => this.renderAddAccount(),
    chosen: () => this.accountChosen(),
  });

  /** The lock of the quote we pay with: its countdown, shared with the quote panel; at its end the form gives way to a re-quote. */
  private readonly lock = new PaymentLock(this, this.i18n, this.tracker, {
    announce: (message) => this.announce(message),
    expired: () => (this.alert = undefined),
    requote: () => this.requestRequote('RATE_EXPIRED'),
  });

  /** The transaction this element created and follows, once it exists. */
  get transaction(): Transaction | undefined {
    return this.tx;
  }

  private get tx(): Transaction | undefined {
    return this.tracker.tx;
  }

  /** The bank account currently picked (as last read, when it is on the page shown). */
  get selectedAccount(): BankAccount | undefined {
    return this.accountList.selected;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const sourceChanged = changed.has('exchangeRateId') || changed.has('amount') || changed.has('stablecoin') || changed.has('blockchain');
    if (sourceChanged && this.hasUpdated && (!this.tx || isTerminal(this.tx.state.status))) this.resetPayout();
    this.lock.follow(this.lockedQuote);
    // Here rather than in updated(): the loading state it sets joins this render instead of scheduling another.
    if (changed.has('session') || changed.has('apiBase') || changed.has('pageSize')) void this.accountList.load(undefined);
  }


  protected override render(): TemplateResult {
    return html`
      <section part="base" class="base" lang=${this.i18n.locale} aria-labelledby="title">
        <h2 id="title" part="title" class="title" tabindex="-1">${this.t('offramp.title')}</h2>
        ${this.tx ? this.renderTransaction(this.tx) : this.renderChoose()}
        <div part="status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      </section>
    `;
  }

  /** A PIX key type as people read it ("Random key"), for the account lines. */
  private keyTypeName = (keyType: string): string => (keyType in keyTypeKeys ? this.t(keyTypeKeys[keyType as PixKeyType]) : keyType);

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  private client(): BffClient {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
  }

  private get source(): PayoutSource {
    return payoutSource({ exchangeRateId: this.exchangeRateId, amount: this.amount, stablecoin: this.stablecoin, blockchain: this.blockchain });
  }

  /** The quote we were given, when it is the one we pay with. */
  private get lockedQuote(): Quote | undefined {
    const source = this.source;
    return source.kind === 'locked' && this.quote?.id === source.exchangeRateId ? this.quote : undefined;
  }

  private money(amount: string | undefined, currency: string | undefined): string {
    if (!amount || !currency || !/^\d+(\.\d+)?$/.test(amount)) return amount ?? '';
    return formatAmount(amount, currency as Currency, this.i18n.locale);
  }

  // ── choosing ──

  private renderChoose(): TemplateResult {
    return html`
      <p class="muted">${this.t('offramp.intro')}</p>
      ${this.renderSummary()} ${this.accountList.render()} ${this.bankForm.adding ? this.bankForm.render() : nothing} ${this.renderPayoutForm()}
    `;
  }

  private renderSummary(): TemplateResult | typeof nothing {
    const source = this.source;
    if (source.kind === 'missing') return html`<div class="notice" data-tone="danger" data-testid="missing">${this.t('offramp.missing')}</div>`;
    const quote = this.lockedQuote;
    if (source.kind === 'locked' && !quote) return nothing;
    if (this.lock.expired) return this.lock.renderExpired();
    return html`${this.lock.renderCountdown()}
      <dl part="summary" class="amounts" data-testid="summary">
        <dt>${this.t('offramp.send')}</dt>
        <dd class="big" data-testid="summary-send">
          ${quote ? this.money(quote.sourceAmount, quote.sourceCurrency) : source.kind === 'unlocked' ? this.money(source.amount, source.stablecoin) : ''}
        </dd>
        ${quote
          ? html`<dt>${this.t('offramp.receive')}</dt>
              <dd data-testid="summary-receive">${this.money(quote.finalTargetAmount, quote.targetCurrency)}</dd>`
          : nothing}
      </dl>
    `;
  }

  // ── the add-account form ──

  private renderAddAccount(): TemplateResult {
    return html`
        <div class="actions start">
          <button
            part="add-account"
            type="button"
            data-testid="add-account"
            aria-expanded=${this.bankForm.adding ? 'true' : 'false'}
            aria-controls="bank-form"
            @click=${this.bankForm.onToggleAdd}
          >
            ${this.t('offramp.accounts.add')}
          </button>
        </div>
    `;
  }

  // ── the payout form ──

  private renderPayoutForm(): TemplateResult {
    const busy = this.payoutTask.status === TaskStatus.PENDING;
    const error = this.payoutFieldError('purpose');
    const account = this.selectedAccount;
    const selfOnly = account !== undefined && account.holder.relationship !== 'SELF';
    const describedBy = ['offramp-purpose-hint', error ? 'offramp-purpose-error' : ''].filter(Boolean).join(' ');
    return html`
      <form part="form" class="section" novalidate aria-busy=${busy ? 'true' : 'false'} data-testid="payout-form" @submit=${this.onConfirm}>
        ${this.alert ? this.renderAlert(this.alert, () => void this.confirm(), 'alert') : nothing}
        ${account
          ? html`<p class="muted" data-testid="selected-account">${this.t('offramp.to')}: ${account.name} · ${identifierText(account, this.keyTypeName)}</p>`
          : nothing}
        <div part="field field-purpose" class="field">
          <label part="label" for="offramp-purpose">${this.t('offramp.purpose.label')}</label>
          <select
            id="offramp-purpose"
            name="purpose"
            part="select"
            required
            data-testid="purpose"
            aria-invalid=${error ? 'true' : 'false'}
            aria-describedby=${describedBy}
            @change=${this.onPurposeChange}
            @blur=${this.onPurposeBlur}
          >
            <option value="" ?selected=${!this.selectedPurpose}>${this.t('offramp.purpose.placeholder')}</option>
            ${purposes.map(
              (p) => html`<option value=${p} ?selected=${p === this.selectedPurpose} ?disabled=${p === 'PERSONAL_ACCOUNT' && selfOnly}>
                ${this.t(purposeKeys[p])}${p === 'PERSONAL_ACCOUNT' && selfOnly ? ` (${this.t('offramp.purpose.selfOnly.short')})` : ''}
              </option>`,
            )}
          </select>
          <p id="offramp-purpose-hint" part="hint" class="hint">${this.t('offramp.purpose.hint')}</p>
          ${error ? html`<p id="offramp-purpose-error" part="error" class="error" data-testid="purpose-error">${error}</p>` : nothing}
        </div>
        ${this.lock.expired
          ? nothing
          : html`<div class="actions">
              <button
                part="submit"
                class="primary"
                type="submit"
                data-testid="confirm-payout"
                aria-disabled=${busy || this.source.kind === 'missing' ? 'true' : 'false'}
              >
                ${busy ? this.t('offramp.confirming') : this.t('offramp.confirm')}
              </button>
            </div>`}
      </form>
    `;
  }

  private payoutFieldError(field: PayoutField): string | undefined {
    const server = this.payoutServerErrors[field];
    if (server) return this.t('tx.error.rejected', { message: server });
    if (field === 'account') {
      return this.submitted && !this.selectedAccount ? this.t('offramp.account.required') : undefined;
    }
    const purpose = this.selectedPurpose;
    if (isPurpose(purpose) && !purposeFits(purpose, this.selectedAccount)) return this.t('offramp.purpose.selfOnly');
    if (!purpose && (this.submitted || this.purposeTouched)) return this.t('offramp.purpose.required');
    return undefined;
  }

  private renderAlert(alert: TransactionAlert, retry: () => void, testid: string): TemplateResult {
    return html`
      <div part="alert" class="alert" role="alert" data-testid=${testid} data-kind=${alert.kind}>
        <p>${alertText(alert, this.i18n)}</p>
        ${alert.kind === 'requote'
          ? html`<button part="alert-action" type="button" data-testid="requote" @click=${() => this.requestRequote(alert.code)}>${this.t('tx.requote')}</button>`
          : isRetryable(alert)
            ? html`<button part="alert-action" type="button" data-testid="retry" @click=${retry}>${this.t('tx.alert.retry')}</button>`
            : nothing}
      </div>
    `;
  }

  // ── the payout's life ──

  private renderTransaction(tx: Transaction): TemplateResult {
    const status = tx.state.status;
    const account = this.payoutAccount;
    const coin = tx.quote?.sourceCurrency ?? String(tx.request.sourceCurrency ?? '');
    const fiat = tx.quote?.targetCurrency ?? account?.currency ?? String(tx.request.targetCurrency ?? '');
    const stepper = this.tracker.renderStepper(tx, this.i18n);
    const settlement =
      tx.state.estimatedSettlementAt && account?.rail !== 'PIX' && !isTerminal(status)
        ? html`<p part="settlement" data-testid="settlement">
            ${this.t('offramp.settlement', { time: formatInstant(tx.state.estimatedSettlementAt, this.i18n.locale) })}
          </p>`
        : nothing;
    const amounts = html`
      <dl part="summary" class="amounts" data-testid="amounts">
        <dt>${this.t('offramp.send')}</dt>
        <dd data-testid="amount-send">${this.money(tx.quote?.sourceAmount ?? String(tx.request.amount ?? ''), coin)}</dd>
        ${tx.quote
          ? html`<dt>${status === 'SUCCESS' ? this.t('offramp.success.paid') : this.t('offramp.receive')}</dt>
              <dd class="big" data-testid="amount-receive">${this.money(tx.state.receipt?.targetAmount ?? tx.quote.finalTargetAmount, fiat)}</dd>`
          : nothing}
        ${account
          ? html`<dt>${this.t('offramp.to')}</dt>
              <dd>${account.name} · ${identifierText(account, this.keyTypeName)}</dd>`
          : nothing}
      </dl>
      ${supportReference(this.t('offramp.reference'), tx.id, 'reference')}
    `;
    const trouble = this.tracker.renderTrouble(this.i18n);
    const again = html`<div class="actions start">
      <button part="again" type="button" data-testid="again" @click=${this.onAgain}>${this.t('offramp.again')}</button>
    </div>`;
    if (status === 'SUCCESS') {
      return html`
        <div part="success" class="panel notice" data-tone="success" data-testid="success">
          <h3 id="phase-title" tabindex="-1">${this.t('offramp.success.title')}</h3>
          ${amounts} ${this.renderExplorerLink(tx)}
        </div>
        ${stepper} ${again}
      `;
    }
    if (status === 'REFUNDING' || status === 'REFUNDED' || status === 'FAILED') {
      const message = tx.state.error?.message ?? tx.state.error?.code ?? '—';
      const title = status === 'REFUNDED' ? 'offramp.refunded.title' : status === 'REFUNDING' ? 'offramp.refunding.title' : 'offramp.failed.title';
      const body = status === 'REFUNDED' ? 'offramp.refunded.body' : status === 'REFUNDING' ? 'offramp.refunding.body' : 'offramp.failed.body';
      return html`
        <div part="refund" class="panel notice" data-tone="danger" data-testid=${status === 'REFUNDED' ? 'refunded' : status === 'REFUNDING' ? 'refunding' : 'failed'}>
          <h3 id="phase-title" tabindex="-1">${this.t(title)}</h3>
          <p>${this.t(body, { message, coin })}</p>
          ${amounts}
        </div>
        ${stepper} ${trouble} ${isTerminal(status) ? again : nothing}
      `;
    }
    return html`
      <div class="panel" data-testid="progress">
        <h3 id="phase-title" tabindex="-1">${this.t('offramp.progress.title')}</h3>
        <p>${this.t('offramp.progress.body', { coin })}</p>
        ${amounts} ${settlement} ${stepper} ${trouble}
      </div>
    `;
  }

  private renderExplorerLink(tx: Transaction): TemplateResult | typeof nothing {
    const url = tx.state.receipt?.blockExplorerUrl;
    // Only web links: a `javascript:` URL from a compromised upstream must not become a clickable link.
    if (!url || !/^https?:\/\//i.test(url)) return nothing;
    return html`<a part="explorer-link" class="explorer" href=${url} target="_blank" rel="noopener noreferrer" data-testid="explorer-link">
      ${this.t('offramp.explorer')}<span class="visually-hidden"> ${this.t('tx.newTab')}</span>
    </a>`;
  }

  // ── bank accounts: reading ──

  // ── bank accounts: adding ──

  // ── bank accounts: added ──

  private accountCreated(account: BankAccount): void {
    this.dispatchEvent(new RampBankAccountCreatedEvent(account));
    this.announce(this.t('bank.saved', { name: account.name }));
    void this.accountList.added(account);
  }

  // ── paying out ──

  private accountChosen(): void {
    const { account: _, ...rest } = this.payoutServerErrors;
    this.payoutServerErrors = rest;
    const purpose = this.selectedPurpose;
    if (isPurpose(purpose) && !purposeFits(purpose, this.selectedAccount)) this.announce(this.t('offramp.purpose.selfOnly'));
  }

  private onPurposeChange = (event: Event): void => {
    this.selectedPurpose = (event.target as HTMLSelectElement).value;
    const { purpose: _, ...rest } = this.payoutServerErrors;
    this.payoutServerErrors = rest;
  };

  /** A select removed while focused (the payout replaced the form) blurs during that render: the user did not leave it. */
  private onPurposeBlur = (): void => {
    if (!this.tx) this.purposeTouched = true;
  };

  private onConfirm = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.confirm();
  };

  private async confirm(): Promise<void> {
    if (this.payoutTask.status === TaskStatus.PENDING) return;
    this.submitted = true;
    this.alert = undefined;
    const source = this.source;
    if (source.kind === 'missing' || this.lock.expired) return;
    const account = this.selectedAccount;
    const purpose = this.selectedPurpose;
    const invalid: string[] = [];
    if (!account || unavailableReason(account, this.lockedQuote)) invalid.push('input[name="bankAccount"]:not(:disabled)');
    if (!isPurpose(purpose) || !purposeFits(purpose, account)) invalid.push('#offramp-purpose');
    if (!account || !isPurpose(purpose) || invalid.length > 0) {
      this.announce(this.i18n.plural('tx.form.invalid', Math.max(1, invalid.length)));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(invalid[0] ?? '#offramp-purpose')?.focus();
      return;
    }
    this.payoutAccount = account;
    const body = offRampRequest(source, account, purpose);
    this.announce(this.t('offramp.confirming'));
    // Same body as a failed attempt → same key: one payout, however often the user retries.
    await this.payoutTask.run([body, this.payoutKeys.keyFor(body)]);
  }

  private payoutFailed(error: unknown): void {
    const alert = alertFor(error);
    if (!alert) return;
    if (error instanceof ProblemError && error.status === 400) {
      const { fields, unplaced } = placeFieldProblems<PayoutField>(error.errors, (segments) =>
        segments[0] === 'purpose' ? 'purpose' : segments[0] === 'bankAccountId' ? 'account' : undefined,
      );
      this.payoutServerErrors = { ...this.payoutServerErrors, ...fields };
      if (Object.keys(fields).length > 0 && unplaced.length === 0) {
        this.announce(this.i18n.plural('tx.form.invalid', Object.keys(fields).length));
        const target = fields.account ? 'input[name="bankAccount"]:not(:disabled)' : '#offramp-purpose';
        void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(target)?.focus());
        return;
      }
    }
    this.alert = alert;
    this.announce(alertText(alert, this.i18n));
    if (alert.kind === 'network' || alert.kind === 'session' || alert.kind === 'forbidden' || alert.kind === 'notFound' || alert.kind === 'other') {
      this.report(error, 'createOffRamp');
    }
  }

  private async created(tx: Transaction): Promise<void> {
    this.payoutKeys.reset();
    this.accountList.stopFollowing();
    this.tracker.begin(tx);
    this.announceStep();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#phase-title')?.focus();
  }

  /** A new status (`ramp-transaction-updated` is out): say it; a new panel replaces what had focus, so put it on the new heading. */
  private statusChanged(previous: Transaction, next: Transaction): void {
    this.announceStep();
    const panelChanged = (s: TransactionStatus) => (s === 'SUCCESS' ? 'success' : s === 'REFUNDING' || s === 'REFUNDED' || s === 'FAILED' ? s : 'progress');
    if (panelChanged(previous.state.status) !== panelChanged(next.state.status)) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#phase-title')?.focus());
    }
  }

  private announceStep(): void {
    const news = this.tracker.stepNews(this.i18n);
    if (news) this.announce(news);
  }

  private onAgain = (): void => {
    this.resetPayout();
    void this.accountList.reload();
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#title')?.focus());
  };

  private requestRequote(reason: string): void {
    const exchangeRateId = this.source.kind === 'locked' ? this.exchangeRateId : undefined;
    this.dispatchEvent(new RampRequoteRequestedEvent({ reason, ...(exchangeRateId ? { exchangeRateId } : {}) }));
  }

  private resetPayout(): void {
    this.tracker.clear();
    this.payoutAccount = undefined;
    this.alert = undefined;
    this.submitted = false;
    this.purposeTouched = false;
    this.payoutServerErrors = {};
    this.payoutKeys.reset();
  }

  private report(error: unknown, operation: string): void {
    this.dispatchEvent(new RampErrorEvent(errorDetailFor(error, operation)));
  }

  /** Polite live region; the same sentence twice still changes the text, so it is read again. */
  private announce(message: string): void {
    this.announcement = message === this.announcement ? `${message}\u00a0` : message;
  }
}

/** The rail that pays out a fiat, for the add-account form's first choice under a known quote. */
function railFor(currency: Currency): BankRail {
  return currency === 'EUR' ? 'SEPA' : currency === 'USD' ? 'SWIFT' : 'PIX';
}

declare global {
  interface HTMLElementTagNameMap {
    'ramp-offramp': RampOfframp;
  }
}

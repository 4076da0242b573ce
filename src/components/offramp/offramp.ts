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
import { createBffClient, type BffClient } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { RampBankAccountCreatedEvent } from '../../events/bank-account-created';
import { RampErrorEvent } from '../../events/error';
import { RampRequoteRequestedEvent } from '../../events/requote-requested';
import { I18nController, type MessageKey, type TranslateArgs } from '../../i18n';
import { alertText } from '../transaction/alert-text';
import { PaymentLock } from '../transaction/lock';
import { alertFor, errorDetailFor, isReported, type TransactionAlert } from '../transaction/problems';
import { isTerminal } from '../transaction/steps';
import { TransactionTracker } from '../transaction/tracker';
import { AccountList } from './account-list';
import { BankAccountForm } from './bank-account-form';
import { keyTypeKeys } from './bank-labels';
import type { PixKeyType } from './model';
import { offrampStyles } from './offramp.styles';
import { offRampRequest, payoutSource, railFor, type PayoutSource } from './payout';
import { PayoutForm } from './payout-form';
import { panelOf, renderAddAccount, renderAlert, renderPayout, renderSummary } from './payout-views';

const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

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

  @state() private alert: TransactionAlert | undefined;
  @state() private announcement = '';

  private readonly i18n = new I18nController(this);
  private readonly payoutForm = new PayoutForm(this, this.i18n, () => this.selectedAccount, () => !this.tx);
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
    error: () => this.payoutForm.error('account'),
    renderAdd: () => renderAddAccount(this.i18n, this.bankForm.adding, this.bankForm.onToggleAdd),
    chosen: () => {
      if (this.payoutForm.accountChosen()) this.announce(this.t('offramp.purpose.selfOnly'));
    },
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

  // ── choosing ──

  private renderChoose(): TemplateResult {
    return html`
      <p class="muted">${this.t('offramp.intro')}</p>
      ${renderSummary(this.i18n, this.source, this.lockedQuote, this.lock)} ${this.accountList.render()} ${this.bankForm.adding ? this.bankForm.render() : nothing} ${this.renderPayoutForm()}
    `;
  }

  // ── the payout form ──

  private renderPayoutForm(): TemplateResult {
    return this.payoutForm.render({
      busy: this.payoutTask.status === TaskStatus.PENDING,
      missing: this.source.kind === 'missing',
      expired: this.lock.expired,
      alert: this.alert ? this.renderAlert(this.alert, () => void this.confirm(), 'alert') : nothing,
      keyTypeName: this.keyTypeName,
      submit: this.onConfirm,
    });
  }

  private renderAlert(alert: TransactionAlert, retry: () => void, testid: string): TemplateResult {
    return renderAlert(this.i18n, alert, { retry, requote: (reason) => this.requestRequote(reason) }, testid);
  }

  // ── the payout's life ──

  private renderTransaction(tx: Transaction): TemplateResult {
    return renderPayout(this.i18n, tx, {
      account: this.payoutAccount,
      stepper: this.tracker.renderStepper(tx, this.i18n),
      trouble: this.tracker.renderTrouble(this.i18n),
      keyTypeName: this.keyTypeName,
      again: this.onAgain,
    });
  }

  private accountCreated(account: BankAccount): void {
    this.dispatchEvent(new RampBankAccountCreatedEvent(account));
    this.announce(this.t('bank.saved', { name: account.name }));
    void this.accountList.added(account);
  }

  // ── paying out ──

  private onConfirm = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.confirm();
  };

  private async confirm(): Promise<void> {
    if (this.payoutTask.status === TaskStatus.PENDING) return;
    this.payoutForm.markSubmitted();
    this.alert = undefined;
    const source = this.source;
    if (source.kind === 'missing' || this.lock.expired) return;
    const checked = this.payoutForm.check(this.lockedQuote);
    if ('invalid' in checked) {
      this.announce(this.i18n.plural('tx.form.invalid', Math.max(1, checked.invalid.length)));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(checked.invalid[0] ?? '#offramp-purpose')?.focus();
      return;
    }
    const { account, purpose } = checked;
    this.payoutAccount = account;
    const body = offRampRequest(source, account, purpose);
    this.announce(this.t('offramp.confirming'));
    // Same body as a failed attempt → same key: one payout, however often the user retries.
    await this.payoutTask.run([body, this.payoutKeys.keyFor(body)]);
  }

  private payoutFailed(error: unknown): void {
    const alert = alertFor(error);
    if (!alert) return;
    const placed = this.payoutForm.placed(error);
    if (placed) {
      this.announce(this.i18n.plural('tx.form.invalid', placed.count));
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(placed.focus)?.focus());
      return;
    }
    this.alert = alert;
    this.announce(alertText(alert, this.i18n));
    if (isReported(alert)) this.report(error, 'createOffRamp');
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
    if (panelOf(previous.state.status) !== panelOf(next.state.status)) {
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
    this.payoutForm.reset();
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

declare global {
  interface HTMLElementTagNameMap {
    'ramp-offramp': RampOfframp;
  }
}

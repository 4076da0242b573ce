// <ramp-offramp>: picks (or adds) a payout bank account, confirms a locked quote with a purpose, and follows the off-ramp to SUCCESS or REFUNDED.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { Task, TaskStatus } from '@lit/task';
import type { BankAccount } from '../../contract/bank-accounts';
import type { Quote } from '../../contract/exchange-rates';
import type { BffOffRampRequest, Transaction } from '../../contract/transactions';
import { ADULT_AGE, isoDay } from '../../contract/customer-rules';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient, ProblemError, type BffClient, type BffCreateBankAccount, type Page } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { pollingFeed } from '../../client/feed';
import { transactionFeed } from '../../client/transaction-feed';
import { RampBankAccountCreatedEvent } from '../../events/bank-account-created';
import { RampErrorEvent } from '../../events/error';
import { RampRequoteRequestedEvent } from '../../events/requote-requested';
import { RampTransactionCreatedEvent } from '../../events/transaction-created';
import { RampTransactionUpdatedEvent } from '../../events/transaction-updated';
import { formatInstant, I18nController, type MessageKey, type TranslateArgs } from '../../i18n';
import { FeedController } from '../feed-controller';
import { countryOptions } from '../onboarding/countries';
import { refitTaxId, reformatTaxId, taxIdMaxLength } from '../onboarding/format';
import { formatAmount } from '../quote/amount';
import { alertText } from '../transaction/alert-text';
import { purposeKeys, stepLabelKey, stepStateKeys } from '../transaction/labels';
import { alertFor, errorDetailFor, isRetryable, placeFieldProblems, type TransactionAlert } from '../transaction/problems';
import { isPurpose, purposes } from '../transaction/purposes';
import { renderStepper } from '../transaction/stepper';
import { furthest, isTerminal, progressOf, type TransactionStatus } from '../transaction/steps';
import { holderName, identifierText } from './format';
import { formatIban } from './iban';
import {
  bankFieldOf,
  bankRails,
  emptyBankForm,
  holderTaxIdKind,
  holderTypes,
  isOptional,
  pixKeyTypes,
  relationships,
  toCreateBankAccount,
  visibleFields,
  type BankField,
  type BankForm,
  type BankRail,
  type HolderType,
  type PixKeyType,
} from './model';
import { offrampStyles } from './offramp.styles';
import { offRampRequest, payoutSource, purposeFits, unavailableReason, type PayoutSource } from './payout';
import { fieldError, validateBankForm, type BankFieldError } from './validators';

const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

type Currency = Quote['sourceCurrency'];
type AccountsState = 'idle' | 'loading' | 'ready' | 'error';
type PayoutField = 'account' | 'purpose';

/** Message keys of the bank form's labels; `holderName` is the holder's `name` in the API. */
const fieldLabelKeys = {
  name: 'bank.field.name',
  keyType: 'bank.field.keyType',
  keyValue: 'bank.field.keyValue',
  iban: 'bank.field.iban',
  bic: 'bank.field.bic',
  accountNumber: 'bank.field.accountNumber',
  bankName: 'bank.field.bankName',
  bankCountry: 'bank.field.bankCountry',
  relationship: 'bank.field.relationship',
  holderName: 'bank.field.holderName',
  legalName: 'bank.field.legalName',
  taxId: 'bank.field.taxId',
  birthDate: 'bank.field.birthDate',
  line1: 'bank.field.line1',
  city: 'bank.field.city',
  state: 'bank.field.state',
  postalCode: 'bank.field.postalCode',
  country: 'bank.field.country',
} as const satisfies Record<BankField, MessageKey>;

const errorKeys = {
  required: 'bank.error.required',
  cpf: 'bank.error.cpf',
  cnpj: 'bank.error.cnpj',
  email: 'bank.error.email',
  phone: 'bank.error.phone',
  evp: 'bank.error.evp',
  ibanShape: 'bank.error.ibanShape',
  ibanLength: 'bank.error.ibanLength',
  ibanChecksum: 'bank.error.ibanChecksum',
  bic: 'bank.error.bic',
  accountNumber: 'bank.error.accountNumber',
  country: 'bank.error.country',
  date: 'bank.error.date',
  futureDate: 'bank.error.futureDate',
  taxId: 'bank.error.taxId',
  tooLong: 'bank.error.tooLong',
} as const satisfies Record<Exclude<BankFieldError, 'underage'>, MessageKey>;

const keyTypeKeys = {
  CPF: 'bank.keyType.CPF',
  CNPJ: 'bank.keyType.CNPJ',
  EMAIL: 'bank.keyType.EMAIL',
  PHONE: 'bank.keyType.PHONE',
  EVP: 'bank.keyType.EVP',
} as const satisfies Record<PixKeyType, MessageKey>;

const keyHintKeys = {
  CPF: 'bank.keyValue.hint.CPF',
  CNPJ: 'bank.keyValue.hint.CNPJ',
  EMAIL: 'bank.keyValue.hint.EMAIL',
  PHONE: 'bank.keyValue.hint.PHONE',
  EVP: 'bank.keyValue.hint.EVP',
} as const satisfies Record<PixKeyType, MessageKey>;

const railKeys = { PIX: 'bank.rail.PIX', SEPA: 'bank.rail.SEPA', SWIFT: 'bank.rail.SWIFT' } as const satisfies Record<BankRail, MessageKey>;
const holderTypeKeys = { INDIVIDUAL: 'bank.holderType.INDIVIDUAL', BUSINESS: 'bank.holderType.BUSINESS' } as const satisfies Record<HolderType, MessageKey>;
const relationshipKeys = {
  SELF: 'bank.relationship.SELF',
  FRIEND: 'bank.relationship.FRIEND',
  RELATIVE: 'bank.relationship.RELATIVE',
  EMPLOYEE: 'bank.relationship.EMPLOYEE',
} as const;
const verificationKeys = {
  NOT_STARTED: 'status.NOT_STARTED',
  UNDER_VERIFICATION: 'status.UNDER_VERIFICATION',
  APPROVED: 'status.APPROVED',
  TEMPORARY_REJECTION: 'status.TEMPORARY_REJECTION',
  FINAL_REJECTION: 'status.FINAL_REJECTION',
} as const;

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
export class RampOfframp extends LitElement {
  static override styles = offrampStyles;

  /** The BFF's URL. Default: `/bff` beside the script's folder. */
  @property({ attribute: 'api-base' }) apiBase: string = defaultApiBase();

  /** A widget-session token bound to the customer who cashes out. */
  @property({ reflect: true, converter: optionalAttribute }) session = '';

  /** Language (`en`, `pt-BR`); when empty, the closest `[lang]` above, then the browser's. */
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

  @state() private accounts: Page<BankAccount> | undefined;
  @state() private accountsState: AccountsState = 'idle';
  @state() private accountsAlert: TransactionAlert | undefined;
  @state() private selectedId = '';
  /** The picked account itself, so the choice survives paging away from it. */
  @state() private picked: BankAccount | undefined;
  @state() private adding = false;
  @state() private form: BankForm = emptyBankForm();
  @state() private touched: ReadonlySet<BankField> = new Set();
  @state() private formSubmitted = false;
  @state() private formServerErrors: Partial<Record<BankField, string>> = {};
  @state() private formAlert: TransactionAlert | undefined;
  @state() private selectedPurpose = '';
  @state() private purposeTouched = false;
  @state() private submitted = false;
  @state() private payoutServerErrors: Partial<Record<PayoutField, string>> = {};
  @state() private alert: TransactionAlert | undefined;
  @state() private tx: Transaction | undefined;
  @state() private reached: TransactionStatus | undefined;
  @state() private statusTrouble = false;
  @state() private announcement = '';

  private readonly i18n = new I18nController(this);
  private readonly accountKeys = new IdempotencyKeys();
  private readonly payoutKeys = new IdempotencyKeys();
  /** The cursor of the page on screen (undefined: the first), so a re-read during verification reads the same page. */
  private cursor: string | undefined;
  private listAbort: AbortController | undefined;
  /** An account this element added: picked for the user as soon as its holder is approved. */
  private addedAccountId: string | undefined;
  /** The account of the payout on screen (the list may page away from it). */
  private payoutAccount: BankAccount | undefined;

  private readonly createAccountTask = new Task(this, {
    autoRun: false,
    task: ([body, idempotencyKey]: readonly [BffCreateBankAccount, string], { signal }) =>
      this.client().createBankAccount(body, { idempotencyKey, signal }),
    onComplete: (account) => void this.accountCreated(account),
    onError: (error) => this.accountFailed(error),
  });

  private readonly payoutTask = new Task(this, {
    autoRun: false,
    task: ([body, idempotencyKey]: readonly [BffOffRampRequest, string], { signal }) => this.client().createOffRamp(body, { idempotencyKey, signal }),
    onComplete: (tx) => void this.created(tx),
    onError: (error) => this.payoutFailed(error),
  });

  private readonly feed = new FeedController<Transaction>(this, {
    next: (tx) => this.observe(tx),
    error: (error) => this.feedFailed(error),
  });

  /** Re-reads the page on screen while a holder on it is under verification. */
  private readonly verificationFeed = new FeedController<Page<BankAccount>>(this, {
    next: (page) => this.showPage(page, false),
  });

  /** The transaction this element created and follows, once it exists. */
  get transaction(): Transaction | undefined {
    return this.tx;
  }

  /** The bank account currently picked (as last read, when it is on the page shown). */
  get selectedAccount(): BankAccount | undefined {
    if (!this.selectedId) return undefined;
    return this.accounts?.data.find((a) => a.id === this.selectedId) ?? (this.picked?.id === this.selectedId ? this.picked : undefined);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.listAbort?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const sourceChanged = changed.has('exchangeRateId') || changed.has('amount') || changed.has('stablecoin') || changed.has('blockchain');
    if (sourceChanged && this.hasUpdated && (!this.tx || isTerminal(this.tx.state.status))) this.resetPayout();
    // Here rather than in updated(): the loading state it sets joins this render instead of scheduling another.
    if (changed.has('session') || changed.has('apiBase') || changed.has('pageSize')) void this.loadPage(undefined);
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

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  private client(): BffClient {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session });
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
      ${this.renderSummary()} ${this.renderAccounts()} ${this.adding ? this.renderBankForm() : nothing} ${this.renderPayoutForm()}
    `;
  }

  private renderSummary(): TemplateResult | typeof nothing {
    const source = this.source;
    if (source.kind === 'missing') return html`<div class="notice" data-tone="danger" data-testid="missing">${this.t('offramp.missing')}</div>`;
    const quote = this.lockedQuote;
    if (source.kind === 'locked' && !quote) return nothing;
    return html`
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

  private renderAccounts(): TemplateResult {
    const page = this.accounts;
    const error = this.payoutFieldError('account');
    return html`
      <fieldset part="accounts" class="section" data-testid="accounts" aria-describedby=${error ? 'accounts-error' : nothing}>
        <legend id="accounts-legend" tabindex="-1">${this.t('offramp.accounts.legend')}</legend>
        ${this.accountsAlert ? this.renderAlert(this.accountsAlert, () => void this.loadPage(this.cursor), 'accounts-alert') : nothing}
        ${this.accountsState === 'loading' && !page
          ? html`<p class="busy" data-testid="accounts-loading"><span class="spinner" aria-hidden="true"></span>${this.t('offramp.accounts.loading')}</p>`
          : nothing}
        ${page && page.data.length === 0 && !page.pagination.hasPreviousPage
          ? html`<p class="muted" data-testid="accounts-empty">${this.t('offramp.accounts.empty')}</p>`
          : nothing}
        ${page && page.data.length > 0
          ? html`<div class="accounts-list" data-testid="account-list" aria-busy=${this.accountsState === 'loading' ? 'true' : 'false'}>
              ${page.data.map((account) => this.renderAccount(account))}
            </div>`
          : nothing}
        ${error ? html`<p id="accounts-error" part="error" class="error" data-testid="account-error">${error}</p>` : nothing}
        ${page && (page.pagination.hasNextPage || page.pagination.hasPreviousPage) ? this.renderPager(page) : nothing}
        <div class="actions start">
          <button
            part="add-account"
            type="button"
            data-testid="add-account"
            aria-expanded=${this.adding ? 'true' : 'false'}
            aria-controls="bank-form"
            @click=${this.onToggleAdd}
          >
            ${this.t('offramp.accounts.add')}
          </button>
        </div>
      </fieldset>
    `;
  }

  private renderAccount(account: BankAccount): TemplateResult {
    const status = account.holder.verification.status;
    const reason = unavailableReason(account, this.lockedQuote);
    const detailId = `account-${account.id}-detail`;
    return html`
      <label part="account" class="choice account" data-testid="account" data-account-id=${account.id} data-status=${status}>
        <input
          type="radio"
          name="bankAccount"
          value=${account.id}
          .checked=${account.id === this.selectedId}
          ?disabled=${reason !== undefined}
          aria-describedby=${detailId}
          @change=${this.onAccountChange}
        />
        <span class="account-text">
          <span class="account-head">
            <span>${account.name}</span>
            <span part="badge" class="badge" data-status=${status}>${this.t(verificationKeys[status])}</span>
          </span>
          <span id=${detailId} class="hint account-detail">
            ${this.t(railKeys[account.rail])} · ${identifierText(account)} · ${holderName(account)} (${this.t(relationshipKeys[account.holder.relationship])})
            ${reason === 'verification' ? html`<br />${this.t('offramp.accounts.pending')}` : nothing}
            ${reason === 'currency' ? html`<br />${this.t('offramp.accounts.otherCurrency', { currency: this.lockedQuote?.targetCurrency ?? '' })}` : nothing}
          </span>
        </span>
      </label>
    `;
  }

  private renderPager(page: Page<BankAccount>): TemplateResult {
    const busy = this.accountsState === 'loading';
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

  // ── the add-account form ──

  private renderBankForm(): TemplateResult {
    const busy = this.createAccountTask.status === TaskStatus.PENDING;
    const f = this.form;
    return html`
      <form
        id="bank-form"
        part="bank-form"
        class="bank-form"
        novalidate
        data-testid="bank-form"
        aria-labelledby="bank-form-title"
        aria-busy=${busy ? 'true' : 'false'}
        @submit=${this.onSaveAccount}
      >
        <h3 id="bank-form-title" tabindex="-1">${this.t('bank.form.title')}</h3>
        ${this.formAlert ? this.renderAlert(this.formAlert, () => void this.saveAccount(), 'bank-alert') : nothing}
        <fieldset>
          <legend>${this.t('bank.rail.legend')}</legend>
          <div class="choices">
            ${bankRails.map(
              (rail) => html`
                <label class="choice">
                  <input type="radio" name="rail" value=${rail} data-testid="rail-${rail}" .checked=${f.rail === rail} @change=${this.onRailChange} />
                  <span>${this.t(railKeys[rail])}</span>
                </label>
              `,
            )}
          </div>
        </fieldset>
        ${this.renderBankField('name')}
        <div class="grid-2">${visibleFields(f).filter((x) => x === 'keyType' || x === 'keyValue' || x === 'iban' || x === 'bic' || x === 'accountNumber' || x === 'bankName' || x === 'bankCountry').map((x) => this.renderBankField(x))}</div>
        <fieldset class="section">
          <legend>${this.t('bank.holder.legend')}</legend>
          <div class="choices">
            ${holderTypes.map(
              (type) => html`
                <label class="choice">
                  <input type="radio" name="holderType" value=${type} data-testid="holder-${type}" .checked=${f.holderType === type} @change=${this.onHolderTypeChange} />
                  <span>${this.t(holderTypeKeys[type])}</span>
                </label>
              `,
            )}
          </div>
          <div class="grid-2">
            ${visibleFields(f)
              .filter((x) => x === 'relationship' || x === 'holderName' || x === 'legalName' || x === 'taxId' || x === 'birthDate')
              .map((x) => this.renderBankField(x))}
          </div>
        </fieldset>
        <fieldset class="section">
          <legend>${this.t('bank.address.legend')}</legend>
          <div class="grid-2">${(['line1', 'city', 'state', 'postalCode', 'country'] as const).map((x) => this.renderBankField(x))}</div>
        </fieldset>
        <div class="actions">
          <button type="button" data-testid="cancel-account" @click=${this.onToggleAdd}>${this.t('bank.cancel')}</button>
          <button part="save" class="primary" type="submit" data-testid="save-account" aria-disabled=${busy ? 'true' : 'false'}>
            ${busy ? this.t('bank.saving') : this.t('bank.save')}
          </button>
        </div>
      </form>
    `;
  }

  private renderBankField(field: BankField): TemplateResult {
    const id = `bank-${field}`;
    const error = this.bankFieldErrorText(field);
    const hint = this.bankHint(field);
    const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || nothing;
    const optional = isOptional(this.form, field);
    return html`
      <div part="field field-${field}" class="field">
        <label part="label" for=${id}>
          ${this.bankLabel(field)}${optional ? html` <span class="optional">(${this.t('bank.optional')})</span>` : nothing}
        </label>
        ${this.renderBankControl(field, id, Boolean(error), describedBy, !optional)}
        ${hint ? html`<p id="${id}-hint" part="hint" class="hint">${hint}</p>` : nothing}
        ${error ? html`<p id="${id}-error" part="error" class="error" data-testid="${id}-error">${error}</p>` : nothing}
      </div>
    `;
  }

  private renderBankControl(field: BankField, id: string, invalid: boolean, describedBy: string | typeof nothing, required: boolean): TemplateResult {
    const f = this.form;
    const aria = { invalid: invalid ? 'true' : 'false' };
    switch (field) {
      case 'keyType':
        return html`<select id=${id} name=${field} part="select" aria-invalid=${aria.invalid} aria-describedby=${describedBy} @change=${this.onKeyTypeChange}>
          ${pixKeyTypes.map((k) => html`<option value=${k} ?selected=${f.keyType === k}>${this.t(keyTypeKeys[k])}</option>`)}
        </select>`;
      case 'relationship':
        return html`<select id=${id} name=${field} part="select" aria-invalid=${aria.invalid} aria-describedby=${describedBy} @change=${this.onSelect}>
          ${relationships.map((r) => html`<option value=${r} ?selected=${f.relationship === r}>${this.t(relationshipKeys[r])}</option>`)}
        </select>`;
      case 'country':
      case 'bankCountry':
        return html`<select
          id=${id}
          name=${field}
          part="select"
          ?required=${required}
          autocomplete=${field === 'country' ? 'country' : 'off'}
          aria-invalid=${aria.invalid}
          aria-describedby=${describedBy}
          @change=${this.onSelect}
          @blur=${this.onBlur}
        >
          <option value="" ?selected=${!f[field]}>${this.t('bank.country.placeholder')}</option>
          ${countryOptions(this.i18n.locale, f.rail === 'PIX' ? ['BRA'] : f.rail === 'SEPA' ? ['PRT', 'DEU', 'FRA', 'ESP', 'ITA'] : ['USA'])
            .map((c) => html`<option value=${c.code} ?selected=${c.code === f[field]}>${c.name}</option>`)}
        </select>`;
      case 'birthDate':
        return html`<input
          id=${id}
          name=${field}
          part="input"
          type="date"
          min="1900-01-01"
          max=${isoDay(new Date())}
          aria-invalid=${aria.invalid}
          aria-describedby=${describedBy}
          .value=${f.birthDate}
          @input=${this.onInput}
          @change=${this.onInput}
          @blur=${this.onBlur}
        />`;
      default: {
        const text = this.textAttributes(field);
        return html`<input
          id=${id}
          name=${field}
          part="input"
          type=${text.type}
          inputmode=${text.inputmode ?? nothing}
          autocomplete=${text.autocomplete}
          autocapitalize=${text.autocapitalize ?? nothing}
          spellcheck="false"
          maxlength=${text.maxlength ?? nothing}
          ?required=${required}
          aria-invalid=${aria.invalid}
          aria-describedby=${describedBy}
          .value=${f[field]}
          @input=${this.onInput}
          @blur=${this.onBlur}
        />`;
      }
    }
  }

  private textAttributes(field: BankField): { type: string; inputmode?: string; autocomplete: string; autocapitalize?: string; maxlength?: number } {
    const f = this.form;
    switch (field) {
      case 'keyValue':
        switch (f.keyType) {
          case 'CPF':
            return { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: taxIdMaxLength.cpf };
          case 'CNPJ':
            return { type: 'text', autocomplete: 'off', autocapitalize: 'characters', maxlength: taxIdMaxLength.cnpj };
          case 'EMAIL':
            return { type: 'email', inputmode: 'email', autocomplete: 'off', maxlength: 77 };
          case 'PHONE':
            return { type: 'tel', inputmode: 'tel', autocomplete: 'off', maxlength: 20 };
          case 'EVP':
            return { type: 'text', autocomplete: 'off', maxlength: 36 };
        }
      case 'taxId':
        return {
          type: 'text',
          inputmode: holderTaxIdKind(f) === 'cpf' ? 'numeric' : undefined,
          autocomplete: 'off',
          autocapitalize: 'characters',
          maxlength: taxIdMaxLength[holderTaxIdKind(f)],
        };
      case 'iban':
        return { type: 'text', autocomplete: 'off', autocapitalize: 'characters', maxlength: 42 };
      case 'bic':
        return { type: 'text', autocomplete: 'off', autocapitalize: 'characters', maxlength: 11 };
      case 'accountNumber':
        return { type: 'text', autocomplete: 'off', autocapitalize: 'characters', maxlength: 40 };
      case 'holderName':
        return { type: 'text', autocomplete: 'name', maxlength: 200 };
      case 'legalName':
        return { type: 'text', autocomplete: 'organization', maxlength: 200 };
      case 'line1':
        return { type: 'text', autocomplete: 'address-line1', maxlength: 200 };
      case 'city':
        return { type: 'text', autocomplete: 'address-level2', maxlength: 100 };
      case 'state':
        return { type: 'text', autocomplete: 'address-level1', maxlength: 100 };
      case 'postalCode':
        return { type: 'text', autocomplete: 'postal-code', maxlength: 20 };
      default:
        break;
    }
    return { type: 'text', autocomplete: 'off', maxlength: field === 'name' ? 100 : 140 };
  }

  private bankLabel(field: BankField): string {
    if (field === 'taxId') {
      const kind = holderTaxIdKind(this.form);
      return kind === 'cpf' ? this.t('bank.field.taxId.cpf') : kind === 'cnpj' ? this.t('bank.field.taxId.cnpj') : this.t('bank.field.taxId');
    }
    if (field === 'bic' && this.form.rail === 'SWIFT') return this.t('bank.field.swiftCode');
    return this.t(fieldLabelKeys[field]);
  }

  private bankHint(field: BankField): string | undefined {
    switch (field) {
      case 'name':
        return this.t('bank.field.name.hint');
      case 'keyValue':
        return this.t(keyHintKeys[this.form.keyType]);
      case 'iban':
        return this.t('bank.field.iban.hint');
      case 'bic':
        return this.t('bank.field.bic.hint');
      case 'relationship':
        return this.t('bank.field.relationship.hint');
      default:
        return undefined;
    }
  }

  /** Server errors show at once; client errors after the field was left or a save was tried. */
  private bankFieldErrorText(field: BankField): string | undefined {
    const server = this.formServerErrors[field];
    if (server) return this.t('tx.error.rejected', { message: server });
    if (!this.formSubmitted && !this.touched.has(field)) return undefined;
    const error = fieldError(this.form, field, isoDay(new Date()));
    if (error === 'underage') return this.t('bank.error.underage', { age: ADULT_AGE });
    return error ? this.t(errorKeys[error]) : undefined;
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
          ? html`<p class="muted" data-testid="selected-account">${this.t('offramp.to')}: ${account.name} · ${identifierText(account)}</p>`
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
        <div class="actions">
          <button
            part="submit"
            class="primary"
            type="submit"
            data-testid="confirm-payout"
            aria-disabled=${busy || this.source.kind === 'missing' ? 'true' : 'false'}
          >
            ${busy ? this.t('offramp.confirming') : this.t('offramp.confirm')}
          </button>
        </div>
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
    const stepper = renderStepper(progressOf('OFF_RAMP', status, this.reached), {
      heading: this.t('tx.progress'),
      label: (s) => this.t(stepLabelKey('OFF_RAMP', s)),
      state: (s) => (s === 'upcoming' ? '' : this.t(stepStateKeys[s])),
    });
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
              <dd>${account.name} · ${identifierText(account)}</dd>`
          : nothing}
        <dt>${this.t('offramp.reference')}</dt>
        <dd data-testid="reference">${tx.id}</dd>
      </dl>
    `;
    const trouble = this.statusTrouble ? html`<p class="muted" data-testid="status-trouble">${this.t('tx.status.slow')}</p>` : nothing;
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

  private async loadPage(cursor: string | undefined, focusAfter?: 'previous' | 'next' | 'legend'): Promise<void> {
    this.listAbort?.abort();
    this.verificationFeed.stop();
    if (!this.session) {
      this.accountsState = 'idle';
      return;
    }
    const abort = (this.listAbort = new AbortController());
    this.accountsState = 'loading';
    this.accountsAlert = undefined;
    try {
      const page = await this.client().listBankAccounts({ size: this.pageSize, cursor }, { signal: abort.signal });
      if (abort.signal.aborted) return;
      this.cursor = cursor;
      this.showPage(page, true);
      if (focusAfter) await this.focusAfterPaging(focusAfter);
    } catch (error) {
      if (abort.signal.aborted) return;
      this.accountsState = 'error';
      this.accountsAlert = alertFor(error);
      if (this.accountsAlert) this.report(error, 'listBankAccounts');
    }
  }

  /** A page arrived (a new one, or the same one re-read while a holder is verified): announce what changed, keep following if needed. */
  private showPage(page: Page<BankAccount>, fresh: boolean): void {
    const before = new Map(this.accounts?.data.map((a) => [a.id, a.holder.verification.status]));
    this.accounts = page;
    this.accountsState = 'ready';
    if (!fresh) {
      for (const account of page.data) {
        const was = before.get(account.id);
        const now = account.holder.verification.status;
        if (was && was !== now) this.announce(this.t('offramp.accounts.statusChanged', { name: account.name, status: this.t(verificationKeys[now]) }));
      }
    }
    // The account the user just added is picked for them once it can receive money, if they have picked none.
    const added = page.data.find((a) => a.id === this.addedAccountId);
    if (added && !this.selectedId && unavailableReason(added, this.lockedQuote) === undefined) {
      this.selectedId = added.id;
      this.addedAccountId = undefined;
    }
    const fresher = page.data.find((a) => a.id === this.selectedId);
    if (fresher) this.picked = fresher;
    const verifying = page.data.some((a) => a.holder.verification.status === 'UNDER_VERIFICATION' || a.holder.verification.status === 'NOT_STARTED');
    if (!verifying) this.verificationFeed.stop();
    else if (!this.verificationFeed.active) {
      const client = this.client();
      const size = this.pageSize;
      const cursor = this.cursor;
      this.verificationFeed.start((immediate) =>
        pollingFeed((signal) => client.listBankAccounts({ size, cursor }, { signal }), { intervalMs: this.pollInterval, immediate }),
      );
    }
  }

  private turnPage(cursor: string | null, direction: 'previous' | 'next'): void {
    if (!cursor || this.accountsState === 'loading') return;
    void this.loadPage(cursor, direction);
  }

  /** The pressed button may now be disabled (first or last page): then focus goes to the list, never to the page's body. */
  private async focusAfterPaging(pressed: 'previous' | 'next' | 'legend'): Promise<void> {
    await this.updateComplete;
    const page = this.accounts;
    this.announce(this.i18n.plural('offramp.accounts.shown', page?.data.length ?? 0));
    const button = pressed === 'legend' ? null : this.renderRoot.querySelector<HTMLButtonElement>(`[data-testid="accounts-${pressed}"]`);
    if (button && !button.disabled) return button.focus();
    const first = this.renderRoot.querySelector<HTMLInputElement>('input[name="bankAccount"]:not(:disabled)');
    (first ?? this.renderRoot.querySelector<HTMLElement>('#accounts-legend'))?.focus();
  }

  // ── bank accounts: adding ──

  private onToggleAdd = async (): Promise<void> => {
    this.adding = !this.adding;
    if (this.adding) {
      this.form = emptyBankForm(this.lockedQuote ? railFor(this.lockedQuote.targetCurrency) : 'PIX');
      this.touched = new Set();
      this.formSubmitted = false;
      this.formServerErrors = {};
      this.formAlert = undefined;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#bank-form-title')?.focus();
    } else {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[data-testid="add-account"]')?.focus();
    }
  };

  private setField(field: keyof BankForm, value: string): void {
    if (this.form[field] === value) return;
    this.form = { ...this.form, [field]: value };
    if (this.formServerErrors[field as BankField]) {
      const { [field as BankField]: _, ...rest } = this.formServerErrors;
      this.formServerErrors = rest;
    }
  }

  private onInput = (event: InputEvent): void => {
    const input = event.target as HTMLInputElement;
    const field = input.name as BankField;
    const kind = field === 'taxId' ? holderTaxIdKind(this.form) : field === 'keyValue' && (this.form.keyType === 'CPF' || this.form.keyType === 'CNPJ') ? (this.form.keyType === 'CPF' ? 'cpf' : 'cnpj') : undefined;
    if (kind && kind !== 'other') {
      // CPF / CNPJ punctuation while typing, the caret kept where the user types (the onboarding form's own helper).
      const edit = reformatTaxId(kind, input.value, input.selectionStart ?? input.value.length, this.form[field], event.inputType);
      if (input.value !== edit.value) input.value = edit.value;
      if (this.shadowRoot?.activeElement === input) input.setSelectionRange(edit.caret, edit.caret);
      this.setField(field, edit.value);
      return;
    }
    this.setField(field, input.value);
  };

  private onSelect = (event: Event): void => {
    const select = event.target as HTMLSelectElement;
    const before = holderTaxIdKind(this.form);
    this.setField(select.name as BankField, select.value);
    // The holder's country decides what a tax id looks like (CPF/CNPJ in Brazil): re-fit what was typed.
    const after = holderTaxIdKind(this.form);
    if (after !== before && this.form.taxId) this.setField('taxId', refitTaxId(after, this.form.taxId));
    this.markTouched(select.name as BankField);
  };

  private onBlur = (event: FocusEvent): void => {
    const input = event.target as HTMLInputElement;
    const field = input.name as BankField;
    if (!this.adding || !visibleFields(this.form).includes(field)) return;
    // The IBAN reads back in groups of four once the user is done with it; the API gets the electronic form.
    if (field === 'iban' && this.form.iban) this.setField('iban', formatIban(this.form.iban));
    if (field === 'bic') this.setField('bic', this.form.bic.trim().toUpperCase());
    this.markTouched(field);
  };

  private markTouched(field: BankField): void {
    if (!this.touched.has(field)) this.touched = new Set([...this.touched, field]);
    const message = this.bankFieldErrorText(field);
    if (message && !this.formSubmitted) this.announce(this.t('tx.field.error', { field: this.bankLabel(field), message }));
  }

  private onRailChange = (event: Event): void => {
    const rail = (event.target as HTMLInputElement).value as BankRail;
    const country = this.form.country || (rail === 'PIX' ? 'BRA' : '');
    const next = { ...this.form, rail, country };
    // Typed values stay (the user may switch back); the tax id is re-fitted if the holder's presumed country changed.
    const kind = holderTaxIdKind(next);
    this.form = kind === holderTaxIdKind(this.form) ? next : { ...next, taxId: refitTaxId(kind, next.taxId) };
    this.formServerErrors = {};
  };

  private onHolderTypeChange = (event: Event): void => {
    const holderType = (event.target as HTMLInputElement).value as HolderType;
    this.form = { ...this.form, holderType, taxId: '' };
    this.touched = new Set([...this.touched].filter((f) => f !== 'taxId'));
    this.formServerErrors = {};
  };

  private onKeyTypeChange = (event: Event): void => {
    const keyType = (event.target as HTMLSelectElement).value as PixKeyType;
    this.form = { ...this.form, keyType, keyValue: '' };
    this.touched = new Set([...this.touched].filter((f) => f !== 'keyValue'));
  };

  private onSaveAccount = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.saveAccount();
  };

  private async saveAccount(): Promise<void> {
    if (this.createAccountTask.status === TaskStatus.PENDING) return;
    this.formSubmitted = true;
    this.formAlert = undefined;
    const errors = validateBankForm(this.form, isoDay(new Date()));
    const invalid = visibleFields(this.form).filter((f) => errors[f] || this.formServerErrors[f]);
    if (invalid.length > 0) {
      this.announce(this.i18n.plural('tx.form.invalid', invalid.length));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(`#bank-${invalid[0]}`)?.focus();
      return;
    }
    const body = toCreateBankAccount(this.form);
    this.announce(this.t('bank.saving'));
    await this.createAccountTask.run([body, this.accountKeys.keyFor(body)]);
  }

  private async accountCreated(account: BankAccount): Promise<void> {
    this.accountKeys.reset();
    this.adding = false;
    this.addedAccountId = account.id;
    this.dispatchEvent(new RampBankAccountCreatedEvent(account));
    this.announce(this.t('bank.saved', { name: account.name }));
    // Newest first: the new account is at the top of the first page.
    await this.loadPage(undefined);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#accounts-legend')?.focus();
  }

  private accountFailed(error: unknown): void {
    const alert = alertFor(error);
    if (!alert) return;
    if (error instanceof ProblemError && (error.status === 400 || error.status === 422)) {
      const { fields, unplaced } = placeFieldProblems(error.errors, bankFieldOf);
      const visible = visibleFields(this.form);
      const placed = Object.fromEntries(Object.entries(fields).filter(([f]) => visible.includes(f as BankField))) as Partial<Record<BankField, string>>;
      this.formServerErrors = { ...this.formServerErrors, ...placed };
      const first = visible.find((f) => placed[f]);
      if (first) {
        this.announce(this.i18n.plural('tx.form.invalid', Object.keys(placed).length));
        void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#bank-${first}`)?.focus());
      }
      const rest = [...unplaced, ...Object.entries(fields).filter(([f]) => !visible.includes(f as BankField)).map(([path, message]) => ({ path, message: String(message) }))];
      if (first && rest.length === 0) return;
      this.formAlert = { kind: 'validation', detail: rest.map((p) => `${p.path}: ${p.message}`).join('; ') || error.detail };
      return;
    }
    this.formAlert = alert;
    this.report(error, 'createBankAccount');
  }

  // ── paying out ──

  private onAccountChange = (event: Event): void => {
    this.selectedId = (event.target as HTMLInputElement).value;
    this.picked = this.accounts?.data.find((a) => a.id === this.selectedId);
    const { account: _, ...rest } = this.payoutServerErrors;
    this.payoutServerErrors = rest;
    const purpose = this.selectedPurpose;
    if (isPurpose(purpose) && !purposeFits(purpose, this.selectedAccount)) this.announce(this.t('offramp.purpose.selfOnly'));
  };

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
    if (source.kind === 'missing') return;
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
    this.tx = tx;
    this.reached = tx.state.status;
    this.verificationFeed.stop();
    this.dispatchEvent(new RampTransactionCreatedEvent(tx));
    if (!isTerminal(tx.state.status)) {
      const client = this.client();
      this.feed.start((immediate) => transactionFeed(client, tx.id, { intervalMs: this.pollInterval, immediate }));
    }
    this.announceStep(tx);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#phase-title')?.focus();
  }

  private observe(next: Transaction): void {
    const previous = this.tx;
    if (!previous || next.id !== previous.id) return;
    this.statusTrouble = false;
    this.tx = next;
    if (next.state.status === previous.state.status) return;
    this.reached = furthest('OFF_RAMP', this.reached, next.state.status);
    if (isTerminal(next.state.status)) this.feed.stop();
    this.dispatchEvent(new RampTransactionUpdatedEvent(next));
    this.announceStep(next);
    const panelChanged = (s: TransactionStatus) => (s === 'SUCCESS' ? 'success' : s === 'REFUNDING' || s === 'REFUNDED' || s === 'FAILED' ? s : 'progress');
    if (panelChanged(previous.state.status) !== panelChanged(next.state.status)) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#phase-title')?.focus());
    }
  }

  private announceStep(tx: Transaction): void {
    const progress = progressOf('OFF_RAMP', tx.state.status, this.reached);
    const step = progress.steps[progress.current];
    if (!step) return;
    const label = this.t(stepLabelKey('OFF_RAMP', step.status));
    this.announce(this.t('tx.announce.step', { current: progress.current + 1, total: progress.steps.length, label }));
  }

  private feedFailed(error: unknown): void {
    if (error instanceof ProblemError && (error.status === 401 || error.status === 403 || error.status === 404)) {
      this.feed.stop();
      this.alert = alertFor(error);
      this.report(error, 'getTransaction');
      return;
    }
    this.statusTrouble = true;
  }

  private onAgain = (): void => {
    this.resetPayout();
    void this.loadPage(this.cursor);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#title')?.focus());
  };

  private requestRequote(reason: string): void {
    const exchangeRateId = this.source.kind === 'locked' ? this.exchangeRateId : undefined;
    this.dispatchEvent(new RampRequoteRequestedEvent({ reason, ...(exchangeRateId ? { exchangeRateId } : {}) }));
  }

  private resetPayout(): void {
    this.feed.stop();
    this.tx = undefined;
    this.reached = undefined;
    this.payoutAccount = undefined;
    this.alert = undefined;
    this.statusTrouble = false;
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

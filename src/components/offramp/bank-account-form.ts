// The add-account form of <ramp-offramp>: a PIX, SEPA or SWIFT payout account with its holder, checked as the server checks (validators.ts), "Me" filled from the customer.
import type { FieldProblemKey } from '../../i18n/problem-words';
import { html, nothing, type LitElement, type TemplateResult } from 'lit';
import { Task, TaskStatus } from '@lit/task';
import type { BankAccount } from '../../contract/bank-accounts';
import type { Customer } from '../../contract/customers';
import { ADULT_AGE, isoDay } from '../../contract/customer-rules';
import { ProblemError, type BffClient, type BffCreateBankAccount } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import type { I18nController, MessageKey, TranslateArgs } from '../../i18n';
import { formatIban } from '../../rules/iban';
import { refitTaxId, reformatTaxId } from '../onboarding/format';
import { radioChoice } from '../radio-choice';
import { alertFor, placeFieldProblems, type TransactionAlert } from '../transaction/problems';
import { errorKeys, holderTypeKeys, railKeys } from './bank-labels';
import { bankLabel, renderBankField } from './bank-fields';
import {
  bankFieldOf,
  bankRails,
  emptyBankForm,
  holderTaxIdKind,
  holderTypes,
  selfHolder,
  toCreateBankAccount,
  visibleFields,
  type BankField,
  type BankForm,
  type BankRail,
  type HolderType,
  type PixKeyType,
  type SelfHolder,
} from './model';
import { fieldError, validateBankForm } from './validators';

export interface BankAccountFormOptions {
  client: () => BffClient;
  session: () => string;
  /** The rail the form starts on (the one that pays out the locked quote's fiat). */
  rail: () => BankRail;
  announce: (message: string) => void;
  report: (error: unknown, operation: string) => void;
  renderAlert: (alert: TransactionAlert, retry: () => void, testid: string) => TemplateResult;
  /** Saved: the form has closed. */
  created: (account: BankAccount) => void;
}

interface BankFormState {
  adding: boolean;
  form: BankForm;
  touched: ReadonlySet<BankField>;
  submitted: boolean;
  serverErrors: Partial<Record<BankField, FieldProblemKey>>;
  alert: TransactionAlert | undefined;
  /** What "Me" filled in from the customer, while the holder is SELF (undefined until the customer is read). */
  selfFilled: SelfHolder | undefined;
}

/**
 * The form a host opens with `onToggleAdd` and shows with `render()` while `adding`: its model value (what goes to
 * the API) in `form`, errors after a field was touched or the form submitted, the server's field problems placed on
 * their fields. It renders into the host's shadow root, so the host's styles and tests reach it unchanged.
 */
export class BankAccountForm {
  private s: BankFormState = {
    adding: false,
    form: emptyBankForm(),
    touched: new Set(),
    submitted: false,
    serverErrors: {},
    alert: undefined,
    selfFilled: undefined,
  };
  private readonly accountKeys = new IdempotencyKeys();
  /** The session's customer, read once per session for "Me" (SELF) holders. */
  private customerRead: { session: string; customer: Promise<Customer | undefined> } | undefined;

  private readonly createAccountTask: Task<readonly [BffCreateBankAccount, string], BankAccount>;

  constructor(
    private readonly host: LitElement,
    private readonly i18n: I18nController,
    private readonly options: BankAccountFormOptions,
  ) {
    this.createAccountTask = new Task(host, {
      autoRun: false,
      task: ([body, idempotencyKey]: readonly [BffCreateBankAccount, string], { signal }) =>
        this.options.client().createBankAccount(body, { idempotencyKey, signal }),
      onComplete: (account) => this.accountCreated(account),
      onError: (error) => this.accountFailed(error),
    });
  }

  get adding(): boolean {
    return this.s.adding;
  }

  private patch(change: Partial<BankFormState>): void {
    this.s = { ...this.s, ...change };
    this.host.requestUpdate();
  }

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  private accountCreated(account: BankAccount): void {
    this.accountKeys.reset();
    this.patch({ adding: false });
    this.options.created(account);
  }

  render(): TemplateResult {
    const busy = this.createAccountTask.status === TaskStatus.PENDING;
    const f = this.s.form;
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
        ${this.s.alert ? this.options.renderAlert(this.s.alert, () => void this.saveAccount(), 'bank-alert') : nothing}
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
            ${holderTypes.map((type) =>
              radioChoice({
                name: 'holderType',
                value: type,
                testid: `holder-${type}`,
                label: this.t(holderTypeKeys[type]),
                checked: f.holderType === type,
                disabled: this.s.selfFilled !== undefined && this.s.selfFilled.holderType !== type,
                onChange: this.onHolderTypeChange,
              }),
            )}
          </div>
          <div class="grid-2">
            ${visibleFields(f)
              .filter((x) => x === 'relationship' || x === 'holderName' || x === 'legalName' || x === 'taxId' || x === 'birthDate' || x === 'incorporationDate' || x === 'email')
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
    const { form, selfFilled } = this.s;
    return renderBankField(this.i18n, { form, selfFilled, error: this.bankFieldErrorText, ...this.fieldHandlers }, field);
  }

  /** Server errors show at once; client errors after the field was left or a save was tried. */
  private bankFieldErrorText = (field: BankField): string | undefined => {
    const server = this.s.serverErrors[field];
    if (server) return this.t(server);
    if (!this.s.submitted && !this.s.touched.has(field)) return undefined;
    const error = fieldError(this.s.form, field, isoDay(new Date()));
    if (error === 'underage') return this.t('bank.error.underage', { age: ADULT_AGE });
    return error ? this.t(errorKeys[error]) : undefined;
  };

  // ── input ──

  readonly onToggleAdd = async (): Promise<void> => {
    this.patch({ adding: !this.s.adding });
    if (this.s.adding) {
      this.patch({ form: emptyBankForm(this.options.rail()), touched: new Set(), submitted: false, serverErrors: {}, alert: undefined, selfFilled: undefined });
      void this.fillSelf(false); // the holder starts as "Me"
      await this.host.updateComplete;
      this.host.renderRoot.querySelector<HTMLElement>('#bank-form-title')?.focus();
    } else {
      await this.host.updateComplete;
      this.host.renderRoot.querySelector<HTMLElement>('[data-testid="add-account"]')?.focus();
    }
  };

  private setField(field: keyof BankForm, value: string): void {
    if (this.s.form[field] === value) return;
    this.patch({ form: { ...this.s.form, [field]: value } });
    if (this.s.serverErrors[field as BankField]) {
      const { [field as BankField]: _, ...rest } = this.s.serverErrors;
      this.patch({ serverErrors: rest });
    }
  }

  private onInput = (event: InputEvent): void => {
    const input = event.target as HTMLInputElement;
    const field = input.name as BankField;
    const kind = field === 'taxId' ? holderTaxIdKind(this.s.form) : field === 'keyValue' && (this.s.form.keyType === 'CPF' || this.s.form.keyType === 'CNPJ') ? (this.s.form.keyType === 'CPF' ? 'cpf' : 'cnpj') : undefined;
    if (kind && kind !== 'other') {
      // CPF / CNPJ punctuation while typing, the caret kept where the user types (the onboarding form's own helper).
      const edit = reformatTaxId(kind, input.value, input.selectionStart ?? input.value.length, this.s.form[field], event.inputType);
      if (input.value !== edit.value) input.value = edit.value;
      if (this.host.shadowRoot?.activeElement === input) input.setSelectionRange(edit.caret, edit.caret);
      this.setField(field, edit.value);
      return;
    }
    this.setField(field, input.value);
  };

  /** The session's customer, read once per session; undefined when it cannot be read (the holder is then typed by hand). */
  private readCustomer(): Promise<Customer | undefined> {
    if (this.customerRead?.session !== this.options.session()) {
      this.customerRead = { session: this.options.session(), customer: this.options.client().getCustomer().catch(() => undefined) };
    }
    return this.customerRead.customer;
  }

  /**
   * "Me": the holder is the customer, so its type, name, tax id, dates and address come from the customer (the tax id
   * then follows the customer's country, and cannot be edited: the server accepts only the customer's own). Chosen
   * explicitly, it replaces what was typed; as the form's default, it fills only what the user has not typed meanwhile.
   */
  private async fillSelf(overwrite: boolean): Promise<void> {
    if (this.s.form.relationship !== 'SELF') return;
    const customer = await this.readCustomer();
    if (!customer || !this.s.adding || this.s.form.relationship !== 'SELF') return;
    const filled = selfHolder(customer, this.s.form.rail);
    const blank = emptyBankForm(this.s.form.rail);
    const next: BankForm = { ...this.s.form };
    for (const [key, value] of Object.entries(filled) as [keyof SelfHolder, string][]) {
      const fixed = key === 'holderType' || key === 'taxId' || key === 'taxCountry';
      const untouched = !this.s.touched.has(key as BankField) && (next[key] === blank[key] || next[key] === this.s.selfFilled?.[key]);
      if (overwrite || fixed || untouched) (next as unknown as Record<string, string>)[key] = value;
    }
    this.patch({ form: next, selfFilled: filled, serverErrors: {} });
  }

  /** Leaving "Me": what came from the customer goes, what the user typed stays. */
  private clearSelf(): void {
    const filled = this.s.selfFilled;
    this.patch({ selfFilled: undefined });
    const blank = emptyBankForm(this.s.form.rail);
    const next: BankForm = { ...this.s.form, taxCountry: '' };
    if (filled) {
      for (const [key, value] of Object.entries(filled) as [keyof SelfHolder, string][]) {
        if (key !== 'holderType' && next[key] === value) (next as unknown as Record<string, string>)[key] = blank[key];
      }
    }
    this.patch({ form: next });
  }

  private onSelect = (event: Event): void => {
    const select = event.target as HTMLSelectElement;
    if (select.name === 'relationship') {
      const wasSelf = this.s.form.relationship === 'SELF';
      this.setField('relationship', select.value);
      if (select.value === 'SELF') void this.fillSelf(true);
      else if (wasSelf) this.clearSelf();
      this.markTouched('relationship');
      return;
    }
    const before = holderTaxIdKind(this.s.form);
    this.setField(select.name as BankField, select.value);
    // The holder's country decides what a tax id looks like (CPF/CNPJ in Brazil): re-fit what was typed.
    const after = holderTaxIdKind(this.s.form);
    if (after !== before && this.s.form.taxId) this.setField('taxId', refitTaxId(after, this.s.form.taxId));
    this.markTouched(select.name as BankField);
  };

  private onBlur = (event: FocusEvent): void => {
    const input = event.target as HTMLInputElement;
    const field = input.name as BankField;
    if (!this.s.adding || !visibleFields(this.s.form).includes(field)) return;
    // The IBAN reads back in groups of four once the user is done with it; the API gets the electronic form.
    if (field === 'iban' && this.s.form.iban) this.setField('iban', formatIban(this.s.form.iban));
    if (field === 'bic') this.setField('bic', this.s.form.bic.trim().toUpperCase());
    this.markTouched(field);
  };

  private markTouched(field: BankField): void {
    if (!this.s.touched.has(field)) this.patch({ touched: new Set([...this.s.touched, field]) });
    const message = this.bankFieldErrorText(field);
    if (message && !this.s.submitted) this.options.announce(this.t('tx.field.error', { field: bankLabel(this.i18n, this.s.form, field), message }));
  }

  private onRailChange = (event: Event): void => {
    const rail = (event.target as HTMLInputElement).value as BankRail;
    const country = this.s.form.country || (rail === 'PIX' ? 'BRA' : '');
    const next = { ...this.s.form, rail, country };
    // Typed values stay (the user may switch back); the tax id is re-fitted if the holder's presumed country changed.
    const kind = holderTaxIdKind(next);
    this.patch({ form: kind === holderTaxIdKind(this.s.form) ? next : { ...next, taxId: refitTaxId(kind, next.taxId) }, serverErrors: {} });
  };

  private onHolderTypeChange = (event: Event): void => {
    const holderType = (event.target as HTMLInputElement).value as HolderType;
    this.patch({ form: { ...this.s.form, holderType, taxId: '' }, touched: new Set([...this.s.touched].filter((f) => f !== 'taxId')), serverErrors: {} });
  };

  private onKeyTypeChange = (event: Event): void => {
    const keyType = (event.target as HTMLSelectElement).value as PixKeyType;
    this.patch({ form: { ...this.s.form, keyType, keyValue: '' }, touched: new Set([...this.s.touched].filter((f) => f !== 'keyValue')) });
  };

  private readonly fieldHandlers = {
    onInput: this.onInput,
    onSelect: this.onSelect,
    onBlur: this.onBlur,
    onKeyTypeChange: this.onKeyTypeChange,
  };

  private onSaveAccount = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.saveAccount();
  };

  private async saveAccount(): Promise<void> {
    if (this.createAccountTask.status === TaskStatus.PENDING) return;
    this.patch({ submitted: true, alert: undefined });
    const errors = validateBankForm(this.s.form, isoDay(new Date()));
    const invalid = visibleFields(this.s.form).filter((f) => errors[f] || this.s.serverErrors[f]);
    if (invalid.length > 0) {
      this.options.announce(this.i18n.plural('tx.form.invalid', invalid.length));
      await this.host.updateComplete;
      this.host.renderRoot.querySelector<HTMLElement>(`#bank-${invalid[0]}`)?.focus();
      return;
    }
    const body = toCreateBankAccount(this.s.form);
    this.options.announce(this.t('bank.saving'));
    await this.createAccountTask.run([body, this.accountKeys.keyFor(body)]);
  }

  private accountFailed(error: unknown): void {
    const alert = alertFor(error);
    if (!alert) return;
    if (error instanceof ProblemError && (error.status === 400 || error.status === 422)) {
      const { fields, unplaced } = placeFieldProblems(error.errors, bankFieldOf);
      const visible = visibleFields(this.s.form);
      const placed = Object.fromEntries(Object.entries(fields).filter(([f]) => visible.includes(f as BankField))) as Partial<Record<BankField, FieldProblemKey>>;
      this.patch({ serverErrors: { ...this.s.serverErrors, ...placed } });
      const first = visible.find((f) => placed[f]);
      if (first) {
        this.options.announce(this.i18n.plural('tx.form.invalid', Object.keys(placed).length));
        void this.host.updateComplete.then(() => this.host.renderRoot.querySelector<HTMLElement>(`#bank-${first}`)?.focus());
      }
      const hidden = Object.keys(fields).filter((f) => !visible.includes(f as BankField));
      if (first && unplaced.length === 0 && hidden.length === 0) return;
      this.patch({ alert: { kind: 'validation' } });
      return;
    }
    this.patch({ alert });
    this.options.report(error, 'createBankAccount');
  }
}

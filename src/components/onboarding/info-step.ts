// The additional-information step: one form per customer type, checked as the server checks it, sent with PATCH.
import type { FieldProblemKey } from '../../i18n/problem-words';
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { alpha3ToAlpha2 } from '../../contract/countries';
import { ProblemError } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { regionName } from '../../i18n';
import { humanize, type PlainMessageKey } from '../kyc-labels';
import { countryOptions } from './countries';
import {
  BUSINESS_SOURCES,
  COMPANY_TYPES,
  INDIVIDUAL_SOURCES,
  LIST_OPTIONS,
  PROFESSIONAL_SITUATIONS,
  infoFieldsFor,
  infoId,
  initialInfo,
  isOptionalInfo,
  optionsWith,
  placeInfoProblems,
  toAdditionalInformation,
  toggleListValue,
  validateInfo,
  type InfoError,
  type InfoField,
  type InfoValues,
  type ListField,
  type TextField,
} from './info-model';
import { formatAmount, parseAmount } from './money';
import { callingCodes } from './phone';
import { alertFor, describedBy, fieldShell, renderRequestAlert, type RequestAlert, type StepContext } from './step-context';

const optionKeys: Readonly<Record<string, PlainMessageKey>> = {
  EU: 'info.option.EU',
  OTHERS: 'info.option.OTHERS',
  NONE: 'info.option.NONE',
  GAMBLING: 'info.option.GAMBLING',
  ADULT_ENTERTAINMENT: 'info.option.ADULT_ENTERTAINMENT',
  CRYPTO_ASSETS: 'info.option.CRYPTO_ASSETS',
  WEAPONS: 'info.option.WEAPONS',
  SELF: 'info.option.SELF',
  MERCHANTS_SUPPLIERS: 'info.option.MERCHANTS_SUPPLIERS',
  CUSTOMERS: 'info.option.CUSTOMERS',
  FAMILY_FRIENDS: 'info.option.FAMILY_FRIENDS',
  EMPLOYEES: 'info.option.EMPLOYEES',
  EMPLOYEE: 'info.option.EMPLOYEE',
  SELF_EMPLOYED: 'info.option.SELF_EMPLOYED',
  UNEMPLOYED: 'info.option.UNEMPLOYED',
  RETIRED: 'info.option.RETIRED',
  OTHER: 'info.option.OTHER',
  EMPLOYMENT: 'info.option.EMPLOYMENT',
  SAVINGS: 'info.option.SAVINGS',
  COMPANY: 'info.option.COMPANY',
  INVESTMENT: 'info.option.INVESTMENT',
  INHERITANCE: 'info.option.INHERITANCE',
  COMPANY_CAPITAL: 'info.option.COMPANY_CAPITAL',
  LOAN: 'info.option.LOAN',
  BLOCKCHAIN_SOFTWARE_COMPANY: 'info.option.BLOCKCHAIN_SOFTWARE_COMPANY',
  PAYMENT_GATEWAY: 'info.option.PAYMENT_GATEWAY',
  E_COMMERCE: 'info.option.E_COMMERCE',
  FINANCIAL_SERVICES: 'info.option.FINANCIAL_SERVICES',
  SOFTWARE_COMPANY: 'info.option.SOFTWARE_COMPANY',
};

const labelKeys: Readonly<Record<InfoField, PlainMessageKey>> = {
  firstName: 'info.firstName',
  middleName: 'info.middleName',
  lastName: 'info.lastName',
  phoneCountry: 'info.phoneCountry',
  phone: 'info.phone',
  'address.country': 'info.address.country',
  'address.line1': 'info.address.line1',
  'address.city': 'info.address.city',
  'address.state': 'info.address.state',
  'address.postalCode': 'info.address.postalCode',
  monthlyVolumeInUSD: 'info.monthlyVolumeInUSD',
  transactionVolumeInUSD: 'info.transactionVolumeInUSD',
  annualRevenue: 'info.annualRevenue',
  monthlyTransactionVolume: 'info.monthlyTransactionVolume',
  professionalSituation: 'info.professionalSituation',
  professionalOccupation: 'info.professionalOccupation',
  sourceOfFunds: 'info.sourceOfFunds',
  companyType: 'info.companyType',
  complianceAndAML: 'info.complianceAndAML',
  regulatedActivityDetails: 'info.regulatedActivityDetails',
  website: 'info.website',
  servicesProvided: 'info.servicesProvided',
  jurisdictions: 'info.jurisdictions',
  involvedActivities: 'info.involvedActivities',
  transactionCounterparties: 'info.transactionCounterparties',
  isRegulatedActivity: 'info.isRegulatedActivity',
};

const autocomplete: Partial<Record<TextField, string>> = {
  firstName: 'given-name',
  middleName: 'additional-name',
  lastName: 'family-name',
  phone: 'tel-national',
  'address.country': 'country',
  'address.line1': 'address-line1',
  'address.city': 'address-level2',
  'address.state': 'address-level1',
  'address.postalCode': 'postal-code',
  website: 'url',
  professionalOccupation: 'organization-title',
};

const TEXTAREAS: readonly TextField[] = ['complianceAndAML', 'regulatedActivityDetails', 'servicesProvided'];

/** Holds the form's state for the element; the element renders it while the step is `info`. */
export class InfoStep {
  private values: InfoValues | undefined;
  private forCustomer = '';
  private touched = new Set<InfoField>();
  private submitted = false;
  private serverErrors: Partial<Record<InfoField, FieldProblemKey>> = {};
  private alert: RequestAlert | undefined;
  private busy = false;
  private readonly keys = new IdempotencyKeys();

  constructor(private readonly ctx: StepContext) {}

  private update(): void {
    this.ctx.host.requestUpdate();
  }

  /** The values, started from the customer the first time (or when the customer changed). */
  private form(): InfoValues {
    const customer = this.ctx.customer!;
    if (!this.values || this.forCustomer !== customer.id) {
      this.values = initialInfo(customer, this.ctx.locale);
      this.forCustomer = customer.id;
      this.touched = new Set();
      this.submitted = false;
      this.serverErrors = {};
    }
    return this.values;
  }

  private errors(): Partial<Record<InfoField, InfoError>> {
    return validateInfo(this.form(), this.ctx.locale);
  }

  private visibleError(field: InfoField): string | undefined {
    const server = this.serverErrors[field];
    if (server) return this.ctx.t(server);
    if (!this.submitted && !this.touched.has(field)) return undefined;
    const error = this.errors()[field];
    if (!error) return undefined;
    switch (error) {
      case 'required':
        return this.isChoice(field) ? this.ctx.t('info.error.chooseOption') : this.ctx.t('error.required');
      case 'chooseOne':
        return this.ctx.t('info.error.chooseOne');
      case 'invalidPhone':
        return this.ctx.t('info.error.invalidPhone');
      case 'invalidAmount':
        return this.ctx.t('info.error.invalidAmount', { example: formatAmount('2500.00', this.ctx.locale) });
      case 'invalidCountry':
        return this.ctx.t('error.invalidCountry');
      case 'invalidUrl':
        return this.ctx.t('info.error.invalidUrl');
    }
  }

  private isChoice(field: InfoField): boolean {
    return ['address.country', 'professionalSituation', 'sourceOfFunds', 'companyType'].includes(field);
  }

  private label(field: InfoField): string {
    return this.ctx.t(labelKeys[field]);
  }

  private optionLabel(code: string): string {
    const key = optionKeys[code];
    if (key) return this.ctx.t(key);
    const alpha2 = alpha3ToAlpha2.get(code);
    return alpha2 ? regionName(alpha2, this.ctx.locale) : humanize(code);
  }

  // ── rendering ──

  render(): TemplateResult {
    const values = this.form();
    const type = values.type;
    return html`
      <section class="kyc-step" data-step="info" aria-labelledby="step-title">
        <h3 id="step-title" part="step-title" class="step-title" tabindex="-1">${this.ctx.t(type === 'INDIVIDUAL' ? 'info.title.INDIVIDUAL' : 'info.title.BUSINESS')}</h3>
        <p part="intro" class="intro">${this.ctx.t('info.intro')}</p>
        <form part="form" novalidate data-testid="info-form" aria-busy=${this.busy ? 'true' : 'false'} @submit=${this.onSubmit}>
          ${renderRequestAlert(this.ctx, this.alert, () => void this.submit())}
          ${type === 'INDIVIDUAL'
            ? html`
                <div class="grid three">${(['firstName', 'middleName', 'lastName'] as const).map((f) => this.textField(f))}</div>
                ${this.phoneGroup()} ${this.addressGroup('info.address.legend.INDIVIDUAL')}
                <div class="grid two">
                  ${this.selectField('professionalSituation', PROFESSIONAL_SITUATIONS)} ${this.textField('professionalOccupation')}
                </div>
                ${this.selectField('sourceOfFunds', INDIVIDUAL_SOURCES)}
                <div class="grid two">${this.amountField('monthlyVolumeInUSD')} ${this.amountField('transactionVolumeInUSD')}</div>
                ${this.listGroup('jurisdictions')} ${this.listGroup('involvedActivities')} ${this.listGroup('transactionCounterparties')}
              `
            : html`
                <div class="grid two">${this.selectField('companyType', COMPANY_TYPES)} ${this.textField('website')}</div>
                ${this.textField('servicesProvided')} ${this.phoneGroup()} ${this.addressGroup('info.address.legend.BUSINESS')}
                <div class="grid two">${this.amountField('annualRevenue')} ${this.amountField('monthlyTransactionVolume')}</div>
                <div class="grid two">${this.amountField('monthlyVolumeInUSD')} ${this.amountField('transactionVolumeInUSD')}</div>
                ${this.listGroup('jurisdictions')} ${this.listGroup('involvedActivities')} ${this.listGroup('transactionCounterparties')}
                ${this.selectField('sourceOfFunds', BUSINESS_SOURCES)} ${this.textField('complianceAndAML')} ${this.regulatedGroup()}
              `}
          <div part="actions" class="actions">
            <button part="submit" class="primary" type="submit" data-testid="info-submit" aria-disabled=${this.busy ? 'true' : 'false'}>
              ${this.busy ? this.ctx.t('info.submitting') : this.ctx.t('info.submit')}
            </button>
          </div>
        </form>
      </section>
    `;
  }

  private shell(field: InfoField, hint?: string) {
    return { id: infoId(field), field, label: this.label(field), error: this.visibleError(field), hint, optional: isOptionalInfo(field) };
  }

  private textField(field: TextField, hint?: string): TemplateResult {
    const f = this.shell(field, hint ?? this.hintFor(field));
    const value = this.form().text[field];
    const common = {
      invalid: f.error ? 'true' : 'false',
      described: describedBy(f),
    };
    if (TEXTAREAS.includes(field)) {
      return fieldShell(
        this.ctx,
        f,
        html`<textarea
          id=${f.id}
          name=${field}
          part="textarea"
          maxlength="5000"
          rows="3"
          ?required=${!f.optional}
          aria-invalid=${common.invalid}
          aria-describedby=${common.described}
          .value=${live(value)}
          @input=${this.onText}
          @blur=${this.onBlur}
        ></textarea>`,
      );
    }
    return fieldShell(
      this.ctx,
      f,
      html`<input
        id=${f.id}
        name=${field}
        part="input"
        type=${field === 'website' ? 'url' : 'text'}
        inputmode=${field === 'website' ? 'url' : nothing}
        autocomplete=${autocomplete[field] ?? 'off'}
        maxlength=${field === 'website' ? 500 : 200}
        ?required=${!f.optional}
        aria-invalid=${common.invalid}
        aria-describedby=${common.described}
        .value=${live(value)}
        @input=${this.onText}
        @blur=${this.onBlur}
      />`,
    );
  }

  private hintFor(field: InfoField): string | undefined {
    switch (field) {
      case 'website':
        return this.ctx.t('info.website.hint');
      case 'complianceAndAML':
        return this.ctx.t('info.complianceAndAML.hint');
      case 'professionalOccupation':
        return this.ctx.t('info.professionalOccupation.hint');
      default:
        return undefined;
    }
  }

  private amountField(field: TextField): TemplateResult {
    const f = this.shell(field, this.ctx.t('info.amount.hint', { example: formatAmount('2500.00', this.ctx.locale) }));
    return fieldShell(
      this.ctx,
      f,
      html`<div class="money">
        <span class="money-prefix" aria-hidden="true">US$</span>
        <input
          id=${f.id}
          name=${field}
          part="input money"
          type="text"
          inputmode="decimal"
          autocomplete="off"
          maxlength="24"
          required
          aria-invalid=${f.error ? 'true' : 'false'}
          aria-describedby=${describedBy(f)}
          .value=${live(this.form().text[field])}
          @input=${this.onText}
          @blur=${this.onAmountBlur}
        />
      </div>`,
    );
  }

  private selectField(field: TextField, options: readonly string[]): TemplateResult {
    const f = this.shell(field);
    const value = this.form().text[field];
    return fieldShell(
      this.ctx,
      f,
      html`<select
        id=${f.id}
        name=${field}
        part="select"
        required
        aria-invalid=${f.error ? 'true' : 'false'}
        aria-describedby=${describedBy(f)}
        @change=${this.onSelect}
        @blur=${this.onBlur}
      >
        <option value="" ?selected=${!value}>${this.ctx.t('info.choose')}</option>
        ${optionsWith(options, value).map((o) => html`<option value=${o} ?selected=${o === value}>${this.optionLabel(o)}</option>`)}
      </select>`,
    );
  }

  private phoneGroup(): TemplateResult {
    const values = this.form();
    const f = this.shell('phone', this.ctx.t('info.phone.hint'));
    const countries = countryOptions(this.ctx.locale).flatMap((c) => {
      const alpha2 = alpha3ToAlpha2.get(c.code);
      const code = alpha2 && callingCodes.get(alpha2);
      return alpha2 && code ? [{ alpha2, name: c.name, code }] : [];
    });
    return html`
      <fieldset part="group phone" class="group">
        <legend>${this.ctx.t('info.phone.legend')}</legend>
        <div class="phone-row">
          <div class="field">
            <label part="label" for="info-phoneCountry">${this.label('phoneCountry')}</label>
            <select id="info-phoneCountry" name="phoneCountry" part="select" autocomplete="tel-country-code" @change=${this.onSelect}>
              ${countries.map(
                (c) => html`<option value=${c.alpha2} ?selected=${c.alpha2 === values.text.phoneCountry}>${c.name} (+${c.code})</option>`,
              )}
            </select>
          </div>
          <div class="field">
            <label part="label" for=${f.id}>${f.label}</label>
            <input
              id=${f.id}
              name="phone"
              part="input"
              type="tel"
              inputmode="tel"
              autocomplete="tel-national"
              maxlength="24"
              required
              aria-invalid=${f.error ? 'true' : 'false'}
              aria-describedby=${describedBy(f)}
              .value=${live(values.text.phone)}
              @input=${this.onText}
              @blur=${this.onBlur}
            />
          </div>
        </div>
        <p id="${f.id}-hint" part="hint" class="hint">${f.hint}</p>
        ${f.error ? html`<p id="${f.id}-error" part="error" class="error" data-testid="${f.id}-error">${f.error}</p>` : nothing}
      </fieldset>
    `;
  }

  private addressGroup(legend: 'info.address.legend.INDIVIDUAL' | 'info.address.legend.BUSINESS'): TemplateResult {
    const country = this.shell('address.country');
    const value = this.form().text['address.country'];
    return html`
      <fieldset part="group address" class="group">
        <legend>${this.ctx.t(legend)}</legend>
        ${fieldShell(
          this.ctx,
          country,
          html`<select
            id=${country.id}
            name="address.country"
            part="select"
            autocomplete="country"
            required
            aria-invalid=${country.error ? 'true' : 'false'}
            aria-describedby=${describedBy(country)}
            @change=${this.onSelect}
            @blur=${this.onBlur}
          >
            <option value="" ?selected=${!value}>${this.ctx.t('field.country.placeholder')}</option>
            ${countryOptions(this.ctx.locale).map((c) => html`<option value=${c.code} ?selected=${c.code === value}>${c.name}</option>`)}
          </select>`,
        )}
        ${this.textField('address.line1')}
        <div class="grid three">${this.textField('address.city')} ${this.textField('address.state')} ${this.textField('address.postalCode')}</div>
      </fieldset>
    `;
  }

  private listGroup(field: ListField): TemplateResult {
    const id = infoId(field);
    const error = this.visibleError(field);
    const chosen = this.form().lists[field];
    return html`
      <fieldset
        part="group field-${field}"
        class="group"
        id=${id}
        data-testid=${id}
        aria-describedby=${[`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
      >
        <legend>${this.label(field)}</legend>
        <p id="${id}-hint" part="hint" class="hint">${this.ctx.t('info.listHint')}</p>
        <div class="choices">
          ${optionsWith(LIST_OPTIONS[field], chosen).map(
            (option, i) => html`
              <label class="choice" part="choice">
                <input
                  type="checkbox"
                  id="${id}-${i}"
                  name=${field}
                  value=${option}
                  data-testid="${field}-${option}"
                  .checked=${live(chosen.includes(option))}
                  @change=${this.onListChange}
                />
                <span>${this.optionLabel(option)}</span>
              </label>
            `,
          )}
        </div>
        ${error ? html`<p id="${id}-error" part="error" class="error" data-testid="${id}-error">${error}</p>` : nothing}
      </fieldset>
    `;
  }

  private regulatedGroup(): TemplateResult {
    const values = this.form();
    return html`
      <div part="field field-isRegulatedActivity" class="field">
        <label class="choice" part="choice">
          <input
            type="checkbox"
            id=${infoId('isRegulatedActivity')}
            name="isRegulatedActivity"
            data-testid="info-isRegulatedActivity"
            aria-describedby="${infoId('isRegulatedActivity')}-hint"
            .checked=${live(values.isRegulatedActivity)}
            @change=${this.onRegulatedChange}
          />
          <span>${this.label('isRegulatedActivity')}</span>
        </label>
        <p id="${infoId('isRegulatedActivity')}-hint" part="hint" class="hint">${this.ctx.t('info.isRegulatedActivity.hint')}</p>
      </div>
      ${values.isRegulatedActivity ? this.textField('regulatedActivityDetails', this.ctx.t('info.regulatedActivityDetails.hint')) : nothing}
    `;
  }

  // ── input ──

  private setText(field: TextField, value: string): void {
    const values = this.form();
    if (values.text[field] === value) return;
    this.values = { ...values, text: { ...values.text, [field]: value } };
    this.clearServerError(field);
    this.update();
  }

  private clearServerError(field: InfoField): void {
    if (!this.serverErrors[field]) return;
    const { [field]: _gone, ...rest } = this.serverErrors;
    this.serverErrors = rest;
  }

  private onText = (event: Event): void => {
    const input = event.target as HTMLInputElement | HTMLTextAreaElement;
    this.setText(input.name as TextField, input.value);
  };

  private onSelect = (event: Event): void => {
    const select = event.target as HTMLSelectElement;
    this.setText(select.name as TextField, select.value);
    this.touch(select.name as InfoField);
  };

  private onBlur = (event: FocusEvent): void => {
    const name = (event.target as HTMLInputElement).name as InfoField;
    if (!this.ctx.renderRoot.contains(event.target as Node)) return;
    this.touch(name);
  };

  /** The amount is shown in the reader's format once they leave it: `1234.5` → `1,234.50`. */
  private onAmountBlur = (event: FocusEvent): void => {
    const input = event.target as HTMLInputElement;
    const field = input.name as TextField;
    const model = parseAmount(input.value, this.ctx.locale);
    if (model) this.setText(field, formatAmount(model, this.ctx.locale));
    this.touch(field);
  };

  private onListChange = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const field = input.name as ListField;
    const values = this.form();
    this.values = { ...values, lists: { ...values.lists, [field]: toggleListValue(field, values.lists[field], input.value, input.checked) } };
    this.clearServerError(field);
    this.touched.add(field);
    this.update();
  };

  private onRegulatedChange = (event: Event): void => {
    const values = this.form();
    this.values = { ...values, isRegulatedActivity: (event.target as HTMLInputElement).checked };
    this.update();
  };

  private touch(field: InfoField): void {
    if (this.touched.has(field)) return;
    this.touched.add(field);
    const message = this.visibleError(field);
    if (message && !this.submitted) this.ctx.announce(this.ctx.t('form.fieldError', { field: this.label(field), message }));
    this.update();
  }

  // ── submission ──

  private onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.submit();
  };

  private invalidFields(): InfoField[] {
    const values = this.form();
    const errors = this.errors();
    return infoFieldsFor(values.type, values.isRegulatedActivity).filter((f) => errors[f] || this.serverErrors[f]);
  }

  private async focusField(field: InfoField): Promise<void> {
    const id = infoId(field);
    const isList = field === 'jurisdictions' || field === 'involvedActivities' || field === 'transactionCounterparties';
    await this.ctx.focus(isList ? `#${id}-0` : `#${id}`);
  }

  async submit(): Promise<void> {
    if (this.busy) return;
    this.submitted = true;
    this.alert = undefined;
    const invalid = this.invalidFields();
    if (invalid.length > 0) {
      this.ctx.announce(this.ctx.plural('form.invalid', invalid.length));
      this.update();
      await this.focusField(invalid[0]!);
      return;
    }
    const body = toAdditionalInformation(this.form(), this.ctx.locale);
    const idempotencyKey = this.keys.keyFor(body);
    this.busy = true;
    this.ctx.announce(this.ctx.t('form.sending'));
    this.update();
    try {
      const customer = await this.ctx.client().updateAdditionalInformation(body, { idempotencyKey });
      this.keys.reset();
      this.busy = false;
      this.ctx.setCustomer(customer);
      this.ctx.announce(this.ctx.t('info.saved'));
      await this.ctx.goTo(this.ctx.customer?.type === 'BUSINESS' ? 'parties' : 'documents');
    } catch (error) {
      this.busy = false;
      await this.fail(error);
    }
  }

  private async fail(error: unknown): Promise<void> {
    if (error instanceof ProblemError && error.status === 400) {
      const { fields, unplaced } = placeInfoProblems(error.errors, this.form().type);
      this.serverErrors = { ...this.serverErrors, ...fields };
      if (unplaced.length > 0 || Object.keys(fields).length === 0) this.alert = alertFor(error);
      const invalid = this.invalidFields();
      this.ctx.announce(this.ctx.plural('form.invalid', Math.max(1, invalid.length)));
      this.update();
      if (invalid[0]) await this.focusField(invalid[0]);
      return;
    }
    this.alert = alertFor(error);
    if (!(error instanceof ProblemError && error.status === 409)) this.ctx.report(error, 'updateAdditionalInformation');
    this.update();
  }
}

// The additional-information step: one form per customer type, checked as the server checks it, sent with PATCH.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { alpha3ToAlpha2 } from '../../contract/countries';
import { addressFields, type AddressField } from './address-fields';
import { countryOptions } from './countries';
import { FormStep } from './form-step';
import { checkboxGroup } from './checkbox-group';
import { textInput, type Wiring } from './form-parts';
import { autocomplete, infoErrorText, infoHint, infoLabel, optionLabel } from './info-labels';
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
import { describedBy, fieldShell, renderRequestAlert } from './step-context';

const TEXTAREAS: readonly TextField[] = ['complianceAndAML', 'regulatedActivityDetails', 'servicesProvided'];

/** Holds the form's state for the element; the element renders it while the step is `info`. */
export class InfoStep extends FormStep<InfoField, InfoError> {
  private values: InfoValues | undefined;
  private forCustomer = '';

  /** The values, started from the customer the first time (or when the customer changed). */
  private form(): InfoValues {
    const customer = this.ctx.customer!;
    if (!this.values || this.forCustomer !== customer.id) {
      this.values = initialInfo(customer, this.ctx.locale);
      this.forCustomer = customer.id;
      this.startOver();
    }
    return this.values;
  }

  protected errors(): Partial<Record<InfoField, InfoError>> {
    return validateInfo(this.form(), this.ctx.locale);
  }

  protected shownFields(): readonly InfoField[] {
    const values = this.form();
    return infoFieldsFor(values.type, values.isRegulatedActivity);
  }

  protected errorText(field: InfoField, error: InfoError): string {
    return infoErrorText(this.ctx, field, error);
  }

  protected label(field: InfoField): string {
    return infoLabel(this.ctx, field, this.form().type);
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
                ${this.volumeGroup()}
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
    const f = this.shell(field, hint ?? infoHint(this.ctx, field));
    const value = this.form().text[field];
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
          aria-invalid=${f.error ? 'true' : 'false'}
          aria-describedby=${describedBy(f)}
          .value=${live(value)}
          @input=${this.onText}
          @blur=${this.onBlur}
        ></textarea>`,
      );
    }
    const website = field === 'website';
    const wiring: Wiring = { id: f.id, name: field, required: !f.optional, invalid: Boolean(f.error), describedBy: describedBy(f), value: live(value), onInput: this.onText, onBlur: this.onBlur };
    return fieldShell(
      this.ctx,
      f,
      textInput(wiring, { type: website ? 'url' : 'text', inputmode: website ? 'url' : undefined, autocomplete: autocomplete[field] ?? 'off', maxlength: website ? 500 : 200 }),
    );
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

  /** A business's four amounts in one group, which says which are the company's as a whole and which this account's. */
  private volumeGroup(): TemplateResult {
    return html`
      <fieldset part="group volume" class="group" data-testid="info-volume" aria-describedby="info-volume-hint">
        <legend>${this.ctx.t('info.volume.legend')}</legend>
        <p id="info-volume-hint" part="hint" class="hint">${this.ctx.t('info.volume.hint')}</p>
        <div class="grid two">${this.amountField('annualRevenue')} ${this.amountField('monthlyTransactionVolume')}</div>
        <div class="grid two">${this.amountField('monthlyVolumeInUSD')} ${this.amountField('transactionVolumeInUSD')}</div>
      </fieldset>
    `;
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
        ${optionsWith(options, value).map((o) => html`<option value=${o} ?selected=${o === value}>${optionLabel(this.ctx, o)}</option>`)}
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
    return addressFields(this.ctx, {
      legend: this.ctx.t(legend),
      shell: (field: AddressField) => this.shell(field),
      value: (field: AddressField) => this.form().text[field],
      countryAutocomplete: true,
      onText: this.onText,
      onCountry: this.onSelect,
      onBlur: this.onBlur,
    });
  }

  private listGroup(field: ListField): TemplateResult {
    const id = infoId(field);
    const chosen = this.form().lists[field];
    return checkboxGroup({
      id,
      field,
      name: field,
      legend: this.label(field),
      hint: this.ctx.t('info.listHint'),
      hintPart: true,
      testid: id,
      error: this.visibleError(field),
      options: optionsWith(LIST_OPTIONS[field], chosen),
      label: (option) => optionLabel(this.ctx, option),
      boxTestid: (option) => `${field}-${option}`,
      checked: (option) => chosen.includes(option),
      onChange: this.onListChange,
    });
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

  // ── submission ──

  private onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.submit();
  };

  protected async focusField(field: InfoField): Promise<void> {
    const id = infoId(field);
    const isList = field === 'jurisdictions' || field === 'involvedActivities' || field === 'transactionCounterparties';
    await this.ctx.focus(isList ? `#${id}-0` : `#${id}`);
  }

  async submit(): Promise<void> {
    if (this.busy) return;
    const wrong = this.firstInvalid();
    if (wrong) return this.focusField(wrong);
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
    await this.failed(error, (errors) => placeInfoProblems(errors, this.form().type), 'updateAdditionalInformation');
  }
}

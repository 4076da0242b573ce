// The templates of <ramp-onboarding>'s first step: the type choice, each field of the customer form, the alert, and the
// panel shown once the customer exists. The state they show is the CustomerStep's; its inputs are the controls every
// onboarding form shares (form-parts).
import { html, nothing, type TemplateResult } from 'lit';
import type { Customer } from '../../contract/customers';
import { formatInstant, type I18nController } from '../../i18n';
import { radioChoice } from '../radio-choice';
import { supportReference } from '../support-reference';
import { countryOptions, fewCountryOptions } from './countries';
import type { CustomerStep } from './customer-step';
import { dateInput, taxIdInput, textInput, type Wiring } from './form-parts';
import { taxIdKind } from './format';
import { customerTypes, fieldsFor, isOptional, type FieldName } from './model';

export function renderCustomerForm(i18n: I18nController, step: CustomerStep): TemplateResult {
  const busy = step.busy;
  const values = step.values;
  return html`
    <p id="intro" part="intro" class="intro">${i18n.t('onboarding.intro')}</p>
    <form part="form" novalidate aria-busy=${busy ? 'true' : 'false'} @submit=${step.onSubmit}>
      ${renderAlert(i18n, step)}
      <fieldset part="type-group" class="type-group">
        <legend>${i18n.t('type.legend')}</legend>
        <div class="choices">
          ${customerTypes.map((type) =>
            radioChoice({
              name: 'type',
              value: type,
              testid: `type-${type}`,
              label: i18n.t(`type.${type}`),
              part: 'type-option',
              hint: { id: `type-${type}-hint`, text: i18n.t(`type.${type}.hint`) },
              checked: values.type === type,
              onChange: step.onTypeChange,
            }),
          )}
        </div>
      </fieldset>
      ${fieldsFor(values.type).map((field) => renderField(i18n, step, field))}
      <div part="actions" class="actions">
        <button part="submit" class="submit" type="submit" data-testid="submit" aria-disabled=${busy ? 'true' : 'false'}>
          ${busy ? i18n.t('form.submitting') : i18n.t('form.submit')}
        </button>
      </div>
    </form>
  `;
}

function renderField(i18n: I18nController, step: CustomerStep, field: FieldName): TemplateResult {
  const error = step.visibleError(field);
  const hint = step.hintFor(field);
  const describedBy = [hint ? `${field}-hint` : '', error ? `${field}-error` : ''].filter(Boolean).join(' ');
  const optional = isOptional(step.values.type, field);
  return html`
    <div part="field field-${field}" class="field">
      <label part="label" for=${field}>
        ${step.labelFor(field)}${optional ? html` <span class="optional">(${i18n.t('field.optional')})</span>` : nothing}
      </label>
      ${renderControl(i18n, step, field, Boolean(error), describedBy, !optional)}
      ${hint ? html`<p id="${field}-hint" part="hint" class="hint">${hint}</p>` : nothing}
      ${error ? html`<p id="${field}-error" part="error" class="error" data-testid="${field}-error">${error}</p>` : nothing}
    </div>
  `;
}

function renderControl(i18n: I18nController, step: CustomerStep, field: FieldName, invalid: boolean, describedBy: string, required: boolean): TemplateResult {
  const values = step.values;
  if (field === 'country') {
    return html`
      <select
        id="country"
        name="country"
        part="select"
        autocomplete="country"
        ?required=${required}
        aria-invalid=${invalid ? 'true' : 'false'}
        aria-describedby=${describedBy || nothing}
        @change=${step.onCountryChange}
        @blur=${step.onBlur}
        @focus=${step.showAllCountries}
        @pointerdown=${step.showAllCountries}
      >
        <option value="" ?selected=${!values.country}>${i18n.t('field.country.placeholder')}</option>
        ${(step.allCountries ? countryOptions(i18n.locale) : fewCountryOptions(i18n.locale, ['BRA'], values.country)).map(
          (c) => html`<option value=${c.code} ?selected=${c.code === values.country}>${c.name}</option>`,
        )}
      </select>
    `;
  }
  const w: Wiring = {
    id: field,
    name: field,
    required,
    invalid,
    describedBy: describedBy || nothing,
    value: values[field],
    onInput: field === 'taxId' ? step.onTaxIdInput : step.onInput,
    onBlur: step.onBlur,
  };
  switch (field) {
    case 'taxId':
      return taxIdInput(w, taxIdKind(values.type, values.country));
    case 'birthDate':
      return dateInput(w, 'bday');
    case 'incorporationDate':
      return dateInput(w, 'off');
    case 'email':
      return textInput(w, { type: 'email', inputmode: 'email', autocomplete: 'email', spellcheck: 'false', maxlength: 254 });
    case 'name':
      return textInput(w, { autocomplete: 'name', maxlength: 200 });
    case 'legalName':
      return textInput(w, { autocomplete: 'organization', maxlength: 200 });
  }
}

function renderAlert(i18n: I18nController, step: CustomerStep): TemplateResult | typeof nothing {
  const alert = step.alert;
  if (!alert) return nothing;
  const message =
    alert.kind === 'VALIDATION_FAILED'
      ? i18n.t('alert.VALIDATION_FAILED')
      : alert.kind === 'OTHER'
        ? i18n.t('alert.OTHER', { code: alert.code })
        : i18n.t(`alert.${alert.kind}`);
  return html`
    <div part="alert" class="alert" role="alert" data-testid="alert" data-kind=${alert.kind}>
      <p>${message}</p>
      ${alert.kind === 'VALIDATION_FAILED' || alert.kind === 'CONFLICT'
        ? nothing
        : html`<button part="retry" class="retry" type="button" data-testid="retry" @click=${step.onRetry}>${i18n.t('alert.retry')}</button>`}
    </div>
  `;
}

/** The panel above the next step right after the customer was created here. */
export function renderCreated(i18n: I18nController, customer: Customer): TemplateResult {
  const name = customer.name ?? customer.legalName ?? '';
  return html`
    <div part="success" class="success" data-testid="success">
      <h3 id="done-title" class="success-title" tabindex="-1">${i18n.t('done.title')}</h3>
      <p>${i18n.t('done.body', { name })}</p>
      <dl part="summary" class="summary">
        <dt>${i18n.t('done.status')}</dt>
        <dd>${i18n.t(`status.${customer.verification.status}`)}</dd>
        <dt>${i18n.t('done.createdAt')}</dt>
        <dd>${formatInstant(customer.createdAt, i18n.locale)}</dd>
      </dl>
      ${supportReference(i18n.t('done.reference'), customer.id, 'customer-id')}
    </div>
  `;
}

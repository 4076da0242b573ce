// The fields of <ramp-offramp>'s add-account form: each field's label, hint, control and the attributes its input takes, for the form's model value.
import { html, nothing, type TemplateResult } from 'lit';
import { isoDay } from '../../contract/customer-rules';
import type { I18nController } from '../../i18n';
import { countryOptions } from '../onboarding/countries';
import { taxIdMaxLength } from '../onboarding/format';
import { fieldLabelKeys, keyHintKeys, keyTypeKeys, relationshipKeys } from './bank-labels';
import { holderTaxIdKind, isOptional, pixKeyTypes, relationships, type BankField, type BankForm, type SelfHolder } from './model';

/** What a field shows and does, from the form that owns it. */
export interface BankFieldsView {
  form: BankForm;
  /** What "Me" filled in from the customer (its tax id is then read-only). */
  selfFilled: SelfHolder | undefined;
  error: (field: BankField) => string | undefined;
  onInput: (event: InputEvent) => void;
  onSelect: (event: Event) => void;
  onBlur: (event: FocusEvent) => void;
  onKeyTypeChange: (event: Event) => void;
}

export interface TextAttributes {
  type: string;
  inputmode?: string;
  autocomplete: string;
  autocapitalize?: string;
  maxlength?: number;
}

/** A text field's input attributes: the keyboard a phone shows, what the browser may fill in, and the longest value the API takes. */
export function textAttributes(f: BankForm, field: BankField): TextAttributes {
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
    case 'email':
      return { type: 'email', inputmode: 'email', autocomplete: 'off', maxlength: 254 };
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

/** A field's label; the tax id's names the document the holder's country uses (CPF, CNPJ), SWIFT's BIC reads "SWIFT code". */
export function bankLabel(i18n: I18nController, form: BankForm, field: BankField): string {
  if (field === 'taxId') {
    const kind = holderTaxIdKind(form);
    return kind === 'cpf' ? i18n.t('bank.field.taxId.cpf') : kind === 'cnpj' ? i18n.t('bank.field.taxId.cnpj') : i18n.t('bank.field.taxId');
  }
  if (field === 'bic' && form.rail === 'SWIFT') return i18n.t('bank.field.swiftCode');
  return i18n.t(fieldLabelKeys[field]);
}

function bankHint(i18n: I18nController, view: BankFieldsView, field: BankField): string | undefined {
  switch (field) {
    case 'name':
      return i18n.t('bank.field.name.hint');
    case 'keyValue':
      return i18n.t(keyHintKeys[view.form.keyType]);
    case 'iban':
      return i18n.t('bank.field.iban.hint');
    case 'bic':
      return i18n.t('bank.field.bic.hint');
    case 'relationship':
      return i18n.t('bank.field.relationship.hint');
    case 'taxId':
      return view.selfFilled ? i18n.t('bank.field.taxId.self.hint') : undefined;
    default:
      return undefined;
  }
}

/** One field: label (marked optional where it is), control, hint and error, tied together for assistive technology. */
export function renderBankField(i18n: I18nController, view: BankFieldsView, field: BankField): TemplateResult {
  const id = `bank-${field}`;
  const error = view.error(field);
  const hint = bankHint(i18n, view, field);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || nothing;
  const optional = isOptional(view.form, field);
  return html`
    <div part="field field-${field}" class="field">
      <label part="label" for=${id}>
        ${bankLabel(i18n, view.form, field)}${optional ? html` <span class="optional">(${i18n.t('bank.optional')})</span>` : nothing}
      </label>
      ${renderBankControl(i18n, view, field, id, Boolean(error), describedBy, !optional)}
      ${hint ? html`<p id="${id}-hint" part="hint" class="hint">${hint}</p>` : nothing}
      ${error ? html`<p id="${id}-error" part="error" class="error" data-testid="${id}-error">${error}</p>` : nothing}
    </div>
  `;
}

function renderBankControl(
  i18n: I18nController,
  view: BankFieldsView,
  field: BankField,
  id: string,
  invalid: boolean,
  describedBy: string | typeof nothing,
  required: boolean,
): TemplateResult {
  const f = view.form;
  const aria = { invalid: invalid ? 'true' : 'false' };
  switch (field) {
    case 'keyType':
      return html`<select id=${id} name=${field} part="select" aria-invalid=${aria.invalid} aria-describedby=${describedBy} @change=${view.onKeyTypeChange}>
        ${pixKeyTypes.map((k) => html`<option value=${k} ?selected=${f.keyType === k}>${i18n.t(keyTypeKeys[k])}</option>`)}
      </select>`;
    case 'relationship':
      return html`<select id=${id} name=${field} part="select" aria-invalid=${aria.invalid} aria-describedby=${describedBy} @change=${view.onSelect}>
        ${relationships.map((r) => html`<option value=${r} ?selected=${f.relationship === r}>${i18n.t(relationshipKeys[r])}</option>`)}
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
        @change=${view.onSelect}
        @blur=${view.onBlur}
      >
        <option value="" ?selected=${!f[field]}>${i18n.t('bank.country.placeholder')}</option>
        ${countryOptions(i18n.locale, f.rail === 'PIX' ? ['BRA'] : f.rail === 'SEPA' ? ['PRT', 'DEU', 'FRA', 'ESP', 'ITA'] : ['USA'])
          .map((c) => html`<option value=${c.code} ?selected=${c.code === f[field]}>${c.name}</option>`)}
      </select>`;
    case 'birthDate':
    case 'incorporationDate':
      return html`<input
        id=${id}
        name=${field}
        part="input"
        type="date"
        min="1900-01-01"
        max=${isoDay(new Date())}
        aria-invalid=${aria.invalid}
        aria-describedby=${describedBy}
        .value=${f[field]}
        @input=${view.onInput}
        @change=${view.onInput}
        @blur=${view.onBlur}
      />`;
    default: {
      const text = textAttributes(f, field);
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
        ?readonly=${field === 'taxId' && view.selfFilled !== undefined}
        aria-invalid=${aria.invalid}
        aria-describedby=${describedBy}
        .value=${f[field]}
        @input=${view.onInput}
        @blur=${view.onBlur}
      />`;
    }
  }
}

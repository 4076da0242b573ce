// The fields of <ramp-offramp>'s add-account form: each field's label, hint, control and the attributes its input takes, for the form's model value.
import { html, nothing, type TemplateResult } from 'lit';
import { isoDay } from '../../contract/customer-rules';
import type { I18nController } from '../../i18n';
import { countryOptions } from '../onboarding/countries';
import { taxIdMaxLength } from '../onboarding/format';
import { fieldLabelKeys, keyHintKeys, keyTypeKeys, relationshipKeys } from './bank-labels';
import { holderTaxIdKind, isOptional, pixKeyTypes, relationships, type BankField, type BankForm, type PixKeyType, type SelfHolder } from './model';

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

/** A code the user copies from a document or a bank: upper case, never filled in by the browser. */
const code = (maxlength: number): TextAttributes => ({ type: 'text', autocomplete: 'off', autocapitalize: 'characters', maxlength });

/** The PIX key's input, by the kind of key. */
const keyValueAttributes: Readonly<Record<PixKeyType, TextAttributes>> = {
  CPF: { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: taxIdMaxLength.cpf },
  CNPJ: code(taxIdMaxLength.cnpj),
  EMAIL: { type: 'email', inputmode: 'email', autocomplete: 'off', maxlength: 77 },
  PHONE: { type: 'tel', inputmode: 'tel', autocomplete: 'off', maxlength: 20 },
  EVP: { type: 'text', autocomplete: 'off', maxlength: 36 },
};

const fieldAttributes: Partial<Readonly<Record<BankField, TextAttributes>>> = {
  iban: code(42),
  bic: code(11),
  accountNumber: code(40),
  holderName: { type: 'text', autocomplete: 'name', maxlength: 200 },
  email: { type: 'email', inputmode: 'email', autocomplete: 'off', maxlength: 254 },
  legalName: { type: 'text', autocomplete: 'organization', maxlength: 200 },
  line1: { type: 'text', autocomplete: 'address-line1', maxlength: 200 },
  city: { type: 'text', autocomplete: 'address-level2', maxlength: 100 },
  state: { type: 'text', autocomplete: 'address-level1', maxlength: 100 },
  postalCode: { type: 'text', autocomplete: 'postal-code', maxlength: 20 },
};

/** A text field's input attributes: the keyboard a phone shows, what the browser may fill in, and the longest value the API takes. */
export function textAttributes(f: BankForm, field: BankField): TextAttributes {
  if (field === 'keyValue') return keyValueAttributes[f.keyType];
  if (field === 'taxId') {
    const kind = holderTaxIdKind(f);
    return { ...code(taxIdMaxLength[kind]), inputmode: kind === 'cpf' ? 'numeric' : undefined };
  }
  return fieldAttributes[field] ?? { type: 'text', autocomplete: 'off', maxlength: field === 'name' ? 100 : 140 };
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
      return choiceSelect(id, field, aria.invalid, describedBy, view.onKeyTypeChange, pixKeyTypes, f.keyType, (k) => i18n.t(keyTypeKeys[k]));
    case 'relationship':
      return choiceSelect(id, field, aria.invalid, describedBy, view.onSelect, relationships, f.relationship, (r) => i18n.t(relationshipKeys[r]));
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

/** A select over a fixed list of choices, one of them always chosen. */
function choiceSelect<T extends string>(
  id: string,
  field: BankField,
  invalid: string,
  describedBy: string | typeof nothing,
  onChange: (event: Event) => void,
  choices: readonly T[],
  chosen: T,
  label: (choice: T) => string,
): TemplateResult {
  return html`<select id=${id} name=${field} part="select" aria-invalid=${invalid} aria-describedby=${describedBy} @change=${onChange}>
    ${choices.map((c) => html`<option value=${c} ?selected=${chosen === c}>${label(c)}</option>`)}
  </select>`;
}

// The controls the onboarding forms share (the customer step, the additional information, the parties): a text input,
// a date, the tax id, a group of checkboxes. Each form keeps its own state and wires it in here.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { isoDay } from '../../contract/customer-rules';
import { taxIdMaxLength, type TaxIdKind } from './format';

/** How a control is tied to its form: its name and id, its hint and error, its value and handlers. */
export interface Wiring {
  id: string;
  name: string;
  required: boolean;
  invalid: boolean;
  describedBy: string | typeof nothing;
  /** What `.value` binds: the model's value, or `live(value)` where the input may hold something else. */
  value: unknown;
  onInput: (event: InputEvent) => void;
  onBlur: (event: FocusEvent) => void;
}

export interface TextKind {
  type?: 'text' | 'email' | 'url' | undefined;
  inputmode?: string | undefined;
  autocomplete: string;
  autocapitalize?: 'characters' | undefined;
  spellcheck?: 'false' | undefined;
  maxlength: number;
}

export function textInput(w: Wiring, kind: TextKind): TemplateResult {
  return html`<input
    id=${w.id}
    name=${w.name}
    part="input"
    type=${kind.type ?? 'text'}
    inputmode=${kind.inputmode ?? nothing}
    autocomplete=${kind.autocomplete}
    autocapitalize=${kind.autocapitalize ?? nothing}
    spellcheck=${kind.spellcheck ?? nothing}
    maxlength=${kind.maxlength}
    ?required=${w.required}
    aria-invalid=${w.invalid ? 'true' : 'false'}
    aria-describedby=${w.describedBy}
    .value=${w.value}
    @input=${w.onInput}
    @blur=${w.onBlur}
  />`;
}

/** A day from 1900 to today; `change` as well as `input`, for the browsers whose picker sends only the first. */
export function dateInput(w: Wiring, autocomplete?: string): TemplateResult {
  return html`<input
    id=${w.id}
    name=${w.name}
    part="input"
    type="date"
    min="1900-01-01"
    max=${isoDay(new Date())}
    autocomplete=${autocomplete ?? nothing}
    ?required=${w.required}
    aria-invalid=${w.invalid ? 'true' : 'false'}
    aria-describedby=${w.describedBy}
    .value=${w.value}
    @input=${w.onInput}
    @change=${w.onInput}
    @blur=${w.onBlur}
  />`;
}

/** The numeric keyboard for a CPF (digits only); a CNPJ may hold letters, another country's id anything. */
export function taxIdInput(w: Wiring, kind: TaxIdKind): TemplateResult {
  return textInput(w, {
    inputmode: kind === 'cpf' ? 'numeric' : 'text',
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    maxlength: taxIdMaxLength[kind],
  });
}

/** A fieldset of checkboxes, several of which may be ticked. */
export interface CheckboxGroup {
  /** The fieldset's id; each box's is `<id>-<index>`, the hint's and error's `<id>-hint` and `<id>-error`. */
  id: string;
  /** The field it stands for, in the fieldset's parts (`field-<field>`). */
  field: string;
  name: string;
  legend: string;
  hint: string;
  /** The hint is a part of its own (`hint`). */
  hintPart: boolean;
  /** The fieldset's test id, if it has one. */
  testid?: string | undefined;
  error: string | undefined;
  options: readonly string[];
  label: (option: string) => string;
  boxTestid: (option: string) => string;
  checked: (option: string) => boolean;
  disabled?: ((option: string) => boolean) | undefined;
  onChange: (event: Event) => void;
}

export function checkboxGroup(g: CheckboxGroup): TemplateResult {
  return html`
    <fieldset
      part="group field-${g.field}"
      class="group"
      id=${g.id}
      data-testid=${g.testid ?? nothing}
      aria-describedby=${[`${g.id}-hint`, g.error ? `${g.id}-error` : ''].filter(Boolean).join(' ')}
    >
      <legend>${g.legend}</legend>
      <p id="${g.id}-hint" part=${g.hintPart ? 'hint' : nothing} class="hint">${g.hint}</p>
      <div class="choices">
        ${g.options.map(
          (option, i) => html`
            <label class="choice" part="choice">
              <input
                type="checkbox"
                id="${g.id}-${i}"
                name=${g.name}
                value=${option}
                data-testid=${g.boxTestid(option)}
                ?disabled=${g.disabled?.(option) ?? false}
                .checked=${live(g.checked(option))}
                @change=${g.onChange}
              />
              <span>${g.label(option)}</span>
            </label>
          `,
        )}
      </div>
      ${g.error ? html`<p id="${g.id}-error" part="error" class="error" data-testid="${g.id}-error">${g.error}</p>` : nothing}
    </fieldset>
  `;
}

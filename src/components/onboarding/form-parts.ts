// The controls the onboarding forms share (the customer step, the additional information, the parties): a text input,
// a date, the tax id. Each form keeps its own state and wires it in here. The first step's chunk holds them (the
// `forms` chunk), so nothing here may import what that step does not load already.
import { html, nothing, type TemplateResult } from 'lit';
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

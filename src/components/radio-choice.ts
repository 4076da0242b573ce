// One option of a radio group (the customer's type, a bank account holder's type): the box and its label, and a hint
// under the label that the box names when the option has one.
import { html, nothing, type TemplateResult } from 'lit';

export interface RadioChoice {
  name: string;
  value: string;
  testid: string;
  label: string;
  /** The label's part, if it has one. */
  part?: string;
  hint?: { id: string; text: string };
  checked: boolean;
  disabled?: boolean;
  onChange: (event: Event) => void;
}

export function radioChoice(c: RadioChoice): TemplateResult {
  return html`
    <label part=${c.part ?? nothing} class="choice">
      <input
        type="radio"
        name=${c.name}
        value=${c.value}
        data-testid=${c.testid}
        .checked=${c.checked}
        ?disabled=${c.disabled ?? false}
        aria-describedby=${c.hint?.id ?? nothing}
        @change=${c.onChange}
      />
      ${c.hint
        ? html`<span class="choice-text">
            <span>${c.label}</span>
            <span id=${c.hint.id} part="hint" class="hint">${c.hint.text}</span>
          </span>`
        : html`<span>${c.label}</span>`}
    </label>
  `;
}

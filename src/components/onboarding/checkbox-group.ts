// A group of checkboxes the later onboarding steps share (the additional information, the parties). Apart from the
// other controls (form-parts) because of `live`, which the first step does not load.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';

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

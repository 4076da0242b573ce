// The address fieldset the additional information and the parties both ask for: country, street, then city, state and postal code.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { countryOptions } from './countries';
import { textInput, type Wiring } from './form-parts';
import { describedBy, fieldShell, type FieldShell, type StepContext } from './step-context';

export type AddressField = 'address.country' | 'address.line1' | 'address.city' | 'address.state' | 'address.postalCode';

const autocomplete: Readonly<Record<Exclude<AddressField, 'address.country'>, string>> = {
  'address.line1': 'address-line1',
  'address.city': 'address-level2',
  'address.state': 'address-level1',
  'address.postalCode': 'postal-code',
};

/** What the form that owns the address gives it. */
export interface AddressView {
  legend: string;
  /** Label, ids, hint and error of one field. */
  shell: (field: AddressField) => FieldShell;
  value: (field: AddressField) => string;
  /** Let the browser fill in the country too. */
  countryAutocomplete: boolean;
  onText: (event: Event) => void;
  onCountry: (event: Event) => void;
  onBlur: (event: FocusEvent) => void;
}

export function addressFields(ctx: StepContext, view: AddressView): TemplateResult {
  const country = view.shell('address.country');
  const chosen = view.value('address.country');
  const text = (field: Exclude<AddressField, 'address.country'>) => {
    const f = view.shell(field);
    const wiring: Wiring = {
      id: f.id,
      name: field,
      required: !f.optional,
      invalid: Boolean(f.error),
      describedBy: describedBy(f),
      value: live(view.value(field)),
      onInput: view.onText,
      onBlur: view.onBlur,
    };
    return fieldShell(ctx, f, textInput(wiring, { autocomplete: autocomplete[field], maxlength: 200 }));
  };
  return html`
    <fieldset part="group address" class="group">
      <legend>${view.legend}</legend>
      ${fieldShell(
        ctx,
        country,
        html`<select
          id=${country.id}
          name="address.country"
          part="select"
          autocomplete=${view.countryAutocomplete ? 'country' : nothing}
          required
          aria-invalid=${country.error ? 'true' : 'false'}
          aria-describedby=${describedBy(country)}
          @change=${view.onCountry}
          @blur=${view.onBlur}
        >
          <option value="" ?selected=${!chosen}>${ctx.t('field.country.placeholder')}</option>
          ${countryOptions(ctx.locale).map((c) => html`<option value=${c.code} ?selected=${c.code === chosen}>${c.name}</option>`)}
        </select>`,
      )}
      ${text('address.line1')}
      <div class="grid three">${text('address.city')} ${text('address.state')} ${text('address.postalCode')}</div>
    </fieldset>
  `;
}

// The purpose field both payment forms show (<ramp-pix-checkout>, <ramp-offramp>): label, the API's purposes, hint and error.
import { html, nothing, type TemplateResult } from 'lit';
import type { I18nController } from '../../i18n';
import { purposeKeys } from './labels';
import { purposes, type Purpose } from './purposes';

export interface PurposeSelect {
  /** The select's id; the hint's and error's ids derive from it. */
  id: string;
  /** The wrapper's parts (each host exports its own). */
  part: string;
  label: string;
  placeholder: string;
  hint?: string | undefined;
  error: string | undefined;
  /** The chosen value, as the select holds it (empty or not one of the API's until chosen). */
  selected: string;
  onChange: (event: Event) => void;
  onBlur: (event: FocusEvent) => void;
  /** Why a purpose cannot be chosen now (shown beside it), if it cannot. */
  unavailable?: ((purpose: Purpose) => string | undefined) | undefined;
}

export function purposeSelect(i18n: I18nController, f: PurposeSelect): TemplateResult {
  const describedBy = [f.hint ? `${f.id}-hint` : '', f.error ? `${f.id}-error` : ''].filter(Boolean).join(' ') || nothing;
  return html`
    <div part=${f.part} class="field">
      <label part="label" for=${f.id}>${f.label}</label>
      <select
        id=${f.id}
        name="purpose"
        part="select"
        required
        data-testid="purpose"
        aria-invalid=${f.error ? 'true' : 'false'}
        aria-describedby=${describedBy}
        @change=${f.onChange}
        @blur=${f.onBlur}
      >
        <option value="" ?selected=${!f.selected}>${f.placeholder}</option>
        ${purposes.map((p) => {
          const reason = f.unavailable?.(p);
          return html`<option value=${p} ?selected=${p === f.selected} ?disabled=${reason !== undefined}>${i18n.t(purposeKeys[p])}${reason ? ` (${reason})` : ''}</option>`;
        })}
      </select>
      ${f.hint ? html`<p id="${f.id}-hint" part="hint" class="hint">${f.hint}</p>` : nothing}
      ${f.error ? html`<p id="${f.id}-error" part="error" class="error" data-testid="purpose-error">${f.error}</p>` : nothing}
    </div>
  `;
}

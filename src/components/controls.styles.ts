// Form controls, buttons, alerts, badges and progress shared by the KYC components; each host maps `--_input-*` / `--_button-*` to its own tier-2 tokens.
import { css } from 'lit';
import { alertStyles, buttonBox, hostStyles, inputBox } from './base.styles';
import { supportReferenceStyles } from './support-reference';

// `.badge` centres itself and never flexes: beside a label that wraps (a requirement's name on a phone) a pill keeps its
// one line instead of stretching. (Said here, not in the CSS: comments inside the template ship in the bundle.)
export const controlStyles = css`
  ${supportReferenceStyles}
  ${hostStyles}
  h2,
  h3,
  h4,
  [role='heading'] {
    margin: 0;
    line-height: 1.25;
    font-weight: 600;
  }
  [tabindex='-1']:focus {
    outline: none;
  }
  p {
    margin: 0;
  }
  fieldset {
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  legend {
    padding: 0;
    margin-bottom: 0.4em;
    font-weight: 600;
  }
  label {
    font-weight: 600;
  }
  .field {
    display: grid;
    gap: 0.3em;
    align-content: start;
  }
  .hint,
  .muted {
    font-weight: 400;
    font-size: 0.875em;
    color: var(--_color-text-muted);
    margin: 0;
  }
  ${inputBox("input:not([type='radio']):not([type='checkbox']):not([type='file']), select, textarea")}
  textarea {
    min-height: 5em;
    resize: vertical;
  }
  input[type='radio'],
  input[type='checkbox'] {
    accent-color: var(--_color-primary);
    width: 1.1em;
    height: 1.1em;
    margin: 0.2em 0 0;
    flex: none;
  }
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible,
  button:focus-visible,
  a:focus-visible {
    outline: none;
    box-shadow: var(--_focus-ring);
  }
  [aria-invalid='true'] {
    border-color: var(--_color-danger) !important;
    box-shadow: inset 0 0 0 1px var(--_color-danger);
  }
  ${alertStyles}
  .alert {
    color: var(--_color-text);
  }
  .alert ul {
    margin: 0;
    padding-left: 1.2em;
  }
  .notice {
    display: grid;
    gap: 0.5em;
    padding: 0.75em 1em;
    border-radius: var(--_radius);
    border: 1px solid var(--_color-border);
    background: var(--_color-surface-raised);
  }
  .notice[data-tone='success'] {
    border-color: var(--_color-success);
    background: var(--_color-success-surface);
  }
  .notice[data-tone='danger'] {
    border-color: var(--_color-danger);
    background: var(--_color-danger-surface);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
    justify-content: flex-end;
    align-items: center;
  }
  .actions.start {
    justify-content: flex-start;
  }
  ${buttonBox}
  button {
    color: var(--_color-text);
    background: var(--_color-surface);
    border: 1px solid var(--_color-border);
  }
  button.primary {
    color: var(--_button-color, var(--_color-on-primary));
    background: var(--_button-background, var(--_color-primary));
    border-color: var(--_button-background, var(--_color-primary));
  }
  button.small {
    min-height: 2.25em;
    padding: 0.25em 0.75em;
    font-size: 0.875em;
  }
  button.link {
    min-height: auto;
    padding: 0;
    border: 0;
    background: none;
    color: var(--_color-primary);
    text-decoration: underline;
    font-weight: 400;
  }
  /* touch: 44 px targets */
  @media (pointer: coarse) {
    button,
    button.small,
    button.link,
    .choice,
    input:not([type='radio'], [type='checkbox'], [type='file']),
    select {
      min-height: max(2.75em, 44px);
      min-width: 44px;
    }
  }
  button[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.75;
  }
  a {
    color: var(--_color-primary);
  }
  .choice {
    display: flex;
    gap: 0.6em;
    align-items: flex-start;
    min-height: 2.75em;
    padding: 0.5em 0.75em;
    border: 1px solid var(--_color-border);
    border-radius: var(--_radius);
    font-weight: 400;
    cursor: pointer;
  }
  .choice:has(input:checked) {
    border-color: var(--_color-primary);
    box-shadow: inset 0 0 0 1px var(--_color-primary);
    background: var(--_color-surface-raised);
  }
  .choice:has(input:disabled) {
    cursor: not-allowed;
    opacity: 0.7;
  }
  .choices {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(10.5rem, 1fr));
    gap: 0.4em;
  }
  .badge {
    display: inline-block;
    padding: 0.1em 0.6em;
    border-radius: 999px;
    font-size: 0.8em;
    font-weight: 600;
    border: 1px solid var(--_color-border);
    color: var(--_color-text);
    background: var(--_color-surface-raised);
    white-space: nowrap;
    align-self: center;
    flex: none;
  }
  .badge[data-status='SENT'],
  .badge[data-status='UNDER_VERIFICATION'] {
    border-color: var(--_color-primary);
  }
  .badge[data-status='APPROVED'] {
    border-color: var(--_color-success);
    background: var(--_color-success-surface);
  }
  .badge[data-status='REJECTED'],
  .badge[data-status='TEMPORARY_REJECTION'],
  .badge[data-status='FINAL_REJECTION'] {
    border-color: var(--_color-danger);
    background: var(--_color-danger-surface);
  }
  progress {
    width: 100%;
    height: 0.6em;
    accent-color: var(--_color-primary);
  }
  .spinner {
    display: inline-block;
    width: 1em;
    height: 1em;
    border: 2px solid var(--_color-border);
    border-top-color: var(--_color-primary);
    border-radius: 50%;
    vertical-align: -0.15em;
  }
  @media (prefers-reduced-motion: no-preference) {
    .spinner {
      animation: ramp-spin 0.9s linear infinite;
    }
    input,
    select,
    textarea,
    button {
      transition: box-shadow 120ms ease, border-color 120ms ease;
    }
  }
  @keyframes ramp-spin {
    to {
      transform: rotate(360deg);
    }
  }
`;

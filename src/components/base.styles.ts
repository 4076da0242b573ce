// Rules the quote (which leaves the form controls out of its first step) and the shared controls both need: the host
// box, the error and alert text, a button's box and its
// two tones, a text input's box. Interpolated where each stylesheet had them, so the cascade order stays.
import { css, unsafeCSS } from 'lit';

export const hostStyles = css`
  :host {
    display: block;
    font-family: var(--_font-family);
    font-size: var(--_font-size);
    line-height: 1.5;
    color: var(--_color-text);
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
`;

export const alertStyles = css`
  .error {
    margin: 0;
    font-size: 0.875em;
    color: var(--_color-danger);
  }
  .alert {
    display: grid;
    gap: 0.5em;
    justify-items: start;
    padding: 0.75em 1em;
    border-radius: var(--_radius);
    border: 1px solid var(--_color-danger);
    background: var(--_color-danger-surface);
  }
`;

export const buttonBox = css`
  button {
    min-height: 2.75em;
    padding: 0.5em 1.25em;
    font: inherit;
    font-weight: 600;
    border-radius: var(--_radius);
    cursor: pointer;
  }
`;

/** A filled button in the host's `--_button-*` colours (dimmed while busy) and an outlined one, by their classes. */
export const buttonTones = (filled: string, outlined: string) => css`
  ${unsafeCSS(filled)} {
    color: var(--_button-color, var(--_color-on-primary));
    background: var(--_button-background, var(--_color-primary));
    border: 1px solid var(--_button-background, var(--_color-primary));
  }
  ${unsafeCSS(filled)}[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.8;
  }
  ${unsafeCSS(outlined)} {
    color: var(--_color-text);
    background: var(--_color-surface);
    border: 1px solid var(--_color-border);
  }
`;

/** The box of the host's text controls (`controls`, a selector list), in its `--_input-*` colours. */
export const inputBox = (controls: string) => css`
  ${unsafeCSS(controls)} {
    width: 100%;
    min-height: 2.75em;
    padding: 0.5em 0.75em;
    font: inherit;
    color: var(--_color-text);
    background: var(--_input-background, var(--_color-surface));
    border: 1px solid var(--_input-border-color, var(--_color-border));
    border-radius: var(--_radius);
  }
`;

/** The focus ring of text inputs (`input`, the host's selector for them), selects and buttons; the invalid mark. */
export const focusAndInvalid = (input: string) => css`
  ${unsafeCSS(input)}:focus-visible,
  select:focus-visible,
  button:focus-visible {
    outline: none;
    box-shadow: var(--_focus-ring);
  }
  [aria-invalid='true'] {
    border-color: var(--_color-danger);
    box-shadow: inset 0 0 0 1px var(--_color-danger);
  }
`;

// Rules the quote (which leaves the form controls out of its first step) and the shared controls both need: the host
// box, and the error and alert text. Interpolated where each stylesheet had them, so the cascade order stays.
import { css } from 'lit';

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

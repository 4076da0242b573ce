// Styles of <ramp-quote>: tier 2 tokens (`--ramp-quote-*`) fall back to the shared tier 1 theme, light and dark.
import { css } from 'lit';
import { alertStyles, buttonBox, buttonTones, focusAndInvalid, hostStyles, inputBox } from '../base.styles';
import { supportReferenceStyles } from '../support-reference';
import { themeTokens, visuallyHidden } from '../theme.styles';

export const quoteStyles = [
  themeTokens,
  visuallyHidden,
  supportReferenceStyles,
  hostStyles,
  css`
    :host {
      --_input-background: var(--ramp-quote-input-background, var(--_color-surface));
      --_input-border-color: var(--ramp-quote-input-border-color, var(--_color-border));
      --_button-background: var(--ramp-quote-button-background, var(--_color-primary));
      --_button-color: var(--ramp-quote-button-color, var(--_color-on-primary));
    }
    .base {
      /* Narrow-card rules ask the card's width, not the screen's (the card may sit in a narrow column). */
      container: ramp-card / inline-size;
      display: grid;
      gap: var(--_space);
      max-width: var(--ramp-quote-max-width, 30rem);
      padding: var(--ramp-quote-padding, calc(var(--_space) * 1.5));
      background: var(--ramp-quote-background, var(--_color-surface));
      border: 1px solid var(--ramp-quote-border-color, var(--_color-border));
      border-radius: var(--ramp-quote-radius, var(--_radius));
    }
    /* A phone's width is precious: the card keeps a smaller inner margin there. */
    @media (max-width: 26rem) {
      .base {
        padding: var(--ramp-quote-padding, var(--_space));
      }
    }
    .title {
      margin: 0;
      font-size: 1.375em;
      line-height: 1.25;
    }
    h3 {
      margin: 0;
      font-size: 1em;
    }
    [tabindex='-1']:focus {
      outline: none;
    }
    .form {
      display: grid;
      gap: var(--_space);
    }
    fieldset {
      margin: 0;
      padding: 0;
      border: 0;
      min-width: 0;
    }
    legend,
    label {
      font-weight: 600;
    }
    legend {
      padding: 0;
      margin-bottom: 0.5em;
    }
    /* Radio groups drawn as segmented buttons; the radios stay real (arrow keys, one tab stop, screen-reader semantics). */
    .segmented {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25em;
      padding: 0.25em;
      border: 1px solid var(--_color-border);
      border-radius: var(--_radius);
      background: var(--_color-surface);
    }
    fieldset.segmented {
      padding: 0.25em;
      border: 1px solid var(--_color-border);
    }
    .segment {
      position: relative;
      flex: 1 1 0;
      min-width: max-content;
      display: grid;
      place-items: center;
      /* 44 px at the default size: a touch target (WCAG 2.5.5). */
      min-height: max(2.75em, 44px);
      padding: 0.25em 0.75em;
      border-radius: calc(var(--_radius) * 0.75);
      cursor: pointer;
      font-weight: 600;
    }
    .segment input {
      position: absolute;
      inset: 0;
      margin: 0;
      opacity: 0;
      cursor: pointer;
    }
    .segment:has(input:checked) {
      background: var(--_color-primary);
      color: var(--_color-on-primary);
    }
    .segment:has(input:focus-visible) {
      box-shadow: var(--_focus-ring);
    }
    .field {
      display: grid;
      gap: 0.3em;
    }
    /*
     * Grid items never grow past their card: by default a grid item is at least as wide as its content's min-content,
     * and a select's is its longest option ("Predeterminada del servicio (POLYGON)"), which pushed the form 3–8 px
     * past a 320 px card.
     */
    .form > *,
    .field {
      min-width: 0;
    }
    select {
      max-width: 100%;
      text-overflow: ellipsis;
    }
    .amount-row {
      display: flex;
      gap: 0.5em;
    }
    .amount-row input {
      flex: 1 1 auto;
      min-width: 0;
      font-size: 1.25em;
      font-variant-numeric: tabular-nums;
    }
    .amount-row select {
      flex: 0 0 auto;
      width: auto;
    }
    ${inputBox("input[type='text'], select")}
    .amount-row input[type='text'] {
      font-size: 1.25em;
    }
    ${focusAndInvalid("input[type='text']")}
    .hint {
      margin: 0;
      font-weight: 400;
      font-size: 0.875em;
      color: var(--_color-text-muted);
    }
    ${alertStyles}
    .alert p {
      margin: 0;
    }
    .empty {
      margin: 0;
      padding: 0.75em 1em;
      border-radius: var(--_radius);
      background: var(--ramp-quote-details-background, var(--_color-surface-raised));
      color: var(--_color-text-muted);
    }
    .breakdown {
      display: grid;
      gap: 0.5em;
      padding: 0.75em 1em;
      border-radius: var(--_radius);
      background: var(--ramp-quote-details-background, var(--_color-surface-raised));
    }
    .breakdown[data-stale='true'] .figures {
      opacity: 0.7;
    }
    .details-title {
      display: flex;
      justify-content: space-between;
      gap: 1em;
      font-size: 0.875em;
      color: var(--_color-text-muted);
    }
    .updating {
      font-weight: 400;
    }
    .figures,
    .meta {
      display: grid;
      gap: 0.25em;
      margin: 0;
      font-variant-numeric: tabular-nums;
    }
    .row {
      display: flex;
      flex-wrap: wrap;
      justify-content: space-between;
      align-items: baseline;
      gap: 0 1em;
    }
    /*
     * A label keeps the width it needs for one line; when label and amount do not fit side by side (a phone, a long
     * language), the amount goes under it, at the end, instead of squeezing the label into three or four lines.
     */
    .row dt {
      flex: 1 1 auto;
    }
    .row dd {
      margin-inline-start: auto;
    }
    .row dt {
      color: var(--_color-text-muted);
    }
    .row dd {
      margin: 0;
      text-align: end;
      /* Between words only: "USDC" never splits into "USD C" (anywhere would let the column shrink to a letter). */
      overflow-wrap: break-word;
    }
    .row.total {
      padding-top: 0.35em;
      border-top: 1px solid var(--_color-border);
      font-weight: 700;
    }
    .row.total dt {
      color: var(--_color-text);
    }
    .meta {
      font-size: 0.875em;
    }
    code {
      font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
      font-size: 0.9em;
    }
    ${buttonBox}
    ${buttonTones('.primary', '.secondary')}
    .locked,
    .expired {
      display: grid;
      gap: 0.75em;
      justify-items: stretch;
    }
    .locked {
      padding: var(--_space);
      border: 2px solid var(--_color-success);
      border-radius: var(--_radius);
    }
    .locked-header {
      display: flex;
      flex-wrap: wrap;
      justify-content: space-between;
      align-items: baseline;
      gap: 0.5em 1em;
    }
    .locked-title {
      font-size: 1.125em;
    }
    .countdown-line {
      margin: 0;
      display: flex;
      gap: 0.5em;
      align-items: baseline;
      color: var(--_color-text-muted);
    }
    .countdown {
      font-size: 1.5em;
      font-weight: 700;
      font-variant-numeric: tabular-nums;
      color: var(--_color-text);
    }
    .locked-amount {
      display: grid;
      margin: 0;
      padding: 0.75em 1em;
      border-radius: var(--_radius);
      background: var(--ramp-quote-highlight-background, var(--_color-success-surface));
    }
    .locked-amount-label {
      font-size: 0.875em;
      color: var(--_color-text);
    }
    .locked-amount strong {
      font-size: 1.75em;
      line-height: 1.2;
      font-variant-numeric: tabular-nums;
    }
    .locked > button,
    .expired > button {
      justify-self: start;
    }
    .expired {
      padding: var(--_space);
      border: 1px solid var(--_color-danger);
      border-radius: var(--_radius);
      background: var(--_color-danger-surface);
    }
    .expired p {
      margin: 0;
    }
    @media (prefers-reduced-motion: no-preference) {
      .segment,
      input,
      select,
      button,
      .figures {
        transition:
          box-shadow 120ms ease,
          border-color 120ms ease,
          opacity 120ms ease;
      }
    }
    /* A narrow card: the locked figures a little smaller, so the amount stays on one line. */
    @container ramp-card (max-width: 22rem) {
      .locked {
        padding: 0.75em;
      }
      .locked-amount {
        padding: 0.6em 0.75em;
      }
      .locked-amount strong {
        font-size: 1.375em;
      }
      .countdown {
        font-size: 1.25em;
      }
    }
  `,
];

// The id a person may read out to support (customer, quote, transaction): behind a disclosure, so a raw UUID is never what a card shows first.
import { css, html, type TemplateResult } from 'lit';

/** `testid` stays on the id itself: tests and partners read it with textContent, open or closed. */
export const supportReference = (label: string, id: string, testid: string): TemplateResult => html`
  <details part="reference" class="reference">
    <summary>${label}</summary>
    <code data-testid=${testid}>${id}</code>
  </details>
`;

// Small and out of the way until asked for; the summary is a 44 px touch target. (Lean: it ships with the first step.)
export const supportReferenceStyles = css`
  .reference {
    font-size: 0.875em;
    color: var(--_color-text-muted);
  }
  .reference summary {
    width: max-content;
    max-width: 100%;
    min-height: 44px;
    padding-top: 0.6em;
    cursor: pointer;
  }
  .reference code {
    font-family: ui-monospace, monospace;
    overflow-wrap: anywhere;
  }
`;

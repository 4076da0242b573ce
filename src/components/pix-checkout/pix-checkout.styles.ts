// Styles of <ramp-pix-checkout>: tier 2 tokens (`--ramp-pix-checkout-*`) over the shared tier 1 theme; the QR stays black on white in both themes.
import { css } from 'lit';
import { panelBox } from '../panel-box.styles';
import { moneyComponentStyles } from '../transaction/transaction.styles';

export const pixCheckoutStyles = [
  ...moneyComponentStyles,
  css`
    :host {
      --_input-background: var(--ramp-pix-checkout-input-background, var(--_color-surface));
      --_button-background: var(--ramp-pix-checkout-button-background, var(--_color-primary));
      --_button-color: var(--ramp-pix-checkout-button-color, var(--_color-on-primary));
    }
    .base {
      /* Narrow-card rules ask the card's width, not the screen's (the card may sit in a narrow column). */
      container: ramp-card / inline-size;
      display: grid;
      gap: var(--_space);
      max-width: var(--ramp-pix-checkout-max-width, 30rem);
      padding: var(--ramp-pix-checkout-padding, calc(var(--_space) * 1.5));
      background: var(--ramp-pix-checkout-background, var(--_color-surface));
      border: 1px solid var(--ramp-pix-checkout-border-color, var(--_color-border));
      border-radius: var(--ramp-pix-checkout-radius, var(--_radius));
    }
    /* A phone's width is precious: the card keeps a smaller inner margin there. */
    @media (max-width: 26rem) {
      .base {
        padding: var(--ramp-pix-checkout-padding, var(--_space));
      }
    }
    .title {
      font-size: 1.375em;
    }
    form,
    .panel {
      display: grid;
      gap: var(--_space);
    }
    .qr {
      justify-self: center;
      margin: 0;
      padding: 0;
      /* Scanners need dark modules on a light ground: no dark-mode inversion, whatever the theme. */
      background: #ffffff;
      border-radius: var(--_radius);
      border: 1px solid var(--_color-border);
      line-height: 0;
    }
    .qr svg {
      display: block;
      width: var(--ramp-pix-checkout-qr-size, 15rem);
      height: var(--ramp-pix-checkout-qr-size, 15rem);
      max-width: 100%;
      shape-rendering: crispEdges;
    }
    .code-row {
      display: grid;
      grid-template-columns: 1fr auto;
      gap: 0.5em;
      align-items: start;
    }
    .pay-ways {
      display: grid;
      gap: var(--_space);
    }
    @container ramp-card (max-width: 22rem) {
      .code-row {
        grid-template-columns: minmax(0, 1fr);
      }
    }
    /*
     * A phone cannot scan its own screen: there the code to copy and paste into the bank app is the main action (first,
     * a full-width primary button) and the QR, for another device, comes after it, smaller.
     */
    @media (pointer: coarse) {
      .pay-ways .qr {
        order: 1;
      }
      .qr svg {
        width: min(var(--ramp-pix-checkout-qr-size, 15rem), 11rem);
        height: min(var(--ramp-pix-checkout-qr-size, 15rem), 11rem);
      }
      .code-row {
        grid-template-columns: minmax(0, 1fr);
      }
      button[part~='copy'] {
        color: var(--_button-color, var(--_color-on-primary));
        background: var(--_button-background, var(--_color-primary));
        border-color: var(--_button-background, var(--_color-primary));
      }
    }
    .bank-details {
      display: grid;
      gap: 0.5em;
      margin: 0;
    }
    .bank-detail {
      display: grid;
      gap: 0.15em;
    }
    .bank-detail dt {
      font-size: 0.875em;
      color: var(--_color-text-muted);
    }
    .bank-detail dd {
      margin: 0;
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 0.5em;
    }
    .detail-value {
      font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
      font-weight: 600;
      /* An IBAN or reference is one long word: it breaks anywhere rather than pushing the card wider. */
      overflow-wrap: anywhere;
      min-width: 0;
    }
    textarea.code {
      min-height: 4.5em;
      font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
      font-size: 0.8em;
      word-break: break-all;
      resize: none;
    }
    .countdown {
      --_countdown-background: var(--ramp-pix-checkout-countdown-background, var(--_color-surface-raised));
    }
    ${panelBox('.sandbox', { gap: '0.4em', padding: '0.75em', border: 'dashed' })}
    .explorer {
      font-weight: 600;
    }
  `,
];

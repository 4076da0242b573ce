// Styles of <ramp-offramp>: tier 2 tokens (`--ramp-offramp-*`) over the shared tier 1 theme.
import { css } from 'lit';
import { moneyComponentStyles } from '../transaction/transaction.styles';

export const offrampStyles = [
  ...moneyComponentStyles,
  css`
    :host {
      --_input-background: var(--ramp-offramp-input-background, var(--_color-surface));
      --_button-background: var(--ramp-offramp-button-background, var(--_color-primary));
      --_button-color: var(--ramp-offramp-button-color, var(--_color-on-primary));
    }
    .base {
      /* Narrow-card rules ask the card's width, not the screen's (the card may sit in a narrow column). */
      container: ramp-card / inline-size;
      display: grid;
      gap: calc(var(--_space) * 1.25);
      max-width: var(--ramp-offramp-max-width, 36rem);
      padding: var(--ramp-offramp-padding, calc(var(--_space) * 1.5));
      background: var(--ramp-offramp-background, var(--_color-surface));
      border: 1px solid var(--ramp-offramp-border-color, var(--_color-border));
      border-radius: var(--ramp-offramp-radius, var(--_radius));
    }
    /* A phone's width is precious: the card keeps a smaller inner margin there. */
    @media (max-width: 26rem) {
      .base {
        padding: var(--ramp-offramp-padding, var(--_space));
      }
    }
    .title {
      font-size: 1.375em;
    }
    form,
    .panel,
    .section {
      display: grid;
      gap: var(--_space);
    }
    .accounts-list {
      display: grid;
      gap: 0.5em;
    }
    .account {
      align-items: flex-start;
      background: var(--ramp-offramp-account-background, var(--_color-surface));
    }
    .account-text {
      display: grid;
      gap: 0.15em;
      flex: 1;
      min-width: 0;
    }
    .account-head {
      display: flex;
      flex-wrap: wrap;
      justify-content: space-between;
      gap: 0.5em;
      font-weight: 600;
    }
    .account-detail {
      overflow-wrap: anywhere;
    }
    .pager {
      display: flex;
      justify-content: space-between;
      gap: 0.5em;
    }
    .bank-form {
      padding: var(--_space);
      border: 1px solid var(--ramp-offramp-form-border-color, var(--_color-border));
      border-radius: var(--_radius);
      background: var(--ramp-offramp-form-background, var(--_color-surface-raised));
    }
    .grid-2 {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
      gap: var(--_space);
    }
    .optional {
      font-weight: 400;
      font-size: 0.875em;
      color: var(--_color-text-muted);
    }
    .explorer {
      font-weight: 600;
    }
  `,
];

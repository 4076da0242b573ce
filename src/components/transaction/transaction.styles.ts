// Styles the two money components share: the status stepper, amount summaries, the busy spinner row, the countdowns; tier-2 tokens per host.
import { css } from 'lit';
import { controlStyles } from '../controls.styles';
import { themeTokens, visuallyHidden } from '../theme.styles';

export const transactionStyles = css`
  .stepper {
    display: grid;
    gap: 0;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .step {
    position: relative;
    display: grid;
    /* The label may shrink and wrap (a long step name in a narrow card), never run past the card or be cut. */
    grid-template-columns: 1.75em minmax(0, 1fr);
    align-items: center;
    overflow-wrap: break-word;
    gap: 0.6em;
    padding: 0.35em 0;
    color: var(--_color-text-muted);
  }
  .step + .step::before {
    content: '';
    position: absolute;
    left: calc(0.875em - 1px);
    top: -0.55em;
    height: 0.9em;
    border-left: 2px solid var(--_color-border);
  }
  .step-marker {
    display: inline-grid;
    place-items: center;
    width: 1.75em;
    height: 1.75em;
    border-radius: 50%;
    border: 2px solid var(--_color-border);
    background: var(--_color-surface);
    font-size: 0.85em;
    font-weight: 700;
    line-height: 1;
  }
  .step[data-state='done'] {
    color: var(--_color-text);
  }
  .step[data-state='done'] .step-marker {
    border-color: var(--_color-success);
    background: var(--_color-success-surface);
    color: var(--_color-success);
  }
  .step[data-state='current'] {
    color: var(--_color-text);
    font-weight: 600;
  }
  .step[data-state='current'] .step-marker {
    border-color: var(--_color-primary);
    background: var(--_color-primary);
    color: var(--_color-on-primary);
  }
  .step[data-state='failed'] {
    color: var(--_color-danger);
    font-weight: 600;
  }
  .step[data-state='failed'] .step-marker {
    border-color: var(--_color-danger);
    background: var(--_color-danger-surface);
    color: var(--_color-danger);
  }
  @media (prefers-reduced-motion: no-preference) {
    .step[data-state='current'] .step-marker {
      animation: ramp-pulse 1.6s ease-in-out infinite;
    }
  }
  @keyframes ramp-pulse {
    50% {
      box-shadow: 0 0 0 0.3em color-mix(in srgb, var(--_color-primary) 25%, transparent);
    }
  }
  .amounts {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.35em 1em;
    margin: 0;
  }
  .amounts dt {
    color: var(--_color-text-muted);
  }
  .amounts dd {
    margin: 0;
    font-weight: 600;
    text-align: end;
    font-variant-numeric: tabular-nums;
    /* Between words only: "USDC" never splits into "USD C" (anywhere would let the column shrink to a letter). */
    overflow-wrap: break-word;
  }
  .amounts dd.big {
    font-size: 1.375em;
  }
  /* In a narrow card each amount goes under its label: a label and a large amount side by side do not fit a phone. */
  @container ramp-card (max-width: 22rem) {
    .amounts {
      grid-template-columns: minmax(0, 1fr);
      gap: 0;
    }
    .amounts dd {
      text-align: start;
      margin-bottom: 0.35em;
    }
  }
  .busy {
    display: flex;
    gap: 0.5em;
    align-items: center;
    color: var(--_color-text-muted);
  }
  /* A time left (a quote's lock, a payment window); --_countdown-background lets a component offer its own token. */
  .countdown {
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    padding: 0.5em 0.75em;
    border-radius: var(--_radius);
    background: var(--_countdown-background, var(--_color-surface-raised));
  }
  .countdown time {
    font-size: 1.25em;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
  .countdown[data-urgent] time {
    color: var(--_color-danger);
  }
`;

/** What both money components' styles start from: the theme, the shared controls and the styles above. */
export const moneyComponentStyles = [themeTokens, visuallyHidden, controlStyles, transactionStyles];

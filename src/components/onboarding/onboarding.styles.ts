// Styles of <ramp-onboarding>: tier 2 tokens (`--ramp-onboarding-*`) fall back to the shared tier 1 theme; controls come from controls.styles.
import { css } from 'lit';
import { themeTokens, visuallyHidden } from '../theme.styles';
import { buttonTones, focusAndInvalid, inputBox } from '../base.styles';
import { controlStyles } from '../controls.styles';

export const onboardingStyles = [
  themeTokens,
  visuallyHidden,
  controlStyles,
  css`
    :host {
      --_input-background: var(--ramp-onboarding-input-background, var(--_color-surface));
      --_input-border-color: var(--ramp-onboarding-input-border-color, var(--_color-border));
      --_button-background: var(--ramp-onboarding-button-background, var(--_color-primary));
      --_button-color: var(--ramp-onboarding-button-color, var(--_color-on-primary));
    }
    .base {
      container: onboarding / inline-size;
      max-width: var(--ramp-onboarding-max-width, 34rem);
      padding: var(--ramp-onboarding-padding, calc(var(--_space) * 1.5));
      background: var(--ramp-onboarding-background, var(--_color-surface));
      border: 1px solid var(--ramp-onboarding-border-color, var(--_color-border));
      border-radius: var(--ramp-onboarding-radius, var(--_radius));
    }
    .title {
      margin: 0;
      font-size: 1.375em;
      line-height: 1.25;
    }
    .title:focus,
    .success-title:focus {
      outline: none;
    }
    .steps {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--_space) * 0.5);
      margin: calc(var(--_space) * 0.5) 0 var(--_space);
      padding: 0;
      list-style: none;
      font-size: 0.875em;
      color: var(--_color-text-muted);
    }
    .step {
      display: flex;
      align-items: center;
      gap: 0.4em;
    }
    .step + .step::before {
      content: '';
      width: 1.25em;
      border-top: 1px solid var(--_color-border);
    }
    .step[aria-current='step'] {
      color: var(--_color-text);
      font-weight: 600;
    }
    .step-number {
      display: inline-grid;
      place-items: center;
      width: 1.6em;
      height: 1.6em;
      border-radius: 50%;
      border: 1px solid currentColor;
      font-size: 0.85em;
    }
    .step[aria-current='step'] .step-number {
      background: var(--_color-primary);
      border-color: var(--_color-primary);
      color: var(--_color-on-primary);
    }
    /* narrow: one line; names of other steps only read out */
    @container onboarding (max-width: 30rem) {
      .steps {
        flex-wrap: nowrap;
        gap: 0.3em;
      }
      .step + .step::before {
        width: 0.6em;
      }
      .step[aria-current] {
        min-width: 0;
      }
      .step:not([aria-current]) .step-label {
        position: absolute;
        clip-path: inset(50%);
        white-space: nowrap;
      }
      .step[aria-current] .step-label {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
    }
    .intro {
      margin: 0 0 var(--_space);
      color: var(--_color-text-muted);
    }
    form {
      display: grid;
      gap: var(--_space);
    }
    legend {
      margin-bottom: 0.5em;
    }
    .choices {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
      gap: calc(var(--_space) * 0.5);
    }
    .choice {
      display: flex;
      gap: 0.6em;
      align-items: flex-start;
      min-height: max(2.75em, 44px);
      padding: 0.75em;
      border: 1px solid var(--_color-border);
      border-radius: var(--_radius);
      background: var(--ramp-onboarding-choice-background, var(--_color-surface));
      cursor: pointer;
    }
    .choice:has(input:checked) {
      border-color: var(--_color-primary);
      box-shadow: inset 0 0 0 1px var(--_color-primary);
      background: var(--ramp-onboarding-choice-selected-background, var(--_color-surface-raised));
    }
    .choice:has(input:focus-visible) {
      box-shadow: var(--_focus-ring);
    }
    .choice input {
      margin: 0.3em 0 0;
      accent-color: var(--_color-primary);
    }
    .choice-text {
      display: grid;
    }
    .choice .hint {
      font-weight: 400;
    }
    .optional {
      font-weight: 400;
      font-size: 0.875em;
      color: var(--_color-text-muted);
      margin: 0;
    }
    ${inputBox("input:not([type='radio']):not([type='checkbox']), select")}
    ${focusAndInvalid("input:not([type='radio']):not([type='checkbox'])")}
    .alert p {
      margin: 0;
    }
    ${buttonTones('.submit', '.retry')}
    .success {
      display: grid;
      gap: 0.5em;
      padding: var(--_space);
      border-radius: var(--_radius);
      border: 1px solid var(--_color-success);
      background: var(--_color-success-surface);
    }
    .success-title {
      margin: 0;
      font-size: 1.125em;
      color: var(--_color-text);
    }
    .success p {
      margin: 0;
    }
    .summary {
      display: grid;
      grid-template-columns: max-content 1fr;
      gap: 0.25em 1em;
      margin: 0;
      font-size: 0.875em;
    }
    .summary dt {
      color: var(--_color-text-muted);
    }
    .summary dd {
      margin: 0;
      overflow-wrap: anywhere;
    }
    /* ── KYC steps ── */
    .kyc-step {
      display: grid;
      gap: var(--_space);
    }
    .step-title {
      font-size: 1.15em;
    }
    .success + .kyc-step {
      margin-top: var(--_space);
    }
    .subheading,
    .form-title {
      font-size: 1.05em;
      font-weight: 600;
    }
    .group {
      display: grid;
      gap: 0.6em;
    }
    .grid {
      display: grid;
      gap: var(--_space);
    }
    .grid.two {
      grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
    }
    .grid.three {
      grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
    }
    .phone-row {
      display: grid;
      grid-template-columns: minmax(9rem, 2fr) 3fr;
      gap: 0.6em;
    }
    .money {
      display: flex;
      align-items: center;
      gap: 0.4em;
    }
    .money-prefix {
      color: var(--_color-text-muted);
      font-weight: 600;
    }
    .choices .choice {
      padding: 0.5em 0.75em;
      font-weight: 400;
    }
    .parties {
      display: grid;
      gap: 0.5em;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .parties.nested {
      margin: 0.5em 0 0 1.25em;
      padding-left: 0.75em;
      border-left: 2px solid var(--_color-border);
    }
    .party {
      display: grid;
      gap: 0.3em;
      justify-items: start;
      padding: 0.6em 0.75em;
      border: 1px solid var(--_color-border);
      border-radius: var(--_radius);
    }
    .party-line {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25em 0.75em;
      align-items: center;
    }
    .party-name {
      font-weight: 600;
    }
    .party-form {
      display: grid;
      gap: var(--_space);
      padding: var(--_space);
      border: 1px solid var(--_color-primary);
      border-radius: var(--_radius);
      background: var(--_color-surface-raised);
    }
    .party-documents {
      display: grid;
      gap: 0.5em;
    }
    .status-line {
      display: flex;
      gap: 0.5em;
      align-items: center;
    }
    .rejection {
      display: grid;
      gap: 0.6em;
    }
    .rejection ul {
      margin: 0;
      padding-left: 1.2em;
    }
    @media (prefers-reduced-motion: no-preference) {
      .choice,
      input,
      select,
      button {
        transition: box-shadow 120ms ease, border-color 120ms ease;
      }
    }
  `,
];

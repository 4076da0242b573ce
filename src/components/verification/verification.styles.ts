// Styles of <ramp-verification>: tier 2 tokens (`--ramp-verification-*`) over the shared tier 1 theme.
import { css } from 'lit';
import { themeTokens, visuallyHidden } from '../theme.styles';
import { panelBox } from '../panel-box.styles';
import { controlStyles } from '../controls.styles';

export const verificationStyles = [
  themeTokens,
  visuallyHidden,
  controlStyles,
  css`
    :host {
      --_button-background: var(--ramp-verification-button-background, var(--_color-primary));
      --_button-color: var(--ramp-verification-button-color, var(--_color-on-primary));
    }
    .base {
      display: grid;
      gap: calc(var(--_space) * 1.25);
      max-width: var(--ramp-verification-max-width, 40rem);
      margin-inline: auto;
      padding: var(--ramp-verification-padding, calc(var(--_space) * 1.5));
      background: var(--ramp-verification-background, var(--_color-surface));
      border: 1px solid var(--ramp-verification-border-color, var(--_color-border));
      border-radius: var(--_radius);
    }
    .title {
      font-size: 1.5em;
    }
    .section-title {
      font-size: 1.15em;
    }
    section {
      display: grid;
      gap: 0.75em;
    }
    .who {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5em;
      align-items: center;
    }
    .requirements {
      display: grid;
      gap: 0.4em;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .requirements li {
      display: flex;
      justify-content: space-between;
      gap: 0.5em;
      padding: 0.4em 0;
      border-bottom: 1px solid var(--_color-border);
    }
    .camera {
      display: grid;
      gap: 0.6em;
      justify-items: start;
    }
    video,
    .selfie {
      width: 100%;
      max-width: 26rem;
      aspect-ratio: 4 / 3;
      object-fit: cover;
      border-radius: var(--_radius);
      background: #000;
    }
    video {
      /* A mirror, as people expect from a front camera; the captured photo is not mirrored. */
      transform: scaleX(-1);
    }
    ${panelBox('.sandbox', { gap: '0.4em', padding: '0.75em 1em', border: 'dashed', start: true })}
    .file-fallback {
      display: grid;
      gap: 0.3em;
      justify-self: stretch;
    }
    /* Without a camera the selfie comes from a file: the native picker, drawn like the component's buttons. */
    .file-fallback input[type='file'] {
      width: 100%;
      min-height: max(2.75em, 44px);
      padding: 0.3em;
      font: inherit;
      color: var(--_color-text-muted);
      background: var(--_color-surface-raised);
      border: 1px dashed var(--_color-border);
      border-radius: var(--_radius);
      cursor: pointer;
    }
    .file-fallback input[type='file']::file-selector-button {
      min-height: max(2.5em, 40px);
      margin-inline-end: 0.75em;
      padding: 0.4em 1.25em;
      font: inherit;
      font-weight: 600;
      color: var(--_button-color, var(--_color-on-primary));
      background: var(--_button-background, var(--_color-primary));
      border: 1px solid var(--_button-background, var(--_color-primary));
      border-radius: calc(var(--_radius) * 0.75);
      cursor: pointer;
    }
    .file-fallback input[type='file']:focus-visible {
      outline: none;
      box-shadow: var(--_focus-ring);
    }
    .status-line {
      display: flex;
      gap: 0.5em;
      align-items: center;
    }
  `,
];

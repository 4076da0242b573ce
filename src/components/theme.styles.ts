// Design tokens every component reads: tier 1 `--ramp-*` (set by the partner) over light and dark defaults, as private `--_*` names.
import { css } from 'lit';

const light = css`
  color-scheme: light;
  --_color-primary: var(--ramp-color-primary, #1747c9);
  --_color-on-primary: var(--ramp-color-on-primary, #ffffff);
  --_color-surface: var(--ramp-color-surface, #ffffff);
  --_color-surface-raised: var(--ramp-color-surface-raised, #f3f5fa);
  --_color-text: var(--ramp-color-text, #14171f);
  --_color-text-muted: var(--ramp-color-text-muted, #4a5263);
  --_color-border: var(--ramp-color-border, #6f7889);
  --_color-danger: var(--ramp-color-danger, #b3261e);
  --_color-danger-surface: var(--ramp-color-danger-surface, #fdecea);
  --_color-success: var(--ramp-color-success, #146c2e);
  --_color-success-surface: var(--ramp-color-success-surface, #e7f5ea);
  --_color-focus: var(--ramp-color-focus, #1747c9);
`;

const dark = css`
  color-scheme: dark;
  --_color-primary: var(--ramp-color-primary, #9db8ff);
  --_color-on-primary: var(--ramp-color-on-primary, #0b1330);
  --_color-surface: var(--ramp-color-surface, #15181f);
  --_color-surface-raised: var(--ramp-color-surface-raised, #1e222b);
  --_color-text: var(--ramp-color-text, #e8eaf0);
  --_color-text-muted: var(--ramp-color-text-muted, #b4bac6);
  --_color-border: var(--ramp-color-border, #8a93a6);
  --_color-danger: var(--ramp-color-danger, #ffb4ab);
  --_color-danger-surface: var(--ramp-color-danger-surface, #3b1714);
  --_color-success: var(--ramp-color-success, #8fd9a2);
  --_color-success-surface: var(--ramp-color-success-surface, #132a1a);
  --_color-focus: var(--ramp-color-focus, #9db8ff);
`;

/**
 * Light by default; dark when the `theme="dark"` attribute is set, or when the system prefers dark and `theme="light"` is not set.
 * A partner overrides a token for both themes with `--ramp-color-primary: …`, or for one with `ramp-onboarding[theme=dark] { … }`.
 */
export const themeTokens = css`
  :host {
    ${light}
    --_radius: var(--ramp-radius, 0.5rem);
    --_space: var(--ramp-space, 1rem);
    --_font-family: var(--ramp-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_font-size: var(--ramp-font-size, 1rem);
    --_focus-ring: 0 0 0 3px var(--_color-surface), 0 0 0 5px var(--_color-focus);
  }
  :host([theme='dark']) {
    ${dark}
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${dark}
    }
  }
`;

/** Hidden on screen, still read by screen readers (live regions, context for icons). */
export const visuallyHidden = css`
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;

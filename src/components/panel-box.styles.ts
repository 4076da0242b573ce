// A bordered box whose children stack, shared by the later steps' panels (kept out of the first step's chunk).
import { css, unsafeCSS } from 'lit';

/** A bordered box whose children stack (`selector`): its gap, padding and border style, aligned to the start or not. */
export const panelBox = (selector: string, o: { gap: string; padding: string; border: 'solid' | 'dashed'; start?: boolean }) => css`
  ${unsafeCSS(selector)} {
    display: grid;
    gap: ${unsafeCSS(o.gap)};
    ${unsafeCSS(o.start ? 'justify-items: start;' : '')}
    padding: ${unsafeCSS(o.padding)};
    border: 1px ${unsafeCSS(o.border)} var(--_color-border);
    border-radius: var(--_radius);
  }
`;

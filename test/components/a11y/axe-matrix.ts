// The accessibility matrix's engine: axe on a mounted component in every language × theme, by setting attributes on it (no remount).
import 'axe-core/axe.min.js';
import type { AxeResults, Result, RunOptions } from 'axe-core';

export const langs = ['en', 'pt-BR', 'es'] as const;
export const themes = ['light', 'dark'] as const;
type Lang = (typeof langs)[number];
type Theme = (typeof themes)[number];

declare global {
  interface Window {
    axe: { run(context: Element, options: RunOptions): Promise<AxeResults> };
  }
}

/** Every <ramp-*> element at or under `root`, through shadow roots. */
export function rampElements(root: Element): HTMLElement[] {
  const found: HTMLElement[] = [];
  const walk = (node: Element | ShadowRoot): void => {
    for (const child of node.children) {
      if (child.tagName.startsWith('RAMP-')) found.push(child as HTMLElement);
      if (child.shadowRoot) walk(child.shadowRoot);
      walk(child);
    }
  };
  if (root.tagName.startsWith('RAMP-')) found.push(root as HTMLElement);
  if (root.shadowRoot) walk(root.shadowRoot);
  walk(root);
  return found;
}

/** Waits until the element and every Ramp element inside it have rendered (a language's messages load first). */
export async function settle(el: HTMLElement): Promise<void> {
  for (let round = 0; round < 20; round++) {
    // A task boundary: the page-wide `lang` observer and chained updates run first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const busy = rampElements(el) as unknown as { isUpdatePending: boolean; updateComplete: Promise<unknown> }[];
    const pending = busy.filter((e) => e.isUpdatePending);
    if (pending.length === 0) return;
    await Promise.all(pending.map((e) => e.updateComplete));
  }
}

/** What a sighted user reads: the text of every shadow root, in order, for telling one language from another. */
function visibleText(el: Element): string {
  const parts: string[] = [];
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
    if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
    if (node instanceof Element && (node.tagName === 'STYLE' || node.tagName === 'SCRIPT')) return;
    node.childNodes.forEach(walk);
  };
  walk(el);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** The rules a theme can change: only colours differ between light and dark, so dark runs these (light runs every rule). */
const colourRules = ['color-contrast', 'link-in-text-block'];

function describe(where: string, violation: Result): string {
  const nodes = violation.nodes.map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`).join('\n');
  return `${where} — ${violation.id} (${violation.impact}): ${violation.help}\n${nodes}`;
}

/**
 * Collects axe's findings over many states of many components and fails once, with the whole list.
 * Besides violations it refuses a color-contrast that axe could not decide (`incomplete`), and a state where it checked no text at all:
 * either would let a contrast failure through unseen.
 */
export class AxeMatrix {
  readonly findings: string[] = [];
  /** `component / state` → the languages and themes it was checked in. */
  readonly cells: string[] = [];
  runs = 0;
  /** Time spent inside axe, for the report. */
  axeMs = 0;

  /** Axe on `el` as it stands, in each language and theme; the element is left in `en`, light. */
  async check(el: HTMLElement, state: string, o: { langs?: readonly Lang[] } = {}): Promise<void> {
    const texts = new Map<Lang, string>();
    for (const lang of o.langs ?? langs) {
      el.setAttribute('lang', lang);
      for (const theme of themes) {
        el.setAttribute('theme', theme);
        await settle(el);
        this.assertApplied(el, state, lang, theme);
        texts.set(lang, visibleText(el));
        await this.run(el, `${state} [${lang}, ${theme}]`, theme === 'light' ? undefined : colourRules);
      }
    }
    // A language switch that changed nothing would make three runs of one: make sure each language was really on screen.
    const seen = [...texts.values()];
    if (new Set(seen).size !== seen.length) this.findings.push(`${state}: the text did not change between languages ${[...texts.keys()].join(', ')}`);
    this.cells.push(`${state} × ${[...texts.keys()].join('/')} × ${themes.join('/')}`);
    el.setAttribute('lang', 'en');
    el.setAttribute('theme', 'light');
    await settle(el);
  }

  private assertApplied(el: HTMLElement, state: string, lang: Lang, theme: Theme): void {
    for (const inner of rampElements(el)) {
      const scheme = getComputedStyle(inner).colorScheme;
      if (scheme !== theme) this.findings.push(`${state} [${lang}, ${theme}]: <${inner.localName}> is in color-scheme "${scheme}"`);
    }
  }

  /** Axe on `el` as it stands (no attribute touched); `colours` runs only the rules a theme can change. */
  scan(el: HTMLElement, where: string, o: { colours?: boolean } = {}): Promise<void> {
    return this.run(el, where, o.colours ? colourRules : undefined);
  }

  private async run(el: HTMLElement, where: string, only?: string[]): Promise<void> {
    this.runs++;
    const options: RunOptions = { resultTypes: ['violations', 'incomplete'], ...(only ? { runOnly: { type: 'rule', values: only } } : {}) };
    const started = performance.now();
    const results = await window.axe.run(el, options);
    this.axeMs += performance.now() - started;
    for (const violation of results.violations) this.findings.push(describe(where, violation));
    const undecided = results.incomplete.find((r) => r.id === 'color-contrast');
    // A glyph alone (✓, ✕: decorative step markers) is not text; axe leaves it undecided, and 1.4.11 (non-text, 3:1) covers it instead.
    const nodes = undecided?.nodes.filter((n) => !n.any.every((check) => (check.data as { messageKey?: string } | null)?.messageKey === 'nonBmp'));
    if (undecided && nodes?.length) this.findings.push(describe(`${where} (contrast undecided)`, { ...undecided, nodes }));
    const contrast = results.passes.some((r) => r.id === 'color-contrast') || results.violations.some((r) => r.id === 'color-contrast');
    if (!contrast) this.findings.push(`${where}: axe checked the contrast of no text at all`);
  }
}

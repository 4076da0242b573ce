// Which language a component speaks: its own `lang`, else the nearest `[lang]` up through shadow roots, else the browser's, else English.
import { defaultLocale, locales, type Locale } from './catalogue';

/** The supported locale closest to a BCP 47 tag: exact match first, then the same language (`pt-PT` → `pt-BR`). */
export function matchLocale(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const wanted = tag.trim().replace(/_/g, '-').toLowerCase();
  if (!wanted) return undefined;
  const exact = locales.find((l) => l.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split('-')[0];
  return locales.find((l) => l.toLowerCase().split('-')[0] === language);
}

/** The `lang` in force at a node: the closest ancestor with a non-empty `lang`, crossing shadow-root boundaries. */
export function inheritedLang(node: Node): string | undefined {
  let current: Node | null = node;
  while (current) {
    if (current instanceof Element) {
      // The property first: a component's `lang` is a reactive property, set before it is reflected to the attribute.
      const lang = current instanceof HTMLElement ? current.lang : current.getAttribute('lang');
      if (lang) return lang;
    }
    current = current instanceof ShadowRoot ? current.host : current.parentNode;
  }
  return undefined;
}

/**
 * The page's declared language wins when we speak it; otherwise the user's browser languages, then English.
 * (`document.documentElement` is the last ancestor, so its `lang` is covered by the walk.)
 */
export function resolveLocale(
  element: Node,
  browserLanguages: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): Locale {
  const declared = matchLocale(inheritedLang(element));
  if (declared) return declared;
  for (const tag of browserLanguages) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return defaultLocale;
}

// The script-tag entry (/sdk/ramp-widget.js): a few kB that know every <ramp-*> tag and fetch a component's code, and the
// messages of the language it speaks, when its tag first appears in the page. Lit and the client live in shared chunks.

/** Every tag the SDK defines, and the chunk that defines it. */
const chunks = {
  'ramp-widget': () => import('./elements/widget'),
  'ramp-onboarding': () => import('./elements/onboarding'),
  'ramp-document-uploader': () => import('./elements/document-uploader'),
  'ramp-verification': () => import('./elements/verification'),
  'ramp-quote': () => import('./elements/quote'),
  'ramp-pix-checkout': () => import('./elements/pix-checkout'),
  'ramp-offramp': () => import('./elements/offramp'),
} satisfies Record<string, () => Promise<unknown>>;

export type RampTag = keyof typeof chunks;

/** Per tag, the chunks its chunk imports statically: file names (`f`) and each tag's indexes into them (`t`); each
 * language's core messages, by lowercased tag and by language alone (`m`). Filled in by the build (vite.config.ts,
 * ramp-preload-map); absent in development. */
interface PreloadMap {
  f: string[];
  t: Partial<Record<RampTag, number[]>>;
  m: Record<string, number>;
}
declare const __RAMP_PRELOAD__: PreloadMap;
const preloads: PreloadMap = typeof __RAMP_PRELOAD__ === 'object' ? __RAMP_PRELOAD__ : { f: [], t: {}, m: {} };
const preloaded = new Set<number>();

function preloadFile(index: number): void {
  if (preloaded.has(index)) return;
  preloaded.add(index);
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = new URL(preloads.f[index]!, import.meta.url).href;
  document.head.append(link);
}

/** Asks for a tag's chunk and everything it imports in one round trip, rather than one level of imports at a time. */
function preload(tag: RampTag): void {
  for (const index of preloads.t[tag] ?? []) preloadFile(index);
}

/**
 * Asks for the core messages of the language the element most likely speaks beside its chunks, not a round trip after
 * the i18n chunk has run. A lookup, not the decision: i18n/locale.ts decides (a closer `lang` inside a shadow root, say)
 * and fetches what it picks; a wrong guess costs one small chunk. The element's `lang` or its ancestors', then the browser's.
 */
function preloadMessages(element: Element): void {
  const declared = element.closest('[lang]:not([lang=""])')?.getAttribute('lang');
  for (const tag of [declared, ...(navigator.languages ?? [navigator.language])]) {
    const wanted = tag?.trim().replace(/_/g, '-').toLowerCase();
    const index = wanted ? (preloads.m[wanted] ?? preloads.m[wanted.split('-')[0]!]) : undefined;
    if (index !== undefined) return preloadFile(index);
  }
}
export const rampTags = Object.keys(chunks) as RampTag[];

const requested = new Map<RampTag, Promise<CustomElementConstructor>>();

function isRampTag(name: string): name is RampTag {
  return Object.hasOwn(chunks, name);
}

/**
 * Fetches and defines a tag's component now (the loader does it by itself for tags in the document; call this for
 * tags inside your own shadow roots, which it cannot see). Resolves with the element class once the tag is defined.
 * `after`: the tag's chunks are fetched at once but run (and define the tag) only once it settles.
 */
export function load(tag: RampTag, after?: Promise<unknown>): Promise<CustomElementConstructor> {
  let pending = requested.get(tag);
  if (!pending) {
    if (typeof document !== 'undefined') preload(tag);
    pending = (after ?? Promise.resolve()).then((): Promise<unknown> => chunks[tag]()).then(() => customElements.whenDefined(tag));
    // A failed fetch (offline, a deploy in between) is tried again when the tag next appears.
    pending.catch(() => requested.delete(tag));
    requested.set(tag, pending);
  }
  return pending;
}

/**
 * The component's chunks and its language's messages are fetched in parallel, and the tag is defined once the messages
 * are in: a defined element draws at once, so a page that reserves the element's space until it is `:defined` sees
 * no layout shift. The messages come through an imported chunk, not a static import of this file: the browser runs
 * the loader as soon as it arrives instead of a round trip later.
 */
function found(element: Element): void {
  const tag = element.localName;
  if (!isRampTag(tag) || customElements.get(tag)) return;
  preloadMessages(element);
  const messages = import('./i18n/boot')
    .then(({ loadMessagesFor }) => loadMessagesFor(element))
    .catch(() => undefined);
  if (!requested.has(tag)) void load(tag, messages).catch((error: unknown) => console.error(`<${tag}> could not be loaded`, error));
}

function scan(root: ParentNode): void {
  if (root instanceof Element) found(root);
  for (const tag of rampTags) {
    if (requested.has(tag)) continue;
    const element = root.querySelector(tag);
    if (element) found(element);
  }
}

function watch(): void {
  if (typeof document === 'undefined' || typeof MutationObserver === 'undefined') return; // imported during SSR: nothing to do
  scan(document);
  const observer = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node instanceof Element) scan(node);
    if (rampTags.every((tag) => requested.has(tag))) observer.disconnect();
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
}

watch();

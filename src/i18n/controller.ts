// A Lit reactive controller giving a component `t()` in the language resolved for it, re-rendering when a `lang` or the browser language changes.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  defaultLocale,
  translate,
  translatePlural,
  type Locale,
  type MessageKey,
  type PluralKey,
  type TranslateArgs,
} from './catalogue';
import { resolveLocale } from './locale';

type Host = ReactiveControllerHost & HTMLElement;

const connected = new Set<I18nController>();
let observer: MutationObserver | undefined;

function refreshAll(): void {
  for (const controller of connected) controller.host.requestUpdate();
}

/** One observer for the whole page: any `lang` change in the light DOM (the html element included) re-renders every host. */
function watchLanguageChanges(): void {
  if (observer || typeof MutationObserver === 'undefined') return;
  observer = new MutationObserver(refreshAll);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
  window.addEventListener('languagechange', refreshAll);
}

export class I18nController implements ReactiveController {
  /** The language of the last render. */
  locale: Locale = defaultLocale;

  constructor(readonly host: Host) {
    host.addController(this);
  }

  hostConnected(): void {
    connected.add(this);
    watchLanguageChanges();
    this.locale = resolveLocale(this.host);
  }

  hostDisconnected(): void {
    connected.delete(this);
  }

  /** Resolved before every render, so a change of `lang` on the host (a reactive property) or above it takes effect. */
  hostUpdate(): void {
    this.locale = resolveLocale(this.host);
  }

  t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return translate(this.locale, key, ...args);
  }

  plural(base: PluralKey, count: number): string {
    return translatePlural(this.locale, base, count);
  }
}

// The message catalogues, their types, and translation with `{param}` interpolation and plural forms.
// Messages come in bundles, one chunk per language and bundle, fetched when a component first needs them
// (`loadMessages`): the first onboarding step downloads the small `core` bundle of one language and nothing else.
import type { core } from './messages/en/core';
import type { kyc } from './messages/en/kyc';
import type { money } from './messages/en/money';

/** Languages the components speak; adding one means adding its bundles below (the Record makes them required). */
export const locales = ['en', 'pt-BR', 'es'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

/** The English reference bundles, by name. */
interface EnglishBundles {
  core: typeof core;
  kyc: typeof kyc;
  money: typeof money;
}
/** `core`: first onboarding step, alerts, statuses, KYC step names; `kyc`: later onboarding steps, uploader, verification, KYC labels; `money`: quote, checkout, off-ramp, transactions. */
export type Bundle = keyof EnglishBundles;
export const bundles: readonly Bundle[] = ['core', 'kyc', 'money'];
/** What a language's bundle must be: exactly the English bundle's keys, each a string. */
export type BundleMessages<B extends Bundle> = { readonly [K in keyof EnglishBundles[B]]: string };

type English = EnglishBundles['core'] & EnglishBundles['kyc'] & EnglishBundles['money'];
export type MessageKey = keyof English;
/** What every catalogue must be: exactly the English keys, each a string. */
export type Messages = { readonly [K in MessageKey]: string };

/** One dynamic import per language and bundle, so a page downloads only what it shows in the language it speaks. */
const importers: { [L in Locale]: { [B in Bundle]: () => Promise<{ [K in B]: BundleMessages<B> }> } } = {
  en: {
    core: () => import('./messages/en/core'),
    kyc: () => import('./messages/en/kyc'),
    money: () => import('./messages/en/money'),
  },
  'pt-BR': {
    core: () => import('./messages/pt-BR/core'),
    kyc: () => import('./messages/pt-BR/kyc'),
    money: () => import('./messages/pt-BR/money'),
  },
  es: {
    core: () => import('./messages/es/core'),
    kyc: () => import('./messages/es/kyc'),
    money: () => import('./messages/es/money'),
  },
};

/** Per language: every message of the bundles loaded so far. */
const catalogues = new Map<Locale, Record<string, string>>();
const loaded = new Set<string>();
const loading = new Map<string, Promise<void>>();

/** Whether `translate` can answer in this language, for these bundles, now. */
export function hasMessages(locale: Locale, wanted: readonly Bundle[] = ['core']): boolean {
  return wanted.every((bundle) => loaded.has(`${locale}/${bundle}`));
}

/** Fetches a language's bundles once (later calls share the same promise); components await it before rendering. */
export function loadMessages(locale: Locale, wanted: readonly Bundle[] = ['core']): Promise<void> {
  return Promise.all(
    wanted.map((bundle) => {
      const id = `${locale}/${bundle}`;
      if (loaded.has(id)) return undefined;
      let pending = loading.get(id);
      if (!pending) {
        pending = importers[locale][bundle]().then(
          (module) => {
            const messages = (module as Partial<Record<Bundle, Record<string, string>>>)[bundle];
            catalogues.set(locale, { ...catalogues.get(locale), ...messages });
            loaded.add(id);
            loading.delete(id);
          },
          (error: unknown) => {
            loading.delete(id); // a failed chunk fetch may succeed on the next render
            throw error;
          },
        );
        loading.set(id, pending);
      }
      return pending;
    }),
  ).then(() => undefined);
}

/** `'Hi {name}, {count}'` → `'name' | 'count'`, so a call that forgets a parameter does not compile. */
type ParamNames<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | ParamNames<Rest> : never;
export type MessageParams<K extends MessageKey> = ParamNames<English[K]>;
export type TranslateArgs<K extends MessageKey> = [MessageParams<K>] extends [never]
  ? []
  : [params: Record<MessageParams<K>, string | number>];

/** Keys that come in plural forms (`x.one`, `x.other`), named without the form. */
type PluralBase<K> = K extends `${infer B}.other` ? (`${B}.one` extends MessageKey ? B : never) : never;
export type PluralKey = PluralBase<MessageKey>;

/** Replaces each `{name}` with its parameter; unknown names stay as written so a mistake is visible, not blank. */
export function interpolate(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}

/** Every message of a language; throws unless all its bundles are loaded (a programming error, not a user's). */
export function messagesFor(locale: Locale): Messages {
  if (!hasMessages(locale, bundles)) throw new Error(`The ${locale} messages are not loaded: await loadMessages('${locale}', bundles) first`);
  return catalogues.get(locale) as Messages;
}

/** The message in `locale`; before its bundle has loaded, the key itself (visible, never blank). */
export function translate<K extends MessageKey>(locale: Locale, key: K, ...args: TranslateArgs<K>): string {
  const message = catalogues.get(locale)?.[key];
  return message === undefined ? key : interpolate(message, args[0]);
}

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** Picks `base.one` or `base.other` by the language's plural rules; `{count}` is filled in. */
export function translatePlural(locale: Locale, base: PluralKey, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const form = rules.select(count) === 'one' ? 'one' : 'other';
  const key = `${base}.${form}`;
  const message = catalogues.get(locale)?.[key];
  return message === undefined ? key : interpolate(message, { count });
}

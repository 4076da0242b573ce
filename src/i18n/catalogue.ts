// The message catalogues, their types, and translation with `{param}` interpolation and plural forms.
import { en } from './messages/en';
import { ptBR } from './messages/pt-BR';

/** Languages the components speak; adding one means adding its catalogue below (the Record makes it required). */
export const locales = ['en', 'pt-BR'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

export type MessageKey = keyof typeof en;
/** What every catalogue must be: exactly the English keys, each a string. */
export type Messages = { readonly [K in MessageKey]: string };

const catalogues: Record<Locale, Messages> = { en, 'pt-BR': ptBR };

/** `'Hi {name}, {count}'` → `'name' | 'count'`, so a call that forgets a parameter does not compile. */
type ParamNames<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | ParamNames<Rest> : never;
export type MessageParams<K extends MessageKey> = ParamNames<(typeof en)[K]>;
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

export function messagesFor(locale: Locale): Messages {
  return catalogues[locale];
}

export function translate<K extends MessageKey>(locale: Locale, key: K, ...args: TranslateArgs<K>): string {
  return interpolate(catalogues[locale][key], args[0]);
}

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** Picks `base.one` or `base.other` by the language's plural rules; `{count}` is filled in. */
export function translatePlural(locale: Locale, base: PluralKey, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const form = rules.select(count) === 'one' ? 'one' : 'other';
  return interpolate(catalogues[locale][`${base}.${form}`], { count });
}

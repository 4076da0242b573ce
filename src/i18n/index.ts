// The translation infrastructure the components share: catalogues, locale resolution, Intl formatting, the Lit controller.
export {
  defaultLocale,
  interpolate,
  locales,
  messagesFor,
  translate,
  translatePlural,
  type Locale,
  type MessageKey,
  type MessageParams,
  type Messages,
  type PluralKey,
  type TranslateArgs,
} from './catalogue';
export { inheritedLang, matchLocale, resolveLocale } from './locale';
export { formatDay, formatInstant, formatMoney, regionName } from './format';
export { I18nController } from './controller';

// The translation infrastructure the components share: catalogues, locale resolution, Intl formatting, the Lit controller.
export {
  bundles,
  defaultLocale,
  hasMessages,
  interpolate,
  loadMessages,
  locales,
  messagesFor,
  translate,
  translatePlural,
  type Bundle,
  type BundleMessages,
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

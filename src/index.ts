// The library's classes, events, client and i18n, without side effects: importing this defines no tag (see define.ts).
export { RampOnboarding } from './components/onboarding/onboarding';
export { RampPixCheckout } from './components/pix-checkout/pix-checkout';
export { RampOfframp } from './components/offramp/offramp';
export {
  RampTransactionCreatedEvent,
  RampTransactionUpdatedEvent,
  RampRequoteRequestedEvent,
  RampBankAccountCreatedEvent,
  type RampTransactionCreatedDetail,
  type RampTransactionUpdatedDetail,
  type RampRequoteRequestedDetail,
  type RampBankAccountCreatedDetail,
} from './events';
export { pollingFeed, type Feed, type FeedListener } from './client/feed';
export { transactionFeed, type TransactionFeed } from './client/transaction-feed';
export { RampDocumentUploader } from './components/document-uploader/document-uploader';
export { RampVerification } from './components/verification/verification';
export { RampVerificationChangedEvent, RampDocumentUploadedEvent, type RampVerificationChangedDetail, type RampDocumentUploadedDetail } from './events';
export { RampQuote } from './components/quote/quote';
export { CountdownController, type CountdownOptions } from './components/quote/countdown-controller';
export { systemClock, type Clock } from './components/quote/clock';
export { RampQuoteLockedEvent, RampQuoteExpiredEvent, type RampQuoteLockedDetail, type RampQuoteExpiredDetail } from './events';
export { RampCustomerCreatedEvent, RampErrorEvent, type RampCustomerCreatedDetail, type RampErrorDetail } from './events';
export { createBffClient, NetworkError, ProblemError, type BffClient, type BffClientOptions, type FieldProblem } from './client/bff-client';
export { IdempotencyKeys, newIdempotencyKey } from './client/idempotency';
export { defaultApiBase } from './client/api-base';
export { locales, matchLocale, type Locale } from './i18n';
export { RampWidget } from './components/widget/widget';
export { rampContext, type RampContext } from './components/widget/context';
export { RampSessionExpiringEvent, RampSessionExpiredEvent, type RampSessionExpiringDetail, type RampSessionExpiredDetail } from './events';

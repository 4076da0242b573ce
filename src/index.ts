// The library's classes, events, client and i18n, without side effects: importing this defines no tag (see define.ts).
export { RampOnboarding } from './components/onboarding/onboarding';
export { RampCustomerCreatedEvent, RampErrorEvent, type RampCustomerCreatedDetail, type RampErrorDetail } from './events';
export { createBffClient, NetworkError, ProblemError, type BffClient, type BffClientOptions, type FieldProblem } from './client/bff-client';
export { IdempotencyKeys, newIdempotencyKey } from './client/idempotency';
export { defaultApiBase } from './client/api-base';
export { locales, matchLocale, type Locale } from './i18n';

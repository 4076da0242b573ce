// Every event the components fire, typed; `HTMLElementEventMap` is extended in each event's file.
export { RampCustomerCreatedEvent, type RampCustomerCreatedDetail } from './customer-created';
export { RampErrorEvent, type RampErrorDetail } from './error';
export { RampTransactionCreatedEvent, type RampTransactionCreatedDetail } from './transaction-created';
export { RampTransactionUpdatedEvent, type RampTransactionUpdatedDetail } from './transaction-updated';
export { RampRequoteRequestedEvent, type RampRequoteRequestedDetail } from './requote-requested';
export { RampBankAccountCreatedEvent, type RampBankAccountCreatedDetail } from './bank-account-created';
export { RampQuoteLockedEvent, type RampQuoteLockedDetail } from './quote-locked';
export { RampQuoteExpiredEvent, type RampQuoteExpiredDetail } from './quote-expired';
export { RampVerificationChangedEvent, type RampVerificationChangedDetail } from './verification-changed';
export { RampDocumentUploadedEvent, type RampDocumentUploadedDetail } from './document-uploaded';
export { RampSessionExpiringEvent, RampSessionExpiredEvent, type RampSessionExpiringDetail, type RampSessionExpiredDetail } from './session';

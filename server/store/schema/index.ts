// Every table, for Drizzle's relational queries and drizzle-kit.
export * from './partners';
export * from './api-keys';
export * from './customers';
export * from './idempotency-keys';
export * from './events';
export * from './settings';
export * from './documents';
export * from './associated-parties';
export * from './verifications';
export * from './jobs';
export * from './wallets';
export * from './ledger';
export * from './exchange-rates';
export * from './partner-fees';
export * from './limits';
export * from './bank-accounts';
export * from './transactions';

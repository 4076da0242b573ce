// Rows → the response shapes of the contract, in one place: routes, the BFF and the event rows that flows write use these.
export * from './bank-accounts';
export * from './customers';
export * from './deposits';
export * from './events';
export * from './transactions';

// Transactions as they move: creation (create.ts), the life cycle (lifecycle.ts), ledger rules (ledger.ts), reads (read.ts), quote resolution
// (quote.ts), the rails behind the SettlementProvider port (rails.ts), job handlers (jobs.ts) and presentation (present.ts).
export { createOffRamp, createOnRamp, createTransfer } from './create';
export type { TxDeps } from './deps';
export { autopayJob, expireJob, stepJob } from './jobs';
export { failTransaction, payOnRamp } from './lifecycle';
export { listPartnerTransactions, readTransaction } from './read';
export { PAYMENT_WINDOW_SECONDS, TX_EXPIRE_JOB, TX_PAY_JOB, TX_STEP_JOB } from './rails';
export type { TxType } from '../../domain/transactions';

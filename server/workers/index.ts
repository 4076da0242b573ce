// The workers of this process: one job runner with a handler per job kind.
import type { Deps } from '../deps';
import { REVIEW_JOB, runReview } from '../flows/verification';
import { BANK_REVIEW_JOB, reviewBankAccountJob } from '../flows/bank-accounts';
import { autopayJob, expireJob, stepJob, TX_EXPIRE_JOB, TX_PAY_JOB, TX_STEP_JOB } from '../flows/transactions';
import { JobRunner } from './runner';

export function createWorkers(deps: Deps): JobRunner {
  return new JobRunner(deps.store.db, deps.clock, deps.logger, {
    [REVIEW_JOB]: (tx, job) => runReview(tx, deps, job),
    [BANK_REVIEW_JOB]: (tx, job) => reviewBankAccountJob(tx, deps, job),
    [TX_STEP_JOB]: (tx, job) => stepJob(tx, deps, job),
    [TX_EXPIRE_JOB]: (tx, job) => expireJob(tx, deps, job),
    [TX_PAY_JOB]: (tx, job) => autopayJob(tx, deps, job),
  }, {
    // PGlite has one connection: its transactions run one after another anyway.
    concurrency: deps.store.kind === 'postgres' ? deps.config.RAMP_JOB_CONCURRENCY : 1,
    maxAttempts: deps.config.RAMP_JOB_MAX_ATTEMPTS,
    retentionMs: deps.config.RAMP_JOB_RETENTION_MS,
    eventRetentionMs: deps.config.RAMP_EVENT_RETENTION_MS,
    attemptRetentionMs: deps.config.RAMP_WEBHOOK_ATTEMPT_RETENTION_MS,
    cleanupIntervalMs: deps.config.RAMP_CLEANUP_INTERVAL_MS,
    metrics: deps.metrics,
  });
}

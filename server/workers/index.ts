// The workers of this process: one job runner with a handler per job kind.
import type { Deps } from '../http/deps';
import { REVIEW_JOB, runReview } from '../flows/verification';
import { JobRunner } from './runner';

export function createWorkers(deps: Deps): JobRunner {
  return new JobRunner(deps.store.db, deps.clock, deps.logger, {
    [REVIEW_JOB]: (tx, job) => runReview(tx, deps, job),
  });
}

// The job worker: claims due jobs (FOR UPDATE SKIP LOCKED), up to `concurrency` at once, runs each in the transaction that
// claimed it, retries failures with backoff and parks what cannot succeed; cleans up old rows in the background.
import { AsyncResource } from 'node:async_hooks';
import type { Clock } from '../clock';
import { AppError } from '../domain/errors';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { inJobSpan } from '../tracing';
import { type Db, isConnectionError, type Tx, inTransaction } from '../store/db';
import { deleteExpiredKeys } from '../store/queries/idempotency';
import { removeExpiredSessionUploads } from '../store/queries/session-uploads';
import { deleteOldAttempts, deleteOldEvents } from '../store/queries/webhooks';
import { claimDueJob, deleteDoneJobs, finishJob, type JobRow, jobsEnqueued, parkJob, retryJob } from '../store/queries/jobs';

/** Jobs one poll of a started runner runs at most before it lets its timers (stop, cleanup) in. */
const POLL_LIMIT = 100;

export type JobHandler = (tx: Tx, job: JobRow) => Promise<void>;

export interface RunnerOptions {
  /**
   * Jobs run at once by this process (RAMP_JOB_CONCURRENCY), each in its own transaction on its own connection. Jobs of one
   * transaction stay in order regardless: each step is enqueued by the step before it, when that one commits.
   */
  concurrency?: number;
  /** Attempts before a failing job is parked (RAMP_JOB_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Done jobs older than this are deleted (RAMP_JOB_RETENTION_MS). */
  retentionMs?: number;
  /** Events older than this are deleted once their webhooks are done with them (RAMP_EVENT_RETENTION_MS); 0 keeps them. */
  eventRetentionMs?: number;
  /** Webhook attempts (the deliveries log) older than this are deleted (RAMP_WEBHOOK_ATTEMPT_RETENTION_MS); 0 keeps them. */
  attemptRetentionMs?: number;
  /** How often the cleanup runs (RAMP_CLEANUP_INTERVAL_MS); 0 turns it off. */
  cleanupIntervalMs?: number;
  /** Rows per cleanup statement: small, so that no delete holds locks for long. */
  cleanupBatch?: number;
  /** Longest pause between two polls when no job was due (the pause doubles from the interval up to this). */
  maxIdleMs?: number;
  /** Counts each job run by kind and outcome (`ramp_job_runs_total`). */
  metrics?: Pick<Metrics, 'jobRuns'>;
}

/** What a failure means for the job: try again later, or stop and keep the reason. */
export function classifyJobError(err: unknown): 'retry' | 'park' {
  // A refusal by the rules (a ledger that does not balance, a balance too small): running it again changes nothing.
  if (err instanceof AppError) return 'park';
  return 'retry';
}

/** A short reason for `last_error`, logs and /readyz: the error's kind, code and first line, never query parameters. */
export function reasonOf(err: unknown): string {
  if (err instanceof AppError) return `${err.code}: ${err.detail}`;
  const parts: string[] = [];
  for (let e = err as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0; e && i < 3; e = e.cause as typeof e, i++) {
    const code = typeof e.code === 'string' ? ` ${e.code}` : '';
    const message = typeof e.message === 'string' ? e.message.split('\n')[0]!.slice(0, 300) : String(e);
    parts.push(`${typeof e.name === 'string' ? e.name : 'Error'}${code}: ${message}`);
  }
  return parts.join(' <- ') || String(err);
}

export class JobRunner {
  private timer: NodeJS.Timeout | undefined;
  private cleanupTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private cleaning: Promise<void> | undefined;
  private stopped = true;
  private wake: (() => void) | undefined;
  /** Set by `stop`: the current job step finishes, no new one starts. */
  private stopRequested = false;
  private readonly opts: Required<Omit<RunnerOptions, 'metrics'>>;
  private readonly metrics: RunnerOptions['metrics'];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly handlers: Record<string, JobHandler>,
    opts: RunnerOptions = {},
  ) {
    const { metrics, ...rest } = opts;
    this.metrics = metrics;
    this.opts = { concurrency: 1, maxAttempts: 8, retentionMs: 7 * 86_400_000, eventRetentionMs: 0, attemptRetentionMs: 0, cleanupIntervalMs: 60_000, cleanupBatch: 500, maxIdleMs: 1000, ...rest };
  }

  /**
   * Runs every job that is due now, up to `limit`, with up to `concurrency` in flight; answers how many ran. Tests call it
   * directly; `start` calls it on a timer. Each slot claims and runs one job after another until none is left to claim.
   */
  async runDue(limit = 100): Promise<number> {
    let ran = 0;
    let taken = 0;
    const slot = async () => {
      while (taken < limit && !this.stopRequested) {
        taken++;
        if (!(await this.runOne())) return void taken--;
        ran++;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.opts.concurrency, limit)) }, slot));
    return ran;
  }

  /** Claims one due job and runs it in the claim's transaction; answers false when none could be claimed. */
  private async runOne(): Promise<boolean> {
    return inTransaction(this.db, async (tx) => {
        const job = await claimDueJob(tx, new Date());
        if (!job) return false;
        // The job runs on its partner's clock, as the request that enqueued it did.
        await this.clock.within(job.clockOffsetMs, async () => {
          try {
            const handler = this.handlers[job.kind];
            if (!handler) throw new AppError('INTERNAL', `no handler for job kind ${job.kind}`);
            // A savepoint: a failing handler undoes its own writes, and the claim's transaction records the retry.
            await inJobSpan(job, () => inTransaction(tx, (inner) => handler(inner, job)));
            await finishJob(tx, job.id, this.clock.now());
            this.metrics?.jobRuns.inc({ kind: job.kind, outcome: 'done' });
          } catch (err) {
            const attempt = job.attempts + 1;
            const reason = reasonOf(err);
            if (classifyJobError(err) === 'park' || attempt >= this.opts.maxAttempts) {
              this.logger.error({ jobId: job.id, kind: job.kind, attempt, reason }, 'job parked: it will not be retried; see last_error and /readyz');
              await parkJob(tx, job.id, this.clock.now(), reason);
              this.metrics?.jobRuns.inc({ kind: job.kind, outcome: 'parked' });
            } else {
              const delay = Math.min(3_600_000, 1000 * 2 ** attempt) * (0.5 + Math.random() / 2);
              this.logger.warn({ jobId: job.id, kind: job.kind, attempt, reason, retryInMs: Math.round(delay) }, 'job failed, will retry');
              await retryJob(tx, job.id, new Date(this.clock.now().getTime() + delay), reason);
              this.metrics?.jobRuns.inc({ kind: job.kind, outcome: 'retry' });
            }
          }
        });
        return true;
      })
      .catch((err) => {
        if (isConnectionError(err)) this.logger.warn({ reason: reasonOf(err) }, 'job claim failed: database unavailable');
        else this.logger.error({ reason: reasonOf(err) }, 'job claim failed');
        return false;
      });
  }

  /**
   * Deletes idempotency keys past their 24 h window and jobs done longer ago than the retention, in small
   * batches (each its own statement) until none is left; answers how many rows went.
   */
  async cleanup(): Promise<{ idempotencyKeys: number; jobs: number; events: number; webhookAttempts: number; sessionUploads: number }> {
    const now = this.clock.now();
    const batch = this.opts.cleanupBatch;
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const drain = async (step: () => Promise<number>) => {
      let total = 0;
      for (let n = batch; n === batch && !this.stopRequested; ) total += n = await step();
      return total;
    };
    const out = {
      idempotencyKeys: await drain(() => deleteExpiredKeys(this.db, now, batch)),
      jobs: await drain(() => deleteDoneJobs(this.db, ago(this.opts.retentionMs), batch)),
      events: this.opts.eventRetentionMs ? await drain(() => deleteOldEvents(this.db, ago(this.opts.eventRetentionMs), batch)) : 0,
      webhookAttempts: this.opts.attemptRetentionMs ? await drain(() => deleteOldAttempts(this.db, ago(this.opts.attemptRetentionMs), batch)) : 0,
      sessionUploads: await drain(() => removeExpiredSessionUploads(this.db, now, batch)),
    };
    if (Object.values(out).some(Boolean)) this.logger.info(out, 'cleanup: old rows deleted');
    return out;
  }

  /**
   * Polls every `intervalMs` while there is work; when a poll finds nothing due the pause doubles, up to `maxIdleMs`, so an
   * idle worker costs a few statements a second, not dozens. A job enqueued by this process wakes the worker at once
   * (the next poll runs `intervalMs` later, after the enqueuing transaction has had time to commit).
   */
  start(intervalMs = 100): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopRequested = false;
    let idleMs = intervalMs;
    let polling = false;
    let woken = false;
    // A wake comes from inside the enqueuing request, whose async context holds its partner clock; a timer set there
    // would carry it into every later poll. Polls run in the context of `start`.
    const inWorkerContext = AsyncResource.bind(() => tick());
    const schedule = (ms: number) => {
      if (this.stopped) return;
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(inWorkerContext, ms);
    };
    // Bound to this context: a wake comes from a request (enqueueJob), whose async context the timer would otherwise
    // carry into every later poll.
    const tick = AsyncResource.bind(() => {
      if (this.stopped) return;
      polling = true;
      let more = false;
      this.running = this.runDue(POLL_LIMIT)
        // A poll that stopped at its limit left due jobs behind: the next one starts at once.
        .then((ran) => ((more = ran >= POLL_LIMIT), (idleMs = ran > 0 || woken ? intervalMs : Math.min(this.opts.maxIdleMs, idleMs * 2))))
        .catch((err) => this.logger.error({ reason: reasonOf(err) }, 'worker tick failed'))
        .then(() => {
          polling = false;
          woken = false;
          schedule(more ? 0 : idleMs);
        });
    });
    this.wake = () => {
      idleMs = intervalMs;
      if (polling) woken = true;
      else schedule(intervalMs);
    };
    jobsEnqueued.addEventListener('enqueued', this.wake);
    tick();
    if (this.opts.cleanupIntervalMs > 0) {
      const clean = () => {
        if (this.stopped) return;
        this.cleaning = this.cleanup()
          .then(() => undefined)
          .catch((err) => this.logger.warn({ reason: reasonOf(err) }, 'cleanup failed; next round retries'))
          .then(() => {
            if (!this.stopped) this.cleanupTimer = setTimeout(clean, this.opts.cleanupIntervalMs);
          });
      };
      this.cleanupTimer = setTimeout(clean, Math.min(5_000, this.opts.cleanupIntervalMs));
    }
  }

  /** Lets the job step in progress finish, starts no other, and resolves when the worker is idle. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopRequested = true;
    if (this.wake) jobsEnqueued.removeEventListener('enqueued', this.wake);
    if (this.timer) clearTimeout(this.timer);
    if (this.cleanupTimer) clearTimeout(this.cleanupTimer);
    await Promise.all([this.running, this.cleaning]);
  }
}

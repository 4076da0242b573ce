// The job worker: claims due jobs one at a time (FOR UPDATE SKIP LOCKED), runs each in the transaction that claimed it, retries failures with backoff.
import type { Clock } from '../clock';
import { AppError } from '../domain/errors';
import type { Logger } from '../logger';
import type { Db, Tx } from '../store/db';
import { claimDueJob, finishJob, type JobRow, retryJob } from '../store/queries/jobs';

export type JobHandler = (tx: Tx, job: JobRow) => Promise<void>;

export class JobRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly handlers: Record<string, JobHandler>,
  ) {}

  /** Runs every job that is due now; answers how many ran. Tests call it directly; `start` calls it on a timer. */
  async runDue(limit = 100): Promise<number> {
    let ran = 0;
    while (ran < limit) {
      const claimed = await this.db
        .transaction(async (tx) => {
          const job = await claimDueJob(tx, this.clock.now());
          if (!job) return false;
          try {
            const handler = this.handlers[job.kind];
            if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
            // A savepoint: a failing handler undoes its own writes, and the claim's transaction records the retry.
            await tx.transaction((inner) => handler(inner, job));
            await finishJob(tx, job.id, this.clock.now());
          } catch (err) {
            if (err instanceof AppError) {
              // A refusal by the rules (the subject moved on): retrying would not change it.
              await finishJob(tx, job.id, this.clock.now());
            } else {
              const delay = Math.min(3_600_000, 1000 * 2 ** (job.attempts + 1)) * (0.5 + Math.random() / 2);
              this.logger.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts + 1, err }, 'job failed, will retry');
              await retryJob(tx, job.id, new Date(this.clock.now().getTime() + delay), String((err as Error)?.message ?? err));
            }
          }
          return true;
        })
        .catch((err) => {
          this.logger.error({ err }, 'job claim failed');
          return false;
        });
      if (!claimed) break;
      ran++;
    }
    return ran;
  }

  start(intervalMs = 100): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.runDue()
        .catch((err) => this.logger.error({ err }, 'worker tick failed'))
        .then(() => {
          if (!this.stopped) this.timer = setTimeout(tick, intervalMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}

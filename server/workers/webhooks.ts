// The webhook dispatcher: turns new event rows into deliveries (the outbox's reader) and makes due attempts, signed, with
// backoff and jitter between them. Several processes share the work: fan-out and claims use FOR UPDATE SKIP LOCKED, and an
// attempt whose process died is retried when its lease (timeout + 5 s) runs out. At least once: receivers dedupe by `webhook-id`.
import { retryDelayMs, signDelivery } from '../domain/webhooks';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import type { Db } from '../store/db';
import { type ClaimedAttempt, claimDueAttempts, fanOutEvents, finishAttempt } from '../store/queries/webhooks';
import { reasonOf } from './runner';
import { HttpWebhookSender, type WebhookSender } from './webhook-sender';
import { PollLoop } from './poll-loop';

/** How long past its timeout an attempt stays claimed: time to record its outcome. After that, its process is taken for dead. */
export const LEASE_MARGIN_MS = 5000;

export interface DispatcherOptions {
  scheduleS: readonly number[];
  timeoutMs: number;
  pollMs: number;
  publicOnly: boolean;
  /** Counts each finished attempt by outcome (`ramp_webhook_deliveries_total`), once its outcome is recorded. */
  metrics?: Pick<Metrics, 'webhookDeliveries'>;
}

/** The body every delivery carries: the event as GET /v2/events/{id} shows it. */
export function eventBody(e: ClaimedAttempt['event']): string {
  return JSON.stringify({ eventId: e.id, eventType: e.eventType, createdAt: e.createdAt.toISOString(), data: e.data });
}

export class WebhookDispatcher {
  private readonly loop: PollLoop;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly opts: DispatcherOptions,
    private readonly sender: WebhookSender = new HttpWebhookSender({ timeoutMs: opts.timeoutMs, publicOnly: opts.publicOnly }),
  ) {
    this.loop = new PollLoop(() => this.runDue(), opts.pollMs, (err) => this.logger.warn({ reason: reasonOf(err) }, 'webhook dispatcher tick failed; next tick retries'));
  }

  /** One pass: fans out new events, then claims and sends every due attempt (waiting for them). Answers how many attempts ran. */
  async runDue(): Promise<number> {
    while ((await fanOutEvents(this.db, new Date())) > 0);
    let ran = 0;
    for (;;) {
      const claimed = await claimDueAttempts(this.db, new Date(), this.opts.timeoutMs + LEASE_MARGIN_MS, 10);
      if (!claimed.length) break;
      await Promise.all(claimed.map((c) => this.attempt(c)));
      ran += claimed.length;
      if (this.stopping) break;
    }
    return ran;
  }

  private stopping = false;

  private attempt(c: ClaimedAttempt): Promise<void> {
    const p = (async () => {
      const now = new Date();
      const secrets = [c.endpoint.secret];
      if (c.endpoint.previousSecret && c.endpoint.previousSecretExpiresAt && c.endpoint.previousSecretExpiresAt > now) secrets.push(c.endpoint.previousSecret);
      const body = eventBody(c.event);
      const headers = signDelivery({ eventId: c.event.id, body, at: now, secrets });
      const result = await this.sender.send(c.endpoint.url, body, headers);
      const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      const delay = succeeded ? undefined : retryDelayMs(this.opts.scheduleS, c.attempt);
      const at = new Date();
      const log = { endpointId: c.endpoint.id, eventId: c.event.id, attempt: c.attempt, statusCode: result.statusCode, durationMs: result.durationMs };
      if (succeeded) this.logger.info(log, 'webhook delivered');
      else if (delay === undefined) this.logger.warn({ ...log, error: result.error }, 'webhook failed for good: attempts exhausted');
      else this.logger.info({ ...log, error: result.error, retryInMs: delay }, 'webhook attempt failed, will retry');
      await finishAttempt(this.db, { attemptId: c.attemptId, deliveryId: c.deliveryId, attempt: c.attempt, ...result, succeeded, at, retryAt: delay === undefined ? undefined : new Date(at.getTime() + delay) });
      this.opts.metrics?.webhookDeliveries.inc({ outcome: succeeded ? 'delivered' : delay === undefined ? 'exhausted' : 'retrying' });
    })().catch((err) => this.logger.error({ reason: reasonOf(err), deliveryId: c.deliveryId }, 'webhook attempt could not be recorded; its lease runs out and it is retried'));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }

  start(): void {
    if (this.opts.pollMs <= 0) return;
    this.stopping = false;
    this.loop.start();
  }

  /** Starts no new pass; waits for the attempts in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    await Promise.all(this.inFlight);
  }
}

export function webhookDispatcher(
  deps: { store: { db: Db }; logger: Logger; metrics?: Pick<Metrics, 'webhookDeliveries'>; config: { webhookSchedule: number[]; RAMP_WEBHOOK_TIMEOUT_MS: number; RAMP_WEBHOOK_POLL_MS: number; sandbox: boolean } },
  sender?: WebhookSender,
): WebhookDispatcher {
  const { config } = deps;
  return new WebhookDispatcher(
    deps.store.db,
    deps.logger,
    { scheduleS: config.webhookSchedule, timeoutMs: config.RAMP_WEBHOOK_TIMEOUT_MS, pollMs: config.RAMP_WEBHOOK_POLL_MS, publicOnly: !config.sandbox, metrics: deps.metrics },
    sender,
  );
}

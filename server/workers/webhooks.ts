// The webhook dispatcher: turns new event rows into deliveries (the outbox's reader) and makes due attempts, signed, with
// backoff and jitter between them. Several processes share the work: fan-out and claims use FOR UPDATE SKIP LOCKED, and an
// attempt whose process died is retried when its lease (timeout + 5 s) runs out. At least once: receivers dedupe by `webhook-id`.
// One slow or dead receiver must not hold up the others: every pass fans out new events first, whatever is in flight; sends run
// in the background, at most RAMP_WEBHOOK_CONCURRENCY at once and RAMP_WEBHOOK_ENDPOINT_CONCURRENCY per endpoint, and a pass
// never waits for one to finish; claims are fair across partners and endpoints; a failing endpoint backs off on its own and is
// paused after RAMP_WEBHOOK_PAUSE_AFTER failures in a row.
import { pauseFailingEndpoint, secretContext } from '../flows/webhooks';
import { retryDelayMs, signDelivery } from '../domain/webhooks';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { presentEvent } from '../presenters';
import type { Db } from '../store/db';
import type { SealedBox, Tokens } from '../tokens';
import { type ClaimedAttempt, claimDueAttempts, fanOutEvents, finishAttempt } from '../store/queries/webhooks';
import { reasonOf } from './runner';
import { HttpWebhookSender, type SendResult, type WebhookSender } from './webhook-sender';
import { PollLoop } from './poll-loop';

/** How long past its timeout an attempt stays claimed: time to record its outcome. After that, its process is taken for dead. */
export const LEASE_MARGIN_MS = 5000;
/** Fan-out batches (of 100 events) per pass at most: the rest go on the next pass, a poll later. */
const FAN_OUT_BATCHES = 10;

export interface DispatcherOptions {
  scheduleS: readonly number[];
  timeoutMs: number;
  pollMs: number;
  publicOnly: boolean;
  /** Opens the endpoints' signing secrets (stored encrypted; plain ones from before encryption as they are). */
  secrets: SealedBox;
  /** Attempts in flight at most in this process, over all endpoints (default 32). */
  concurrency?: number;
  /** Attempts in flight at most in this process to one endpoint (default 2). */
  endpointConcurrency?: number;
  /** Failed attempts in a row after which an endpoint is paused (0: never; default 20). */
  pauseAfter?: number;
  /** Counts each finished attempt by outcome (`ramp_webhook_deliveries_total`), once its outcome is recorded. */
  metrics?: Pick<Metrics, 'webhookDeliveries'>;
}

/** The body every delivery carries: the event as GET /v2/events/{id} shows it. */
export function eventBody(e: ClaimedAttempt['event']): string {
  return JSON.stringify(presentEvent(e));
}

/**
 * How long a failing endpoint waits before any attempt to it after `failures` in a row: the delivery schedule's delay for
 * that many, its last entry past its end. So a dead endpoint costs a few attempts per backoff, not one per queued delivery.
 */
export function endpointBackoffMs(scheduleS: readonly number[], failures: number): number {
  if (!scheduleS.length || failures < 1) return 0;
  return retryDelayMs(scheduleS, Math.min(failures, scheduleS.length)) ?? 0;
}

export class WebhookDispatcher {
  private readonly loop: PollLoop;
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts in flight in this process, by endpoint id: what the claim counts against the per-endpoint cap. */
  private readonly byEndpoint = new Map<string, number>();
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly opts: DispatcherOptions,
    private readonly sender: WebhookSender = new HttpWebhookSender({ timeoutMs: opts.timeoutMs, publicOnly: opts.publicOnly }),
  ) {
    this.loop = new PollLoop(() => this.pass(), opts.pollMs, (err) => this.logger.warn({ reason: reasonOf(err) }, 'webhook dispatcher tick failed; next tick retries'));
  }

  /**
   * One pass of the loop: fans out new events (whatever is in flight), then claims due attempts while slots are free and
   * starts them without waiting: each send finishes in the background (bounded by the timeout) and frees its slot for the
   * next pass. Answers how many attempts it started.
   */
  async pass(): Promise<number> {
    await this.fanOut();
    const concurrency = this.opts.concurrency ?? 32;
    let started = 0;
    while (!this.stopping) {
      const free = concurrency - this.inFlight.size;
      if (free <= 0) break;
      const claimed = await claimDueAttempts(this.db, new Date(), this.opts.timeoutMs + LEASE_MARGIN_MS, free, { perEndpoint: this.opts.endpointConcurrency ?? 2, inFlight: this.byEndpoint });
      for (const c of claimed) this.attempt(c);
      started += claimed.length;
      // Fewer than asked: nothing else is due, or every endpoint with due deliveries is at its cap.
      if (claimed.length < free) break;
      await this.fanOut();
    }
    return started;
  }

  /** Passes until one starts nothing, each waiting for the attempts it started (scripts and tests). Answers how many ran. */
  async runDue(): Promise<number> {
    let ran = 0;
    for (;;) {
      const started = await this.pass();
      await Promise.all(this.inFlight);
      ran += started;
      if (!started || this.stopping) return ran;
    }
  }

  private async fanOut(): Promise<void> {
    for (let i = 0; i < FAN_OUT_BATCHES && (await fanOutEvents(this.db, new Date())) > 0; i++);
  }

  private attempt(c: ClaimedAttempt): void {
    const endpointId = c.endpoint.id;
    this.byEndpoint.set(endpointId, (this.byEndpoint.get(endpointId) ?? 0) + 1);
    const p = (async () => {
      const now = new Date();
      const context = secretContext(c.endpoint);
      const current = this.opts.secrets.open(c.endpoint.secret, context);
      const secrets = current === undefined ? [] : [current];
      if (c.endpoint.previousSecret && c.endpoint.previousSecretExpiresAt && c.endpoint.previousSecretExpiresAt > now) {
        const previous = this.opts.secrets.open(c.endpoint.previousSecret, context);
        if (previous !== undefined) secrets.push(previous);
      }
      const body = eventBody(c.event);
      // A secret that does not open (RAMP_SESSION_SECRET changed) signs nothing: the attempt fails, logged, until the secret is rotated.
      const result: SendResult =
        current === undefined
          ? { statusCode: null, durationMs: 0, error: 'the endpoint’s signing secret cannot be read (was RAMP_SESSION_SECRET changed?): rotate the secret' }
          : await this.sender.send(c.endpoint.url, body, signDelivery({ eventId: c.event.id, body, at: now, secrets }));
      const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      const delay = succeeded ? undefined : retryDelayMs(this.opts.scheduleS, c.attempt);
      const at = new Date();
      const log = { endpointId, eventId: c.event.id, attempt: c.attempt, statusCode: result.statusCode, durationMs: result.durationMs };
      if (succeeded) this.logger.info(log, 'webhook delivered');
      else if (delay === undefined) this.logger.warn({ ...log, error: result.error }, 'webhook failed for good: attempts exhausted');
      else this.logger.info({ ...log, error: result.error, retryInMs: delay }, 'webhook attempt failed, will retry');
      const { consecutiveFailures } = await finishAttempt(this.db, {
        attemptId: c.attemptId,
        deliveryId: c.deliveryId,
        attempt: c.attempt,
        ...result,
        succeeded,
        at,
        retryAt: delay === undefined ? undefined : new Date(at.getTime() + delay),
        endpointId,
        endpointBackoffMs: (failures) => endpointBackoffMs(this.opts.scheduleS, failures),
      });
      this.opts.metrics?.webhookDeliveries.inc({ outcome: succeeded ? 'delivered' : delay === undefined ? 'exhausted' : 'retrying' });
      const pauseAfter = this.opts.pauseAfter ?? 20;
      if (!succeeded && pauseAfter > 0 && consecutiveFailures >= pauseAfter) {
        const paused = await pauseFailingEndpoint(this.db, endpointId, consecutiveFailures, at);
        if (paused) this.logger.warn({ endpointId, partnerId: paused.partnerId, consecutiveFailures }, 'webhook endpoint paused after a run of failed attempts; PATCH enabled: true resumes it');
      }
    })()
      .catch((err) => this.logger.error({ reason: reasonOf(err), deliveryId: c.deliveryId }, 'webhook attempt could not be recorded; its lease runs out and it is retried'))
      .finally(() => {
        this.inFlight.delete(p);
        const n = (this.byEndpoint.get(endpointId) ?? 1) - 1;
        if (n > 0) this.byEndpoint.set(endpointId, n);
        else this.byEndpoint.delete(endpointId);
      });
    this.inFlight.add(p);
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
  deps: {
    store: { db: Db };
    tokens: Pick<Tokens, 'webhookSecrets'>;
    logger: Logger;
    metrics?: Pick<Metrics, 'webhookDeliveries'>;
    config: {
      webhookSchedule: number[];
      RAMP_WEBHOOK_TIMEOUT_MS: number;
      RAMP_WEBHOOK_POLL_MS: number;
      RAMP_WEBHOOK_CONCURRENCY?: number;
      RAMP_WEBHOOK_ENDPOINT_CONCURRENCY?: number;
      RAMP_WEBHOOK_PAUSE_AFTER?: number;
      sandbox: boolean;
    };
  },
  sender?: WebhookSender,
): WebhookDispatcher {
  const { config } = deps;
  return new WebhookDispatcher(
    deps.store.db,
    deps.logger,
    {
      scheduleS: config.webhookSchedule,
      timeoutMs: config.RAMP_WEBHOOK_TIMEOUT_MS,
      pollMs: config.RAMP_WEBHOOK_POLL_MS,
      publicOnly: !config.sandbox,
      secrets: deps.tokens.webhookSecrets,
      concurrency: config.RAMP_WEBHOOK_CONCURRENCY,
      endpointConcurrency: config.RAMP_WEBHOOK_ENDPOINT_CONCURRENCY,
      pauseAfter: config.RAMP_WEBHOOK_PAUSE_AFTER,
      metrics: deps.metrics,
    },
    sender,
  );
}

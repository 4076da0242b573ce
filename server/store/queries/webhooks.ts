// Webhook rows: endpoints, the fan-out from event rows to deliveries, claiming due attempts (FOR UPDATE SKIP LOCKED) and the attempt log.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { eventMatches } from '../../../src/contract/webhooks';
import { newId } from '../../ids';
import { type Db, inTransaction } from '../db';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../schema/index';
import { rowsOf } from './idempotency';
import { paginate } from './paginate';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
export type EventRow = typeof events.$inferSelect;

/** The error of an attempt closed because a later one began while it was still open. */
export const INTERRUPTED = 'interrupted: the sender stopped before the receiver answered; the delivery was tried again';

export async function insertEndpoint(db: Db, row: typeof webhookEndpoints.$inferInsert): Promise<WebhookEndpointRow> {
  const [created] = await db.insert(webhookEndpoints).values(row).returning();
  return created!;
}

export async function getEndpoint(db: Db, partnerId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.partnerId, partnerId), eq(webhookEndpoints.id, id)));
  return row;
}

/** The partner's endpoint at exactly this URL, if any (the demo's built-in receiver finds its own after a restart). */
export async function getEndpointByUrl(db: Db, partnerId: string, url: string): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.partnerId, partnerId), eq(webhookEndpoints.url, url))).limit(1);
  return row;
}

export function listEndpoints(db: Db, partnerId: string, page: { size: number; cursor?: string }) {
  return paginate<WebhookEndpointRow>(db, webhookEndpoints, eq(webhookEndpoints.partnerId, partnerId), page);
}

export async function updateEndpoint(db: Db, id: string, set: Partial<typeof webhookEndpoints.$inferInsert>): Promise<WebhookEndpointRow> {
  const [row] = await db.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id)).returning();
  return row!;
}

/** Deletes an endpoint and its pending deliveries (its attempt log goes with it). */
export async function deleteEndpoint(db: Db, id: string): Promise<void> {
  await db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
  await db.delete(webhookAttempts).where(eq(webhookAttempts.endpointId, id));
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

export function listAttempts(db: Db, endpointId: string, page: { size: number; cursor?: string }) {
  return paginate<WebhookAttemptRow>(db, webhookAttempts, eq(webhookAttempts.endpointId, endpointId), page);
}

export async function getEvent(db: Db, partnerId: string, id: string): Promise<EventRow | undefined> {
  const [row] = await db.select().from(events).where(and(eq(events.partnerId, partnerId), eq(events.id, id)));
  return row;
}

/** New deliveries of one event: to the given endpoints, or to every enabled endpoint of its partner that subscribes to its type. */
export async function createDeliveries(db: Db, event: EventRow, at: Date, only?: WebhookEndpointRow[]): Promise<{ deliveryId: string; endpointId: string }[]> {
  const endpoints = only ?? (await db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.partnerId, event.partnerId), eq(webhookEndpoints.enabled, true))));
  const made = endpoints.filter((e) => e.enabled && eventMatches(e.events, event.eventType)).map((e) => ({ deliveryId: newId(), endpointId: e.id }));
  if (made.length) {
    await db.insert(webhookDeliveries).values(made.map((m) => ({ id: m.deliveryId, partnerId: event.partnerId, endpointId: m.endpointId, eventId: event.id, nextAttemptAt: at })));
  }
  return made;
}

/**
 * Fans out up to `limit` events not yet fanned out (oldest first) into deliveries, in one transaction: the events are locked
 * (SKIP LOCKED), so two processes never fan out the same event. Answers how many events it handled.
 */
export async function fanOutEvents(db: Db, at: Date, limit = 100): Promise<number> {
  return inTransaction(db, async (tx) => {
    const ids = rowsOf<{ id: string }>(await tx.execute(sql`SELECT id FROM ${events} WHERE fanned_out_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`));
    for (const { id } of ids) {
      const [event] = await tx.select().from(events).where(eq(events.id, id));
      if (event) await createDeliveries(tx as unknown as Db, event, at);
    }
    if (ids.length) await tx.update(events).set({ fannedOutAt: at }).where(sql`${events.id} IN (${sql.join(ids.map((r) => sql`${r.id}::uuid`), sql`, `)})`);
    return ids.length;
  });
}

export interface ClaimedAttempt {
  attemptId: string;
  deliveryId: string;
  attempt: number;
  endpoint: WebhookEndpointRow;
  event: EventRow;
}

export interface ClaimOptions {
  /** At most this many deliveries of one endpoint in flight (default: `limit`), counting `inFlight`. */
  perEndpoint?: number;
  /** Attempts this claimer already has in flight, by endpoint id: they count against `perEndpoint`. */
  inFlight?: ReadonlyMap<string, number>;
}

/**
 * Claims up to `limit` due deliveries, fairly: round-robin over partners, and within a partner over its endpoints, each
 * endpoint's oldest due deliveries first and at most `perEndpoint` of them in flight; an endpoint backing off (`retry_at`)
 * or paused by the service is skipped. In one short transaction each is locked (SKIP LOCKED), its attempt number taken
 * (`attempts + 1`), its next try pushed out by `leaseMs` (so that a process that dies mid-attempt leaves it to be retried)
 * and the attempt's log row written. The unique (delivery, attempt) index makes a second claim of one attempt impossible.
 */
export async function claimDueAttempts(db: Db, now: Date, leaseMs: number, limit = 10, opts: ClaimOptions = {}): Promise<ClaimedAttempt[]> {
  const perEndpoint = Math.max(1, Math.min(opts.perEndpoint ?? limit, limit));
  const busy = JSON.stringify(Object.fromEntries(opts.inFlight ?? []));
  const at = now.toISOString();
  return inTransaction(db, async (tx) => {
    // Each endpoint's oldest due deliveries (locked, skipping rows another claimer holds), ranked within the endpoint, then
    // within the partner: rank 1 of every partner comes before rank 2 of any. Rows locked but not taken are let go at commit.
    const due = rowsOf<{ id: string }>(
      await tx.execute(sql`
        SELECT x.id FROM ${webhookEndpoints} e
        CROSS JOIN LATERAL (
          SELECT q.id, q.next_attempt_at, row_number() OVER (ORDER BY q.next_attempt_at, q.id) AS rn FROM (
            SELECT d.id, d.next_attempt_at FROM ${webhookDeliveries} d
            WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= ${at}::timestamptz
            ORDER BY d.next_attempt_at LIMIT ${perEndpoint} FOR UPDATE OF d SKIP LOCKED
          ) q
        ) x
        WHERE (e.enabled AND (e.retry_at IS NULL OR e.retry_at <= ${at}::timestamptz) OR (NOT e.enabled AND e.disabled_reason IS NULL))
          AND x.rn + COALESCE((${busy}::jsonb ->> e.id::text)::int, 0) <= ${perEndpoint}
        ORDER BY row_number() OVER (PARTITION BY e.partner_id ORDER BY x.rn, x.next_attempt_at), x.next_attempt_at
        LIMIT ${limit}`),
    );
    const claimed: ClaimedAttempt[] = [];
    for (const { id } of due) {
      const [delivery] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      if (!delivery) continue;
      const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId));
      const [event] = await tx.select().from(events).where(eq(events.id, delivery.eventId));
      if (!endpoint || !event || !endpoint.enabled) {
        await tx.update(webhookDeliveries).set({ status: 'cancelled', updatedAt: now }).where(eq(webhookDeliveries.id, id));
        continue;
      }
      const attempt = delivery.attempts + 1;
      // An earlier attempt still open was cut off (its process died, or its lease ran out before the receiver answered):
      // the log says so instead of showing it in flight for ever.
      await tx
        .update(webhookAttempts)
        .set({ finishedAt: now, succeeded: false, error: INTERRUPTED })
        .where(and(eq(webhookAttempts.deliveryId, id), isNull(webhookAttempts.finishedAt)));
      await tx
        .update(webhookDeliveries)
        .set({ attempts: attempt, nextAttemptAt: new Date(now.getTime() + leaseMs), updatedAt: now })
        .where(eq(webhookDeliveries.id, id));
      const attemptId = newId();
      await tx.insert(webhookAttempts).values({ id: attemptId, partnerId: delivery.partnerId, deliveryId: id, endpointId: endpoint.id, eventId: event.id, eventType: event.eventType, attempt, startedAt: now });
      claimed.push({ attemptId, deliveryId: id, attempt, endpoint, event });
    }
    return claimed;
  });
}

/**
 * Records an attempt's outcome and what happens to its delivery: done, retried at `retryAt`, or failed for good (no `retryAt`);
 * and the endpoint's run of failures: a success ends it, a failure adds one and (with `endpointBackoffMs`) holds every
 * attempt to the endpoint back until its own backoff passes. Answers the endpoint's failures in a row after this attempt.
 */
export async function finishAttempt(
  db: Db,
  a: { attemptId: string; deliveryId: string; attempt: number; statusCode: number | null; durationMs: number; error: string | null; succeeded: boolean; at: Date; retryAt?: Date; endpointId?: string; endpointBackoffMs?: (failures: number) => number },
): Promise<{ consecutiveFailures: number }> {
  return inTransaction(db, async (tx) => {
    await tx
      .update(webhookAttempts)
      .set({ statusCode: a.statusCode, durationMs: a.durationMs, error: a.error?.slice(0, 500) ?? null, succeeded: a.succeeded, finishedAt: a.at })
      .where(eq(webhookAttempts.id, a.attemptId));
    const status = a.succeeded ? 'succeeded' : a.retryAt ? 'pending' : 'failed';
    // Only while this attempt is still the delivery's latest: a lease that ran out and was claimed again is not overwritten.
    await tx
      .update(webhookDeliveries)
      .set({ status, nextAttemptAt: a.retryAt ?? a.at, updatedAt: a.at })
      .where(and(eq(webhookDeliveries.id, a.deliveryId), eq(webhookDeliveries.attempts, a.attempt), eq(webhookDeliveries.status, 'pending')));
    if (!a.endpointId) return { consecutiveFailures: 0 };
    if (a.succeeded) {
      await tx.update(webhookEndpoints).set({ consecutiveFailures: 0, retryAt: null }).where(eq(webhookEndpoints.id, a.endpointId));
      return { consecutiveFailures: 0 };
    }
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
      .where(eq(webhookEndpoints.id, a.endpointId))
      .returning({ failures: webhookEndpoints.consecutiveFailures });
    const failures = row?.failures ?? 0;
    const backoff = row && a.endpointBackoffMs ? a.endpointBackoffMs(failures) : 0;
    if (backoff > 0) {
      const until = new Date(a.at.getTime() + backoff);
      await tx
        .update(webhookEndpoints)
        .set({ retryAt: sql`GREATEST(COALESCE(${webhookEndpoints.retryAt}, ${until.toISOString()}::timestamptz), ${until.toISOString()}::timestamptz)` })
        .where(eq(webhookEndpoints.id, a.endpointId));
    }
    return { consecutiveFailures: failures };
  });
}

/**
 * Pauses an endpoint after a run of failures, once (only while it is enabled): disabled with `reason`, its pending deliveries
 * kept for a resume. Answers the row when this call paused it, undefined when it was already disabled or gone.
 */
export async function pauseEndpoint(db: Db, id: string, reason: string, at: Date): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, disabledAt: at, updatedAt: at })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, true)))
    .returning();
  return row;
}

/** Enables an endpoint again: its run of failures and backoff forgotten, its pending deliveries due now. */
export async function resumeEndpoint(db: Db, id: string, at: Date): Promise<void> {
  await db.update(webhookEndpoints).set({ enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0, retryAt: null, updatedAt: at }).where(eq(webhookEndpoints.id, id));
  await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: at, updatedAt: at })
    // Not one with an attempt still open (in flight when the pause came): its lease decides.
    .where(
      and(
        eq(webhookDeliveries.endpointId, id),
        eq(webhookDeliveries.status, 'pending'),
        sql`NOT EXISTS (SELECT 1 FROM ${webhookAttempts} a WHERE a.delivery_id = ${webhookDeliveries.id} AND a.finished_at IS NULL)`,
      ),
    );
}

/** Deletes up to `batch` attempts of the log that began before `before`; answers how many. */
export async function deleteOldAttempts(db: Db, before: Date, batch: number): Promise<number> {
  const res = await db.execute(
    sql`DELETE FROM ${webhookAttempts} WHERE id IN (SELECT id FROM ${webhookAttempts} WHERE started_at < ${before.toISOString()}::timestamptz LIMIT ${batch}) RETURNING 1`,
  );
  return rowsOf(res).length;
}

/**
 * Deletes up to `batch` events made before `before` whose webhooks are done with them (fanned out, no delivery pending),
 * with their deliveries and attempts, in one statement; answers how many events.
 */
export async function deleteOldEvents(db: Db, before: Date, batch: number): Promise<number> {
  const res = await db.execute(sql`
    WITH old AS (
      SELECT e.id FROM ${events} e
      WHERE e.created_at < ${before.toISOString()}::timestamptz AND e.fanned_out_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM ${webhookDeliveries} d WHERE d.event_id = e.id AND d.status = 'pending')
      LIMIT ${batch}
    ),
    attempts AS (DELETE FROM ${webhookAttempts} WHERE event_id IN (SELECT id FROM old)),
    deliveries AS (DELETE FROM ${webhookDeliveries} WHERE event_id IN (SELECT id FROM old))
    DELETE FROM ${events} WHERE id IN (SELECT id FROM old) RETURNING 1`);
  return rowsOf(res).length;
}

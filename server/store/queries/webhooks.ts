// Webhook rows: endpoints, the fan-out from event rows to deliveries, claiming due attempts (FOR UPDATE SKIP LOCKED) and the attempt log.
import { and, eq, sql } from 'drizzle-orm';
import { eventMatches } from '../../../src/contract/webhooks';
import { newId } from '../../ids';
import type { Db } from '../db';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../schema/index';
import { paginate } from './paginate';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
export type EventRow = typeof events.$inferSelect;

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? (result as T[]));

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
  return db.transaction(async (tx) => {
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

/**
 * Claims up to `limit` due deliveries: in one short transaction each is locked (SKIP LOCKED), its attempt number taken
 * (`attempts + 1`), its next try pushed out by `leaseMs` (so that a process that dies mid-attempt leaves it to be retried)
 * and the attempt's log row written. The unique (delivery, attempt) index makes a second claim of one attempt impossible.
 */
export async function claimDueAttempts(db: Db, now: Date, leaseMs: number, limit = 10): Promise<ClaimedAttempt[]> {
  return db.transaction(async (tx) => {
    const due = rowsOf<{ id: string }>(
      await tx.execute(sql`SELECT id FROM ${webhookDeliveries} WHERE status = 'pending' AND next_attempt_at <= ${now.toISOString()}::timestamptz ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`),
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

/** Records an attempt's outcome and what happens to its delivery: done, retried at `retryAt`, or failed for good (no `retryAt`). */
export async function finishAttempt(
  db: Db,
  a: { attemptId: string; deliveryId: string; attempt: number; statusCode: number | null; durationMs: number; error: string | null; succeeded: boolean; at: Date; retryAt?: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
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
  });
}


// Webhooks: partner endpoints, one delivery per (event, endpoint) fanned out from the event rows, and one row per attempt (the log).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId, updatedAt } from './columns';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    partnerId: partnerId(),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types or prefixes ending in `.`; null: every event. */
    events: jsonb('events').$type<string[] | null>(),
    enabled: boolean('enabled').notNull().default(true),
    /** Encrypted (`enc:v1:`, see SealedBox in tokens.ts), bound to the endpoint; plain (`whsec_…`) in rows written before that. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, still signed with until `previous_secret_expires_at`. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    /** Failed attempts in a row (reset by a success): the endpoint is paused when it reaches RAMP_WEBHOOK_PAUSE_AFTER. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** While failing, no attempt to this endpoint starts before this (its own backoff, beside each delivery's). */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    /** Why the service disabled it (a run of failures); null when enabled or disabled by the partner. Its pending deliveries wait. */
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_partner_idx').on(t.partnerId, t.id)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    partnerId: partnerId(),
    endpointId: uuid('endpoint_id').notNull(),
    eventId: uuid('event_id').notNull(),
    /** pending (an attempt is due or in flight), succeeded, failed (attempts exhausted). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due; while one is in flight, when its lease runs out (a crashed sender's attempt is then retried). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_event_idx').on(t.eventId),
    // The fair claim: each endpoint's oldest due deliveries.
    index('webhook_deliveries_endpoint_due_idx').on(t.endpointId, t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: id(),
    partnerId: partnerId(),
    deliveryId: uuid('delivery_id').notNull(),
    endpointId: uuid('endpoint_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    succeeded: boolean('succeeded').notNull().default(false),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('webhook_attempts_endpoint_idx').on(t.endpointId, t.id), uniqueIndex('webhook_attempts_once_idx').on(t.deliveryId, t.attempt)],
);

// The webhook contract: endpoints a partner registers, the secret shown once, and the delivery log.
import { z } from '@hono/zod-openapi';
import { NoControlCharacters, PageQuery, page, Text, Uuid } from './common';

const EVENT_FILTER = /^[a-z][a-z_]*(\.[a-z_]+)*\.?$/;

export const WebhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2000)
  .refine(NoControlCharacters.test, NoControlCharacters.message)
  .openapi({ description: 'Where events are POSTed. In production it must be https and must not resolve to a private, loopback or link-local address.', example: 'https://partner.example/webhooks/ramp' });

/** Every event type the service emits: what an endpoint's `events` may name (or a prefix of them ending in a dot). */
export const EVENT_TYPES = [
  ...['created', 'under_verification', 'approved', 'temporary_rejection', 'final_rejection'].map((s) => `customer.${s}`),
  ...['awaiting_funds', 'transferring_fiat', 'trading', 'transferring_stablecoin', 'success', 'failed', 'refunding', 'refunded'].map((s) => `onramp.${s}`),
  ...['transferring_stablecoin', 'trading', 'transferring_fiat', 'success', 'refunding', 'refunded'].map((s) => `offramp.${s}`),
  ...['transferring_stablecoin', 'success', 'failed'].map((s) => `transfer.${s}`),
  ...['under_verification', 'approved', 'final_rejection'].map((s) => `bank_account.${s}`),
  'deposit.confirmed',
  'webhook_endpoint.paused',
  'webhook.test',
] as const;

/**
 * A filter names a type the service emits, or a prefix ending in a dot that at least one type starts with. A filter that
 * is not even shaped like one is left to the pattern's message (one error per entry).
 */
const knownEvent = (f: string) =>
  !EVENT_FILTER.test(f) || (f.endsWith('.') ? EVENT_TYPES.some((t) => t.startsWith(f)) : (EVENT_TYPES as readonly string[]).includes(f));

export const EventFilter = Text({ min: 1, max: 80 })
  .regex(EVENT_FILTER, 'must be an event type such as customer.approved, or a prefix ending in a dot such as onramp.')
  .refine(knownEvent, 'is not an event type the service sends, nor a prefix of one')
  .openapi({ pattern: '^[a-z][a-z_]*(\\.[a-z_]+)*\\.?$', example: 'customer.', description: `One of: ${EVENT_TYPES.join(', ')}; or a prefix ending in a dot.` });

const Events = z
  .array(EventFilter)
  .min(1)
  .max(50)
  .openapi({ description: 'Event types (or prefixes ending in `.`) to receive; omitted: every event.', example: ['customer.', 'onramp.success'] });

export const CreateWebhookEndpointSchema = z
  .strictObject({ url: WebhookUrl, events: Events.optional(), description: Text({ max: 200 }).optional() })
  .openapi('CreateWebhookEndpoint');

export const UpdateWebhookEndpointSchema = z
  .strictObject({ url: WebhookUrl.optional(), events: Events.nullable().optional(), description: Text({ max: 200 }).nullable().optional(), enabled: z.boolean().optional() })
  .openapi('UpdateWebhookEndpoint');

export const WebhookEndpointSchema = z
  .object({
    id: Uuid,
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()).nullable().openapi({ description: 'null: every event' }),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .openapi({ description: 'Why the service paused it (a run of failed attempts, `RAMP_WEBHOOK_PAUSE_AFTER`); null when enabled or disabled by you. PATCH `enabled: true` resumes it.', example: '20 attempts in a row failed' }),
    disabledAt: z.iso.datetime().nullable().openapi({ description: 'When it was disabled; null while enabled.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    previousSecretExpiresAt: z.iso.datetime().nullable().openapi({ description: 'After a rotation: until when deliveries are also signed with the previous secret.' }),
  })
  .openapi('WebhookEndpoint');

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({ description: 'Shown only in this answer: `whsec_` + base64 of 32 random bytes (Standard Webhooks).', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
}).openapi('WebhookEndpointWithSecret');

export const RotateSecretSchema = z
  .strictObject({
    gracePeriodSeconds: z.number().int().min(0).max(7 * 86_400).default(86_400).openapi({ description: 'How long the old secret keeps signing too (0 to 7 days, default 24 h).' }),
  })
  .openapi('RotateWebhookSecret');

export const WebhookAttemptSchema = z
  .object({
    attemptId: Uuid,
    deliveryId: Uuid,
    eventId: Uuid,
    eventType: z.string(),
    attempt: z.number().int().openapi({ description: '1 for the first attempt of a delivery' }),
    statusCode: z.number().int().nullable().openapi({ description: "The receiver's HTTP status; null when no answer came (see `error`)." }),
    durationMs: z.number().int().nullable(),
    error: z.string().nullable(),
    succeeded: z.boolean(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .openapi('WebhookAttempt');

export const WebhookEndpointPageSchema = page(WebhookEndpointSchema).openapi('WebhookEndpointPage');
export const WebhookAttemptPageSchema = page(WebhookAttemptSchema).openapi('WebhookAttemptPage');
export const WebhookListQuery = PageQuery;

export const DeliveriesCreatedSchema = z
  .object({
    eventId: Uuid,
    deliveries: z.array(z.object({ deliveryId: Uuid, endpointId: Uuid })),
  })
  .openapi('WebhookDeliveriesCreated');

/** Matches an endpoint's filter list against an event type (exact, or prefix ending in a dot). */
export function eventMatches(filters: readonly string[] | null | undefined, eventType: string): boolean {
  if (!filters) return true;
  return filters.some((f) => (f.endsWith('.') ? eventType.startsWith(f) : f === eventType));
}

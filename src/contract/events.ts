// The event contract: what every change of a customer, transaction or bank account writes, readable by polling (and later delivered by webhook).
import { z } from '@hono/zod-openapi';
import { PageQuery, page, Text, Uuid } from './common';
import { EVENT_TYPES, eventEnvelope } from './webhook-events';

/** The members every event has; `data` as stored, whatever its type (the type the presenters build). */
const EventShape = z.object({
  eventId: Uuid,
  eventType: z.string(),
  customerId: Uuid.nullable(),
  createdAt: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});
export type RampEvent = z.infer<typeof EventShape>;

/**
 * An event as GET /v2/events answers it: one shape per event type, its `data` the schema of that type (as in the
 * `webhooks` section, from the same list). Documented so; typed as `RampEvent`.
 */
export const EventSchema = z
  .union(EVENT_TYPES.map((e) => eventEnvelope(e).openapi({ description: `\`${e.name}\`: ${e.when}` })) as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]])
  .openapi('Event', {
    description:
      'One shape per `eventType`; `data` is the resource as it was right after the change (a customer is a CustomerEvent: no `verification.link`, a credential minted only when the customer is read). `customerId` is null for an event of the partner alone (`webhook.test`).',
  }) as unknown as z.ZodType<RampEvent>;

export const EventListQuery = PageQuery.extend({
  customerId: Uuid.optional(),
  eventType: Text({ min: 1, max: 80 })
    .regex(/^[a-z][a-z_]*(\.[a-z_]+)*\.?$/, 'must be an event type such as customer.approved, or a prefix ending in a dot such as onramp.; wildcards are not supported')
    .optional()
    .openapi({ description: 'Exact type, or a prefix ending in `.` such as `onramp.`', pattern: '^[a-z][a-z_]*(\\.[a-z_]+)*\\.?$' }),
  since: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Only events created at or after this instant (RFC 3339).' }),
  until: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Only events created before this instant (RFC 3339).' }),
});
export const EventPageSchema = page(EventSchema).openapi('EventPage');

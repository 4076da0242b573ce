// The event contract: what every change of a customer, transaction or bank account writes, readable by polling (and later delivered by webhook).
import { z } from '@hono/zod-openapi';
import { PageQuery, page, Text, Uuid } from './common';

export const EventSchema = z
  .object({
    eventId: Uuid,
    eventType: z.string().openapi({ example: 'customer.approved' }),
    createdAt: z.iso.datetime(),
    data: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The resource as it was right after the change. A customer comes without `verification.link` (a credential minted only when the customer is read).' }),
  })
  .openapi('Event');
export type RampEvent = z.infer<typeof EventSchema>;

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

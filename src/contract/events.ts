// The event contract: what every change of a customer, transaction or bank account writes, readable by polling (and later delivered by webhook).
import { z } from '@hono/zod-openapi';
import { PageQuery, page, Uuid } from './common';

export const EventSchema = z
  .object({
    eventId: Uuid,
    eventType: z.string().openapi({ example: 'customer.approved' }),
    createdAt: z.iso.datetime(),
    data: z.record(z.string(), z.unknown()).openapi({ description: 'The resource as it was right after the change.' }),
  })
  .openapi('Event');
export type RampEvent = z.infer<typeof EventSchema>;

export const EventListQuery = PageQuery.extend({
  customerId: Uuid.optional(),
  eventType: z.string().max(80).optional().openapi({ description: 'Exact type, or a prefix ending in `.` such as `onramp.`' }),
});
export const EventPageSchema = page(EventSchema).openapi('EventPage');

// GET /v2/events: every state change, newest first, for partners who poll instead of (or besides) receiving webhooks.
import { createRoute } from '@hono/zod-openapi';
import { EventListQuery, EventPageSchema } from '../../src/contract/events';
import { listEvents } from '../store/queries/event-list';
import type { Deps } from './deps';
import { openApiApp, problems } from './openapi-app';

const list = createRoute({
  operationId: 'listEvents',
  method: 'get',
  path: '/events',
  tags: ['Events'],
  summary: 'List events, newest first',
  description:
    'Types: customer.created, customer.under_verification, customer.approved, customer.temporary_rejection, customer.final_rejection, onramp.<status>, offramp.<status>, transfer.<status>, bank_account.<status>. Each is written in the same database transaction as the change it describes, so none is ever missing or early.',
  request: { query: EventListQuery },
  responses: { 200: { description: 'A page of events', content: { 'application/json': { schema: EventPageSchema } } }, ...problems(400, 401) },
});

export function eventsApp(deps: Deps) {
  return openApiApp().openapi(list, async (c) => {
    const q = c.req.valid('query');
    const result = await listEvents(deps.store.db, c.get('partnerId'), { customerId: q.customerId, eventType: q.eventType }, q);
    const data = result.data.map((e) => ({ eventId: e.id, eventType: e.eventType, createdAt: e.createdAt.toISOString(), data: e.data }));
    return c.json({ data, pagination: result.pagination }, 200);
  });
}

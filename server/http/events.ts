// GET /v2/events: every state change, newest first, for partners who poll instead of (or besides) receiving webhooks;
// GET /v2/events/{id}; POST /v2/events/{id}/redeliver (webhooks again, to every subscribed endpoint).
import { createRoute, z } from '@hono/zod-openapi';
import { Uuid } from '../../src/contract/common';
import { EventListQuery, EventPageSchema, EventSchema } from '../../src/contract/events';
import { DeliveriesCreatedSchema } from '../../src/contract/webhooks';
import { redeliver } from '../flows/webhooks';
import { listPartnerEvents, readEvent } from '../flows/events';
import { presentEvent } from '../presenters';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

const list = createRoute({
  operationId: 'listEvents',
  method: 'get',
  path: '/events',
  tags: ['Events'],
  summary: 'List events, newest first',
  description:
    'Types: customer.created, customer.under_verification, customer.approved, customer.temporary_rejection, customer.final_rejection, onramp.<status>, offramp.<status>, transfer.<status>, bank_account.<status>, webhook.test (see the `webhooks` section of this document). Each is written in the same database transaction as the change it describes, so none is ever missing or early.',
  request: { query: EventListQuery },
  responses: { 200: { description: 'A page of events', content: { 'application/json': { schema: EventPageSchema } } }, ...problems(400, 401) },
});

const IdParam = z.object({ id: Uuid.openapi({ param: { name: 'id', in: 'path' } }) });

const read = createRoute({
  operationId: 'getEvent',
  method: 'get',
  path: '/events/{id}',
  tags: ['Events'],
  summary: 'Read one event',
  request: { params: IdParam },
  responses: { 200: { description: 'The event', content: { 'application/json': { schema: EventSchema } } }, ...problems(400, 401, 404) },
});

const redeliverRoute = createRoute({
  operationId: 'redeliverEvent',
  method: 'post',
  path: '/events/{id}/redeliver',
  tags: ['Events', 'Webhooks'],
  summary: 'Deliver an event again to every enabled webhook endpoint subscribed to its type',
  description: 'Each gets a new delivery (attempts from 1, same `webhook-id`). 409 when no enabled endpoint subscribes to the type.',
  request: { params: IdParam },
  responses: { 202: { description: 'Queued', content: { 'application/json': { schema: DeliveriesCreatedSchema } } }, ...problems(400, 401, 404, 409) },
});


export function eventsApp(deps: Deps) {
  return openApiApp()
    .operation(list, async (c) => {
      const q = c.req.valid('query');
      const result = await listPartnerEvents(c.var.db, c.get('partnerId'), { customerId: q.customerId, eventType: q.eventType, since: q.since, until: q.until }, q);
      return c.json({ data: result.data.map(presentEvent), pagination: result.pagination }, 200);
    })
    .operation(read, async (c) => c.json(presentEvent(await readEvent(c.var.db, c.get('partnerId'), c.req.valid('param').id)), 200))
    .operation(redeliverRoute, async (c) => c.json(await redeliver(c.var.db, c.get('partnerId'), c.req.valid('param').id), 202));
}

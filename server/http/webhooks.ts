// /v2/webhook-endpoints: where events are POSTed (signed, retried for about three days), the delivery log, rotation and test events.
import { createRoute, z } from '@hono/zod-openapi';
import { Uuid } from '../../src/contract/common';
import {
  CreateWebhookEndpointSchema,
  DeliveriesCreatedSchema,
  RotateSecretSchema,
  UpdateWebhookEndpointSchema,
  WebhookAttemptPageSchema,
  WebhookEndpointPageSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookListQuery,
} from '../../src/contract/webhooks';
import { createEndpoint, editEndpoint, findEndpoint, listEndpointDeliveries, listPartnerEndpoints, removeEndpoint, rotateSecret, sendTestEvent } from '../flows/webhooks';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';
import { presentWebhookAttempt, presentWebhookEndpoint } from '../presenters';

const IdParam = z.object({ id: Uuid.openapi({ param: { name: 'id', in: 'path' } }) });
const tags = ['Webhooks'];
// The method, path, operation id and tag every route here carries.
const at = <M extends 'get' | 'post' | 'patch' | 'delete', P extends string>(method: M, path: P, operationId: string) => ({ method, path, operationId, tags });
const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });

const create = createRoute({
  ...at('post', '/webhook-endpoints', 'createWebhookEndpoint'),
  summary: 'Register a webhook endpoint',
  description:
    'Events of the chosen types (default: all) are POSTed to `url`, signed with the Standard Webhooks headers and `X-Hub-Signature`. The `secret` is shown in this answer only. In production `url` must be https and resolve to public addresses only.',
  request: { body: { required: true, content: { 'application/json': { schema: CreateWebhookEndpointSchema } } } },
  responses: { 201: json(WebhookEndpointWithSecretSchema, 'Created; keep the secret, it is not shown again'), ...problems(400, 401) },
});

const list = createRoute({
  ...at('get', '/webhook-endpoints', 'listWebhookEndpoints'),
  summary: 'List webhook endpoints, newest first',
  request: { query: WebhookListQuery },
  responses: { 200: json(WebhookEndpointPageSchema, 'A page'), ...problems(400, 401) },
});

const read = createRoute({
  ...at('get', '/webhook-endpoints/{id}', 'getWebhookEndpoint'),
  summary: 'Read a webhook endpoint (never its secret)',
  request: { params: IdParam },
  responses: { 200: json(WebhookEndpointSchema, 'The endpoint'), ...problems(400, 401, 404) },
});

const update = createRoute({
  ...at('patch', '/webhook-endpoints/{id}', 'updateWebhookEndpoint'),
  summary: 'Change the URL, the event types, the description, disable it (`enabled: false`) or resume it (`enabled: true`)',
  description:
    'A disabled endpoint gets no new deliveries, and its pending ones are cancelled. An endpoint the service paused after a run of failed attempts (`disabledReason`, event `webhook_endpoint.paused`) keeps its pending deliveries: `enabled: true` resumes it, and they go out again at once.',
  request: { params: IdParam, body: { required: true, content: { 'application/json': { schema: UpdateWebhookEndpointSchema } } } },
  responses: { 200: json(WebhookEndpointSchema, 'The endpoint'), ...problems(400, 401, 404) },
});

const remove = createRoute({
  ...at('delete', '/webhook-endpoints/{id}', 'deleteWebhookEndpoint'),
  summary: 'Delete a webhook endpoint, its pending deliveries and its log',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 404) },
});

const rotate = createRoute({
  ...at('post', '/webhook-endpoints/{id}/rotate-secret', 'rotateWebhookSecret'),
  summary: 'Replace the signing secret',
  description:
    'Answers the new secret (shown once). For `gracePeriodSeconds` (default 24 h) deliveries carry two `webhook-signature` entries, one per secret, so a receiver can switch over without missing one. `X-Hub-Signature` uses the new secret at once.',
  request: { params: IdParam, body: { required: false, content: { 'application/json': { schema: RotateSecretSchema } } } },
  responses: { 200: json(WebhookEndpointWithSecretSchema, 'The endpoint with its new secret'), ...problems(400, 401, 404) },
});

const deliveries = createRoute({
  ...at('get', '/webhook-endpoints/{id}/deliveries', 'listWebhookDeliveries'),
  summary: "The endpoint's delivery log: one entry per attempt, newest first",
  request: { params: IdParam, query: WebhookListQuery },
  responses: { 200: json(WebhookAttemptPageSchema, 'A page of attempts'), ...problems(400, 401, 404) },
});

const test = createRoute({
  ...at('post', '/webhook-endpoints/{id}/test', 'testWebhookEndpoint'),
  summary: 'Send a signed `webhook.test` event to this endpoint',
  description: 'Delivered like any event (retries included), whatever the endpoint subscribes to; its outcome shows in the delivery log. A disabled endpoint answers 409.',
  request: { params: IdParam },
  responses: { 202: json(DeliveriesCreatedSchema, 'Queued'), ...problems(400, 401, 404, 409) },
});

export function webhooksApp(deps: Deps) {
  return openApiApp()
    .operation(create, async (c) => {
      const row = await createEndpoint(c.var.db, deps, c.get('partnerId'), c.req.valid('json'));
      return c.json({ ...presentWebhookEndpoint(row), secret: row.secret }, 201);
    })
    .operation(list, async (c) => {
      const result = await listPartnerEndpoints(c.var.db, c.get('partnerId'), c.req.valid('query'));
      return c.json({ data: result.data.map(presentWebhookEndpoint), pagination: result.pagination }, 200);
    })
    .operation(read, async (c) => c.json(presentWebhookEndpoint(await findEndpoint(c.var.db, c.get('partnerId'), c.req.valid('param').id)), 200))
    .operation(update, async (c) => c.json(presentWebhookEndpoint(await editEndpoint(c.var.db, deps, c.get('partnerId'), c.req.valid('param').id, c.req.valid('json'))), 200))
    .operation(remove, async (c) => {
      await removeEndpoint(c.var.db, c.get('partnerId'), c.req.valid('param').id);
      return c.body(null, 204);
    })
    .operation(rotate, async (c) => {
      const body = c.req.valid('json') as { gracePeriodSeconds?: number } | undefined;
      const grace = body?.gracePeriodSeconds ?? 86_400;
      const row = await rotateSecret(c.var.db, deps, c.get('partnerId'), c.req.valid('param').id, grace);
      return c.json({ ...presentWebhookEndpoint(row), secret: row.secret }, 200);
    })
    .operation(deliveries, async (c) => {
      const result = await listEndpointDeliveries(c.var.db, c.get('partnerId'), c.req.valid('param').id, c.req.valid('query'));
      return c.json({ data: result.data.map(presentWebhookAttempt), pagination: result.pagination }, 200);
    })
    .operation(test, async (c) => c.json(await sendTestEvent(c.var.db, deps, c.get('partnerId'), c.req.valid('param').id), 202));
}

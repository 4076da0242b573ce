// /v2/widget-sessions: the partner's backend trades its API key for a short-lived token a browser may hold.
import { createRoute } from '@hono/zod-openapi';
import { CreateWidgetSessionSchema, WidgetSessionSchema } from '../../src/contract/widget-sessions';
import { assertCustomerReference } from '../flows/customers';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

const createWidgetSession = createRoute({
  operationId: 'createWidgetSession',
  method: 'post',
  path: '/widget-sessions',
  tags: ['Widget sessions'],
  summary: 'Create a widget session for a browser',
  description:
    'Call from your backend, never from a browser. Pass `customerId` to act for an existing customer, or omit it for an onboarding session that may create one customer and is then bound to it. The token is signed, expires after `expiresIn` seconds (15 minutes by default) and is accepted only from `allowedOrigins` (same origin when omitted).',
  request: { body: { required: true, content: { 'application/json': { schema: CreateWidgetSessionSchema } } } },
  responses: {
    201: { description: 'Created', content: { 'application/json': { schema: WidgetSessionSchema } } },
    ...problems(400, 401, 404),
  },
});

export function widgetSessionsApp(deps: Deps) {
  return openApiApp().openapi(createWidgetSession, async (c) => {
    const body = c.req.valid('json');
    const partnerId = c.get('partnerId');
    if (body.customerId) await assertCustomerReference(deps.store.db, partnerId, body.customerId);
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + body.expiresIn * 1000);
    const token = await deps.tokens.signWidgetSession({
      partnerId,
      customerId: body.customerId ?? null,
      allowedOrigins: body.allowedOrigins ?? [],
      expiresAt,
    });
    return c.json({ token, expiresAt: expiresAt.toISOString(), customerId: body.customerId ?? null }, 201);
  });
}

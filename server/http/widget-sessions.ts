// /v2/widget-sessions: the partner's backend trades its API key for a short-lived token a browser may hold.
import { createRoute } from '@hono/zod-openapi';
import { CreateWidgetSessionSchema, WidgetSessionSchema } from '../../src/contract/widget-sessions';
import { invalid } from '../domain/errors';
import { assertCustomerReference, customerOfUser } from '../flows/customers';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

const createWidgetSession = createRoute({
  operationId: 'createWidgetSession',
  method: 'post',
  path: '/widget-sessions',
  tags: ['Widget sessions'],
  summary: 'Create a widget session for a browser',
  description:
    'Call from your backend, never from a browser. Pass `customerId` to act for an existing customer, or omit it for an onboarding session that may create one customer and is then bound to it. Or pass `externalUserId`, your own id for the signed-in user: the session is bound to your customer with that id when there is one, else it is an onboarding session whose customer gets that id (so a reload or a renewal minted the same way resumes it). The token is signed, expires after `expiresIn` seconds (15 minutes by default) and is accepted only from `allowedOrigins` (same origin when omitted).',
  request: { body: { required: true, content: { 'application/json': { schema: CreateWidgetSessionSchema } } } },
  responses: {
    201: { description: 'Created', content: { 'application/json': { schema: WidgetSessionSchema } } },
    ...problems(400, 401, 404),
  },
});

export function widgetSessionsApp(deps: Deps) {
  return openApiApp().operation(createWidgetSession, async (c) => {
    const body = c.req.valid('json');
    const partnerId = c.get('partnerId');
    if (body.customerId && body.externalUserId) throw invalid([{ path: 'externalUserId', message: 'is given with customerId: name the customer one way', code: 'CONFLICTING_FIELDS' }]);
    if (body.customerId) await assertCustomerReference(c.var.db, partnerId, body.customerId);
    // The user's customer, when there is one; only this partner's customers are looked at.
    const customerId = body.externalUserId ? ((await customerOfUser(c.var.db, partnerId, body.externalUserId))?.id ?? null) : (body.customerId ?? null);
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + body.expiresIn * 1000);
    const token = await deps.tokens.signWidgetSession({
      partnerId,
      customerId,
      allowedOrigins: body.allowedOrigins ?? [],
      expiresAt,
      // Only an onboarding session needs it: the customer it creates is the user's.
      ...(body.externalUserId && !customerId ? { externalUserId: body.externalUserId } : {}),
    });
    return c.json({ token, expiresAt: expiresAt.toISOString(), customerId }, 201);
  });
}

// PUT /v2/customers/{id}/transaction-limits: the partner overrides a customer's limits (USD-equivalent); null returns one to the default.
import { createRoute, z } from '@hono/zod-openapi';
import { TransactionLimitsSchema } from '../../src/contract/customers';
import { setCustomerLimits } from '../flows/limits';
import { CustomerIdParam } from './customer-path';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

const Usd = z.string().regex(/^\d{1,15}(\.\d{1,2})?$/, 'must be a USD amount such as "2500.00"').nullable().optional();

const route = createRoute({
  operationId: 'setTransactionLimits',
  method: 'put',
  path: '/customers/{id}/transaction-limits',
  tags: ['Customers'],
  summary: "Override a customer's transaction limits",
  description: 'USD-equivalent. Defaults: individuals 1,000 single / 2,000 daily / 5,000 monthly; businesses 100,000 / 500,000 / 1,000,000. A limit left out or null keeps (or returns to) the default. Days and months are UTC. No limit may go above the service ceiling for the customer type (`RAMP_LIMIT_CEILING_INDIVIDUAL`, default 100,000; `RAMP_LIMIT_CEILING_BUSINESS`, default 10,000,000): 400 naming each limit above it. Idempotent as it is (the same body sets the same limits), so it takes no `Idempotency-Key`.',
  request: {
    params: CustomerIdParam,
    body: { required: true, content: { 'application/json': { schema: z.object({ single: Usd, daily: Usd, monthly: Usd }).strict().openapi('TransactionLimitsOverride') } } },
  },
  responses: { 200: { description: 'The limits now', content: { 'application/json': { schema: TransactionLimitsSchema } } }, ...problems(400, 401, 404) },
});

export function transactionLimitsApp(deps: Deps) {
  return openApiApp().operation(route, async (c) => {
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    const partnerId = c.get('partnerId');
    const ceilings = { INDIVIDUAL: deps.config.RAMP_LIMIT_CEILING_INDIVIDUAL, BUSINESS: deps.config.RAMP_LIMIT_CEILING_BUSINESS };
    const limits = await setCustomerLimits(c.var.db, { clock: deps.clock, ceilings }, partnerId, id, body);
    return c.json(limits, 200);
  });
}

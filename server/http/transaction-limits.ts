// PUT /v2/customers/{id}/transaction-limits: the partner overrides a customer's limits (USD-equivalent); null returns one to the default.
import { createRoute, z } from '@hono/zod-openapi';
import { TransactionLimitsSchema } from '../../src/contract/customers';
import { invalid, notFound } from '../domain/errors';
import { ceilingIssues } from '../domain/limits';
import { customerLimits } from '../flows/limits';
import { lockCustomer } from '../store/queries/customers';
import { putOverride } from '../store/queries/limits';
import { CustomerIdParam } from './customer-path';
import type { Deps } from './deps';
import { openApiApp, problems } from './openapi-app';

const Usd = z.string().regex(/^\d{1,15}(\.\d{1,2})?$/, 'must be a USD amount such as "2500.00"').nullable().optional();

const route = createRoute({
  operationId: 'setTransactionLimits',
  method: 'put',
  path: '/customers/{id}/transaction-limits',
  tags: ['Customers'],
  summary: "Override a customer's transaction limits",
  description: 'USD-equivalent. Defaults: individuals 1,000 single / 2,000 daily / 5,000 monthly; businesses 100,000 / 500,000 / 1,000,000. A limit left out or null keeps (or returns to) the default. Days and months are UTC. No limit may go above the service ceiling for the customer type (`RAMP_LIMIT_CEILING_INDIVIDUAL`, default 100,000; `RAMP_LIMIT_CEILING_BUSINESS`, default 10,000,000): 400 naming each limit above it.',
  request: {
    params: CustomerIdParam,
    body: { required: true, content: { 'application/json': { schema: z.object({ single: Usd, daily: Usd, monthly: Usd }).strict().openapi('TransactionLimitsOverride') } } },
  },
  responses: { 200: { description: 'The limits now', content: { 'application/json': { schema: TransactionLimitsSchema } } }, ...problems(400, 401, 404) },
});

export function transactionLimitsApp(deps: Deps) {
  const { db } = deps.store;
  return openApiApp().openapi(route, async (c) => {
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    const partnerId = c.get('partnerId');
    const limits = await db.transaction(async (tx) => {
      const row = await lockCustomer(tx, partnerId, id);
      if (!row) throw notFound('Customer');
      const ceiling = row.type === 'BUSINESS' ? deps.config.RAMP_LIMIT_CEILING_BUSINESS : deps.config.RAMP_LIMIT_CEILING_INDIVIDUAL;
      const over = ceilingIssues(body, ceiling);
      if (over.length) throw invalid(over);
      await putOverride(tx, partnerId, id, { single: body.single ?? null, daily: body.daily ?? null, monthly: body.monthly ?? null }, deps.clock.now());
      return customerLimits(tx, deps, row);
    });
    return c.json(limits, 200);
  });
}

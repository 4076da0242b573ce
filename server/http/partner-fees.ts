// /v2/partner-fees: the partner's own fees on top of the service's, paid to its wallet; without partnerFeeId they are zero.
import { createRoute } from '@hono/zod-openapi';
import { PageQuery, page } from '../../src/contract/common';
import { CreatePartnerFeeSchema, type PartnerFee, PartnerFeeSchema } from '../../src/contract/exchange-rates';
import { createPartnerFee, listPartnerFeesOf, type PartnerFeeRow, readPartnerFee } from '../flows/partner-fees';
import { CustomerIdParam as IdParam } from './customer-path';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

const present = (r: PartnerFeeRow): PartnerFee => ({
  id: r.id,
  name: r.name,
  walletAddress: r.walletAddress,
  blockchain: r.blockchain,
  fees: r.fees,
  createdAt: r.createdAt.toISOString(),
});

const create = createRoute({
  operationId: 'createPartnerFee',
  method: 'post',
  path: '/partner-fees',
  tags: ['Partner fees'],
  summary: 'Create a partner fee',
  description:
    'Rates are basis points, flat amounts in the quote\'s target currency (on-ramp: the stablecoin, 6 decimals; off-ramp: the fiat, 2 decimals). Pass the id as `partnerFeeId` on a quote or transaction; without it partner fees are zero.',
  request: { body: { required: true, content: { 'application/json': { schema: CreatePartnerFeeSchema } } } },
  responses: { 201: { description: 'Created', content: { 'application/json': { schema: PartnerFeeSchema } } }, ...problems(400, 401) },
});

const list = createRoute({
  operationId: 'listPartnerFees',
  method: 'get',
  path: '/partner-fees',
  tags: ['Partner fees'],
  summary: 'List partner fees, newest first',
  request: { query: PageQuery },
  responses: { 200: { description: 'A page', content: { 'application/json': { schema: page(PartnerFeeSchema) } } }, ...problems(400, 401) },
});

const read = createRoute({
  operationId: 'getPartnerFee',
  method: 'get',
  path: '/partner-fees/{id}',
  tags: ['Partner fees'],
  summary: 'Read a partner fee',
  request: { params: IdParam },
  responses: { 200: { description: 'The partner fee', content: { 'application/json': { schema: PartnerFeeSchema } } }, ...problems(400, 401, 404) },
});

export function partnerFeesApp(deps: Deps) {
  return openApiApp()
    .operation(create, async (c) => {
      const row = await createPartnerFee(c.var.db, { clock: deps.clock, defaultBlockchain: deps.config.RAMP_DEFAULT_BLOCKCHAIN }, c.get('partnerId'), c.req.valid('json'));
      return c.json(present(row), 201);
    })
    .operation(list, async (c) => {
      const q = c.req.valid('query');
      const result = await listPartnerFeesOf(c.var.db, c.get('partnerId'), q);
      return c.json({ data: result.data.map(present), pagination: result.pagination }, 200);
    })
    .operation(read, async (c) => c.json(present(await readPartnerFee(c.var.db, c.get('partnerId'), c.req.valid('param').id)), 200));
}

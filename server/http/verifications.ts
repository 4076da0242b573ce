// /v2/customers/{id}/verifications: start a business verification explicitly; read the reviews of any customer.
import { createRoute, z } from '@hono/zod-openapi';
import { Uuid } from '../../src/contract/common';
import { VerificationSchema } from '../../src/contract/kyc';
import { listCustomerVerifications, readVerification, requestVerification } from '../flows/verification';
import { CustomerIdParam } from './customer-path';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';
import { presentVerification } from '../presenters';

const start = createRoute({
  operationId: 'startVerification',
  method: 'post',
  path: '/customers/{id}/verifications',
  tags: ['Verification'],
  summary: 'Start the verification of a business customer',
  description:
    'Businesses only (individuals start by themselves when the liveness check completes). Everything must be in: additional information, INCORPORATION_ARTICLES, SHAREHOLDER_REGISTRY, DIRECTORS_REGISTRY, at least one associated party and each party\'s documents; otherwise 409 with `missing[]`.',
  request: { params: CustomerIdParam },
  responses: {
    201: { description: 'Started', content: { 'application/json': { schema: VerificationSchema } } },
    ...problems(401, 404, 409),
  },
});

const list = createRoute({
  operationId: 'listVerifications',
  method: 'get',
  path: '/customers/{id}/verifications',
  tags: ['Verification'],
  summary: "A customer's verifications, newest first",
  request: { params: CustomerIdParam },
  responses: {
    200: { description: 'The verifications', content: { 'application/json': { schema: z.object({ data: z.array(VerificationSchema) }) } } },
    ...problems(401, 404),
  },
});

const read = createRoute({
  operationId: 'getVerification',
  method: 'get',
  path: '/customers/{id}/verifications/{verificationId}',
  tags: ['Verification'],
  summary: 'Read one verification',
  request: { params: CustomerIdParam.extend({ verificationId: Uuid.openapi({ param: { name: 'verificationId', in: 'path' } }) }) },
  responses: {
    200: { description: 'The verification', content: { 'application/json': { schema: VerificationSchema } } },
    ...problems(401, 404),
  },
});

export function verificationsApp(deps: Deps) {
  return openApiApp()
    .operation(start, async (c) => c.json(presentVerification(await requestVerification(c.var.db, deps, c.get('partnerId'), c.req.valid('param').id)), 201))
    .operation(list, async (c) => {
      const rows = await listCustomerVerifications(c.var.db, c.get('partnerId'), c.req.valid('param').id);
      return c.json({ data: rows.map(presentVerification) }, 200);
    })
    .operation(read, async (c) => {
      const { id, verificationId } = c.req.valid('param');
      return c.json(presentVerification(await readVerification(c.var.db, c.get('partnerId'), id, verificationId)), 200);
    });
}

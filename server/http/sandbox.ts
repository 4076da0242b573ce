// /v2/sandbox: helpers that exist only when RAMP_ENV=sandbox (the router does not mount them in production).
import { createRoute, z } from '@hono/zod-openapi';
import { CustomerSchema } from '../../src/contract/customers';
import { generateApiKey } from '../domain/api-keys';
import { AppError, notFound } from '../domain/errors';
import { completeLiveness } from '../flows/documents';
import { applyDecision } from '../flows/verification';
import { sandboxRejectedDocument } from '../sandbox/review-provider';
import { lockCustomer } from '../store/queries/customers';
import { latestVerification } from '../store/queries/verifications';
import { CustomerIdParam } from './customer-path';
import { presentCustomer } from './presenters';
import { createPartner } from '../store/queries/partners';
import type { Deps } from './deps';
import { openApiApp, problems } from './openapi-app';

const CreatePartnerSchema = z.object({ name: z.string().trim().min(1).max(200).openapi({ example: 'Acme Wallet' }) }).strict().openapi('SandboxCreatePartner');
const SandboxPartnerSchema = z
  .object({ partnerId: z.uuid(), apiKey: z.string().openapi({ example: 'sk_sandbox_…' }) })
  .openapi('SandboxPartner', { description: 'The new partner and its API key, shown only this once.' });

const createPartnerRoute = createRoute({
  operationId: 'sandboxCreatePartner',
  method: 'post',
  path: '/sandbox/partners',
  tags: ['Sandbox'],
  summary: 'Create another partner with its own API key (sandbox only)',
  request: { body: { required: true, content: { 'application/json': { schema: CreatePartnerSchema } } } },
  responses: {
    201: { description: 'Created', content: { 'application/json': { schema: SandboxPartnerSchema } } },
    ...problems(400, 401),
  },
});

const livenessRoute = createRoute({
  operationId: 'sandboxCompleteLiveness',
  method: 'post',
  path: '/sandbox/customers/{id}/liveness',
  tags: ['Sandbox'],
  summary: 'Complete the liveness check as the hosted page would (sandbox only)',
  description: 'For an individual with additional information and documents in, verification then starts by itself.',
  request: { params: CustomerIdParam },
  responses: {
    200: { description: 'The customer', content: { 'application/json': { schema: CustomerSchema } } },
    ...problems(401, 404, 409),
  },
});

const ReviewBody = z
  .object({ outcome: z.enum(['APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION']) })
  .strict()
  .openapi('SandboxReview');

const reviewRoute = createRoute({
  operationId: 'sandboxReview',
  method: 'post',
  path: '/sandbox/customers/{id}/review',
  tags: ['Sandbox'],
  summary: 'Decide a verification under review now, with the outcome given (sandbox only)',
  request: { params: CustomerIdParam, body: { required: true, content: { 'application/json': { schema: ReviewBody } } } },
  responses: {
    200: { description: 'The customer', content: { 'application/json': { schema: CustomerSchema } } },
    ...problems(400, 401, 404, 409),
  },
});

export function sandboxApp(deps: Deps) {
  const { db } = deps.store;
  return openApiApp()
    .openapi(createPartnerRoute, async (c) => {
      const { name } = c.req.valid('json');
      const apiKey = generateApiKey('sandbox');
      const { partnerId } = await createPartner(db, name, apiKey);
      return c.json({ partnerId, apiKey }, 201);
    })
    .openapi(livenessRoute, async (c) => {
      const row = await completeLiveness(db, deps, c.get('partnerId'), c.req.valid('param').id);
      return c.json(await presentCustomer(db, deps, row), 200);
    })
    .openapi(reviewRoute, async (c) => {
      const { id } = c.req.valid('param');
      const { outcome } = c.req.valid('json');
      const partnerId = c.get('partnerId');
      const row = await db.transaction(async (tx) => {
        const customer = await lockCustomer(tx, partnerId, id);
        if (!customer) throw notFound('Customer');
        const v = await latestVerification(tx, partnerId, id);
        if (customer.verificationStatus !== 'UNDER_VERIFICATION' || !v) {
          throw new AppError('INVALID_STATE', `Only a verification under review can be decided; this one is ${customer.verificationStatus}.`);
        }
        const type = sandboxRejectedDocument(customer.type);
        return applyDecision(tx, deps, customer, v,
          outcome === 'TEMPORARY_REJECTION'
            ? { outcome, statusReason: { rejectLabels: ['SANDBOX_REVIEW'], documents: [{ type, status: 'REJECTED', comment: 'Rejected in sandbox review.', rejectLabels: ['SANDBOX_REVIEW'] }] } }
            : { outcome },
        );
      });
      return c.json(await presentCustomer(db, deps, row), 200);
    });
}

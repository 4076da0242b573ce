// PATCH /v2/customers/{id}/additional-information: the KYC/KYB questionnaire, allowed while NOT_STARTED or TEMPORARY_REJECTION.
import { createRoute } from '@hono/zod-openapi';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { isAlpha3Country } from '../../src/contract/countries';
import { CustomerSchema } from '../../src/contract/customers';
import { AdditionalInformationSchema } from '../../src/contract/kyc';
import { AppError, type FieldIssue, invalid, notFound } from '../domain/errors';
import { assertAdditionalInformationAllowed } from '../domain/verification';
import { lockCustomer, updateCustomer } from '../store/queries/customers';
import { CustomerIdParam } from './customer-path';
import type { Deps } from './deps';
import { openApiApp, problems } from './openapi-app';
import { presentCustomer } from '../presenters';

const route = createRoute({
  operationId: 'updateAdditionalInformation',
  method: 'patch',
  path: '/customers/{id}/additional-information',
  tags: ['Verification'],
  summary: 'Send the additional information of a customer',
  description:
    'All fields are required; `type` selects the individual or business record and must match the customer. Must precede document upload. Allowed while the verification is NOT_STARTED or TEMPORARY_REJECTION; sending it again replaces it.',
  request: { params: CustomerIdParam, body: { required: true, content: { 'application/json': { schema: AdditionalInformationSchema } } } },
  responses: {
    200: { description: 'The customer, with additionalInformation', content: { 'application/json': { schema: CustomerSchema } } },
    ...problems(400, 401, 404, 409),
  },
});

export function additionalInformationApp(deps: Deps) {
  return openApiApp().openapi(route, async (c) => {
    const { id } = c.req.valid('param');
    const info = c.req.valid('json');
    const issues: FieldIssue[] = [];
    if (!isValidPhoneNumber(info.phone) || !info.phone.startsWith('+')) issues.push({ path: 'phone', message: 'must be a valid phone number in international format, e.g. +5511987654321' });
    if (!isAlpha3Country(info.address.country)) issues.push({ path: 'address.country', message: 'must be an ISO 3166-1 alpha-3 code such as BRA' });
    if (info.type === 'BUSINESS' && info.isRegulatedActivity && !info.regulatedActivityDetails) {
      issues.push({ path: 'regulatedActivityDetails', message: 'is required when isRegulatedActivity is true' });
    }
    if (issues.length) throw invalid(issues);
    const partnerId = c.get('partnerId');
    const customer = await deps.store.db.transaction(async (tx) => {
      const row = await lockCustomer(tx, partnerId, id);
      if (!row) throw notFound('Customer');
      assertAdditionalInformationAllowed(row.verificationStatus);
      if (row.type !== info.type) {
        throw new AppError('VALIDATION_FAILED', `This customer is ${row.type}; send the ${row.type} record.`, { errors: [{ path: 'type', message: `must be ${row.type}` }] });
      }
      const now = deps.clock.now();
      const updated = await updateCustomer(tx, partnerId, id, { additionalInformation: info, updatedAt: now });
      return presentCustomer(tx, deps, updated);
    });
    return c.json(customer, 200);
  });
}

// PATCH /v2/customers/{id}/additional-information: the KYC/KYB questionnaire, allowed while NOT_STARTED or TEMPORARY_REJECTION.
import { createRoute } from '@hono/zod-openapi';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { isAlpha3Country } from '../../src/contract/countries';
import { CustomerSchema } from '../../src/contract/customers';
import { AdditionalInformationSchema } from '../../src/contract/kyc';
import { type FieldIssue, invalid } from '../domain/errors';
import { setAdditionalInformation } from '../flows/customers';
import { CustomerIdParam } from './customer-path';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

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
  return openApiApp().operation(route, async (c) => {
    const { id } = c.req.valid('param');
    const info = c.req.valid('json');
    const issues: FieldIssue[] = [];
    if (!isValidPhoneNumber(info.phone) || !info.phone.startsWith('+')) issues.push({ path: 'phone', message: 'must be a valid phone number in international format, e.g. +5511987654321', code: 'INVALID_PHONE' });
    if (!isAlpha3Country(info.address.country)) issues.push({ path: 'address.country', message: 'must be an ISO 3166-1 alpha-3 code such as BRA', code: 'INVALID_COUNTRY' });
    if (info.type === 'BUSINESS' && info.isRegulatedActivity && !info.regulatedActivityDetails) {
      issues.push({ path: 'regulatedActivityDetails', message: 'is required when isRegulatedActivity is true', code: 'REQUIRED' });
    }
    if (issues.length) throw invalid(issues);
    const customer = await setAdditionalInformation(c.var.db, deps, c.get('partnerId'), id, info);
    return c.json(customer, 200);
  });
}

// /v2/customers/{id}/associated-parties: UBOs, shareholders (nested through parentId) and representatives of a business.
import { createRoute, z } from '@hono/zod-openapi';
import { Decimal } from 'decimal.js';
import { checkBirthDate, checkPastDate, checkTaxId, fieldErrorMessages } from '../../src/contract/customer-rules';
import { isAlpha3Country } from '../../src/contract/countries';
import { AssociatedPartySchema, CreateAssociatedPartySchema } from '../../src/contract/kyc';
import { normalizeTaxId } from '../../src/contract/tax-id';
import { checkParty } from '../domain/associated-parties';
import { AppError, type FieldIssue, invalid, notFound } from '../domain/errors';
import { assertWritable } from '../domain/verification';
import { newId } from '../ids';
import { insertParty, listParties } from '../store/queries/associated-parties';
import { lockCustomer, updateCustomer } from '../store/queries/customers';
import { listDocuments } from '../store/queries/documents';
import { CustomerIdParam, findCustomer } from './customer-path';
import type { Deps } from './deps';
import { openApiApp, problems } from './openapi-app';
import { presentParty } from './presenters';

const create = createRoute({
  operationId: 'createAssociatedParty',
  method: 'post',
  path: '/customers/{id}/associated-parties',
  tags: ['Verification'],
  summary: 'Add a UBO, shareholder or representative to a business customer',
  description:
    '`roles` holds one or more of UBO, SHAREHOLDER, REPRESENTATIVE. UBO and REPRESENTATIVE are individuals and top level only. UBO and SHAREHOLDER need `ownershipPercentage` from 25 to 100 (shareholders under one parent own at most 100 together). `parentId` nests a party under a business shareholder of the same customer; a nested party may only be a SHAREHOLDER.',
  request: { params: CustomerIdParam, body: { required: true, content: { 'application/json': { schema: CreateAssociatedPartySchema } } } },
  responses: {
    201: { description: 'Created', content: { 'application/json': { schema: AssociatedPartySchema } } },
    ...problems(400, 401, 404, 409),
  },
});

const list = createRoute({
  operationId: 'listAssociatedParties',
  method: 'get',
  path: '/customers/{id}/associated-parties',
  tags: ['Verification'],
  summary: "List a business customer's associated parties",
  request: { params: CustomerIdParam },
  responses: {
    200: { description: 'The parties', content: { 'application/json': { schema: z.object({ data: z.array(AssociatedPartySchema) }) } } },
    ...problems(401, 404),
  },
});

export function associatedPartiesApp(deps: Deps) {
  return openApiApp()
    .openapi(create, async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const partnerId = c.get('partnerId');
      const party = await deps.store.db.transaction(async (tx) => {
        const customer = await lockCustomer(tx, partnerId, id);
        if (!customer) throw notFound('Customer');
        assertWritable(customer.verificationStatus);
        if (customer.type !== 'BUSINESS') throw new AppError('INVALID_STATE', 'Associated parties belong to business customers only.');
        if (customer.verificationStatus !== 'NOT_STARTED' && customer.verificationStatus !== 'TEMPORARY_REJECTION') {
          throw new AppError('INVALID_STATE', `Parties can be added while NOT_STARTED or TEMPORARY_REJECTION, not ${customer.verificationStatus}.`);
        }
        const parties = await listParties(tx, partnerId, id);
        const parent = body.parentId ? parties.find((p) => p.id === body.parentId) : undefined;
        const siblings = parties.filter((p) => (p.parentId ?? undefined) === body.parentId && p.roles.includes('SHAREHOLDER') && p.ownershipPercentage);
        const now = deps.clock.now();
        const issues: FieldIssue[] = checkParty(body, parent, siblings.map((p) => p.ownershipPercentage!));
        const country = body.address.country;
        if (!isAlpha3Country(country)) issues.push({ path: 'address.country', message: 'must be an ISO 3166-1 alpha-3 code such as BRA' });
        const taxIssue = checkTaxId(body.taxId, body.type, isAlpha3Country(country) ? country : undefined);
        if (taxIssue) issues.push({ path: 'taxId', message: fieldErrorMessages[taxIssue] });
        const dateIssue = body.type === 'INDIVIDUAL' ? body.birthDate && checkBirthDate(body.birthDate, now) : body.incorporationDate && checkPastDate(body.incorporationDate, now);
        if (dateIssue) issues.push({ path: body.type === 'INDIVIDUAL' ? 'birthDate' : 'incorporationDate', message: fieldErrorMessages[dateIssue] });
        if (issues.length) throw invalid(issues);
        const row = await insertParty(tx, {
          id: newId(),
          partnerId,
          customerId: id,
          parentId: body.parentId ?? null,
          type: body.type,
          roles: body.roles,
          ownershipPercentage: body.ownershipPercentage === undefined ? null : new Decimal(String(body.ownershipPercentage)).toFixed(2),
          name: body.type === 'INDIVIDUAL' ? body.name! : null,
          legalName: body.type === 'BUSINESS' ? body.legalName! : null,
          taxId: normalizeTaxId(body.taxId),
          birthDate: body.type === 'INDIVIDUAL' ? body.birthDate! : null,
          incorporationDate: body.type === 'BUSINESS' ? body.incorporationDate! : null,
          email: body.email,
          address: body.address,
          createdAt: now,
          updatedAt: now,
        });
        await updateCustomer(tx, partnerId, id, { updatedAt: now });
        return presentParty(row, []);
      });
      return c.json(party, 201);
    })
    .openapi(list, async (c) => {
      const { id } = c.req.valid('param');
      const customer = await findCustomer(deps.store.db, c.get('partnerId'), id);
      const [parties, docs] = await Promise.all([
        listParties(deps.store.db, customer.partnerId, customer.id),
        listDocuments(deps.store.db, customer.partnerId, customer.id),
      ]);
      return c.json({ data: parties.map((p) => presentParty(p, docs)) }, 200);
    });
}

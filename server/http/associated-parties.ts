// /v2/customers/{id}/associated-parties: UBOs, shareholders (nested through parentId) and representatives of a business.
import { createRoute, z } from '@hono/zod-openapi';
import { Decimal } from 'decimal.js';
import { checkBirthDate, checkPastDate, checkTaxId, fieldErrorMessages } from '../../src/contract/customer-rules';
import { isAlpha3Country } from '../../src/contract/countries';
import { AssociatedPartySchema, type CreateAssociatedParty, CreateAssociatedPartySchema, UpdateAssociatedPartySchema } from '../../src/contract/kyc';
import { Uuid } from '../../src/contract/common';
import { normalizeTaxId } from '../../src/contract/tax-id';
import { checkParty } from '../domain/associated-parties';
import { AppError, type FieldIssue, invalid, notFound } from '../domain/errors';
import { assertWritable } from '../domain/verification';
import { newId } from '../ids';
import { deleteParty, insertParty, listParties, type PartyRow, updateParty } from '../store/queries/associated-parties';
import { type CustomerRow, lockCustomer, updateCustomer } from '../store/queries/customers';
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

const PartyParams = CustomerIdParam.extend({ partyId: Uuid.openapi({ param: { name: 'partyId', in: 'path' } }) });

const update = createRoute({
  operationId: 'updateAssociatedParty',
  method: 'patch',
  path: '/customers/{id}/associated-parties/{partyId}',
  tags: ['Verification'],
  summary: 'Correct an associated party',
  description:
    'Any field but `type` and `parentId`; the corrected party is checked as a new one would be (400 naming the field). Only while the customer is NOT_STARTED or TEMPORARY_REJECTION: once verification is under way, 409 INVALID_STATE.',
  request: { params: PartyParams, body: { required: true, content: { 'application/json': { schema: UpdateAssociatedPartySchema } } } },
  responses: {
    200: { description: 'The corrected party', content: { 'application/json': { schema: AssociatedPartySchema } } },
    ...problems(400, 401, 404, 409),
  },
});

const remove = createRoute({
  operationId: 'deleteAssociatedParty',
  method: 'delete',
  path: '/customers/{id}/associated-parties/{partyId}',
  tags: ['Verification'],
  summary: 'Remove an associated party',
  description:
    'Removes the party and the documents sent for it. Only while the customer is NOT_STARTED or TEMPORARY_REJECTION (409 INVALID_STATE once verification is under way); a business shareholder with parties nested under it is refused with 409 CONFLICT until they are removed.',
  request: { params: PartyParams },
  responses: { 204: { description: 'Removed' }, ...problems(401, 404, 409) },
});

/** The customer, locked, when its parties may change: a business not under verification. */
async function editableCustomer(tx: Parameters<typeof lockCustomer>[0], partnerId: string, id: string, action: string): Promise<CustomerRow> {
  const customer = await lockCustomer(tx, partnerId, id);
  if (!customer) throw notFound('Customer');
  assertWritable(customer.verificationStatus);
  if (customer.type !== 'BUSINESS') throw new AppError('INVALID_STATE', 'Associated parties belong to business customers only.');
  if (customer.verificationStatus !== 'NOT_STARTED' && customer.verificationStatus !== 'TEMPORARY_REJECTION') {
    throw new AppError('INVALID_STATE', `Parties can be ${action} while NOT_STARTED or TEMPORARY_REJECTION, not ${customer.verificationStatus}.`);
  }
  return customer;
}

/** Every rule a party must meet, against the customer's other parties (`self` excluded when correcting one). */
function partyIssues(body: CreateAssociatedParty, parties: PartyRow[], now: Date, self?: string): FieldIssue[] {
  const others = parties.filter((p) => p.id !== self);
  const parent = body.parentId ? others.find((p) => p.id === body.parentId) : undefined;
  const siblings = others.filter((p) => (p.parentId ?? undefined) === body.parentId && p.roles.includes('SHAREHOLDER') && p.ownershipPercentage);
  const issues: FieldIssue[] = checkParty(body, parent, siblings.map((p) => p.ownershipPercentage!));
  const country = body.address.country;
  if (!isAlpha3Country(country)) issues.push({ path: 'address.country', message: 'must be an ISO 3166-1 alpha-3 code such as BRA' });
  const taxIssue = checkTaxId(body.taxId, body.type, isAlpha3Country(country) ? country : undefined);
  if (taxIssue) issues.push({ path: 'taxId', message: fieldErrorMessages[taxIssue] });
  const dateIssue = body.type === 'INDIVIDUAL' ? body.birthDate && checkBirthDate(body.birthDate, now) : body.incorporationDate && checkPastDate(body.incorporationDate, now);
  if (dateIssue) issues.push({ path: body.type === 'INDIVIDUAL' ? 'birthDate' : 'incorporationDate', message: fieldErrorMessages[dateIssue] });
  return issues;
}

/** A stored party as the body that would create it, to check a correction as a whole. */
function asBody(p: PartyRow): CreateAssociatedParty {
  return {
    type: p.type,
    roles: p.roles,
    ...(p.ownershipPercentage !== null ? { ownershipPercentage: p.ownershipPercentage } : {}),
    ...(p.parentId ? { parentId: p.parentId } : {}),
    ...(p.name !== null ? { name: p.name } : {}),
    ...(p.legalName !== null ? { legalName: p.legalName } : {}),
    taxId: p.taxId,
    ...(p.birthDate !== null ? { birthDate: p.birthDate } : {}),
    ...(p.incorporationDate !== null ? { incorporationDate: p.incorporationDate } : {}),
    email: p.email,
    address: p.address,
  };
}

export function associatedPartiesApp(deps: Deps) {
  return openApiApp()
    .openapi(create, async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const partnerId = c.get('partnerId');
      const party = await deps.store.db.transaction(async (tx) => {
        await editableCustomer(tx, partnerId, id, 'added');
        const parties = await listParties(tx, partnerId, id);
        const now = deps.clock.now();
        const issues = partyIssues(body, parties, now);
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
    .openapi(update, async (c) => {
      const { id, partyId } = c.req.valid('param');
      const patch = c.req.valid('json');
      const partnerId = c.get('partnerId');
      const party = await deps.store.db.transaction(async (tx) => {
        await editableCustomer(tx, partnerId, id, 'corrected');
        const parties = await listParties(tx, partnerId, id);
        const current = parties.find((p) => p.id === partyId);
        if (!current) throw notFound('Associated party');
        const body: CreateAssociatedParty = { ...asBody(current), ...patch };
        const now = deps.clock.now();
        const issues = partyIssues(body, parties, now, partyId);
        if (issues.length) throw invalid(issues);
        const row = await updateParty(tx, partnerId, partyId, {
          roles: body.roles,
          ownershipPercentage: body.ownershipPercentage === undefined ? null : new Decimal(String(body.ownershipPercentage)).toFixed(2),
          name: body.type === 'INDIVIDUAL' ? body.name! : null,
          legalName: body.type === 'BUSINESS' ? body.legalName! : null,
          taxId: normalizeTaxId(body.taxId),
          birthDate: body.type === 'INDIVIDUAL' ? body.birthDate! : null,
          incorporationDate: body.type === 'BUSINESS' ? body.incorporationDate! : null,
          email: body.email,
          address: body.address,
          updatedAt: now,
        });
        await updateCustomer(tx, partnerId, id, { updatedAt: now });
        return presentParty(row, await listDocuments(tx, partnerId, id));
      });
      return c.json(party, 200);
    })
    .openapi(remove, async (c) => {
      const { id, partyId } = c.req.valid('param');
      const partnerId = c.get('partnerId');
      await deps.store.db.transaction(async (tx) => {
        await editableCustomer(tx, partnerId, id, 'removed');
        const parties = await listParties(tx, partnerId, id);
        if (!parties.some((p) => p.id === partyId)) throw notFound('Associated party');
        if (parties.some((p) => p.parentId === partyId)) {
          throw new AppError('CONFLICT', 'Remove the shareholders nested under this party first.');
        }
        await deleteParty(tx, partnerId, partyId);
        await updateCustomer(tx, partnerId, id, { updatedAt: deps.clock.now() });
      });
      return c.body(null, 204);
    })
    .openapi(list, async (c) => {
      const { id } = c.req.valid('param');
      const customer = await findCustomer(deps.store.db, c.get('partnerId'), id);
      const parties = await listParties(deps.store.db, customer.partnerId, customer.id);
      const docs = await listDocuments(deps.store.db, customer.partnerId, customer.id);
      return c.json({ data: parties.map((p) => presentParty(p, docs)) }, 200);
    });
}

// /v2/customers/{id}/associated-parties: UBOs, shareholders (nested through parentId) and representatives of a business.
import { createRoute, z } from '@hono/zod-openapi';
import { AssociatedPartySchema, CreateAssociatedPartySchema, UpdateAssociatedPartySchema } from '../../src/contract/kyc';
import { Uuid } from '../../src/contract/common';
import { addParty, correctParty, partiesOf, removeParty } from '../flows/associated-parties';
import { CustomerIdParam, findCustomer } from './customer-path';
import type { Db, Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';
import { presentParty } from '../presenters';

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

export function associatedPartiesApp(deps: Deps) {
  const flow = (db: Db) => ({ db, clock: deps.clock });
  return openApiApp()
    .operation(create, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(presentParty(await addParty(flow(c.var.db), c.get('partnerId'), id, c.req.valid('json')), []), 201);
    })
    .operation(update, async (c) => {
      const { id, partyId } = c.req.valid('param');
      const { party, documents } = await correctParty(flow(c.var.db), c.get('partnerId'), id, partyId, c.req.valid('json'));
      return c.json(presentParty(party, documents), 200);
    })
    .operation(remove, async (c) => {
      const { id, partyId } = c.req.valid('param');
      await removeParty(flow(c.var.db), c.get('partnerId'), id, partyId);
      return c.body(null, 204);
    })
    .operation(list, async (c) => {
      const { id } = c.req.valid('param');
      const { parties, documents } = await partiesOf(c.var.db, await findCustomer(c.var.db, c.get('partnerId'), id));
      return c.json({ data: parties.map((p) => presentParty(p, documents)) }, 200);
    });
}

// /v2/customers: create (individual or business), list with filters, read one.
import { createRoute, z } from '@hono/zod-openapi';
import { Uuid } from '../../src/contract/common';
import {
  CreateCustomerSchema,
    CustomerListQuery,
  CustomerPageSchema,
  CustomerReadQuery,
  CustomerSchema,
} from '../../src/contract/customers';
import { notFound } from '../domain/errors';
import { createCustomer as createCustomerFlow, listPartnerCustomers, newCustomerIssues } from '../flows/customers';
import type { Deps } from '../deps';
import { readCustomer } from '../presenters';
import { alsoOnRefusedBody, openApiApp, problems } from './openapi-app';

const IdParam = z.object({ id: Uuid.openapi({ param: { name: 'id', in: 'path' } }) });

const createCustomer = createRoute({
  operationId: 'createCustomer',
  method: 'post',
  path: '/customers',
  tags: ['Customers'],
  summary: 'Create a customer',
  description:
    'Individuals need `name`, `taxId` and an adult `birthDate`; their optional `country` is the country that issued the taxId (absent: BRA), so a Brazilian gives a CPF and anyone else their own country\'s tax id. Businesses need `legalName`, `taxId` (CNPJ when `country` is BRA), `incorporationDate`, `country` and `email`. The same taxId, or `externalUserId`, twice for one partner is a 409 naming the field and the existing customer.',
  request: { body: { required: true, content: { 'application/json': { schema: CreateCustomerSchema } } } },
  responses: {
    201: {
      description: 'Created',
      headers: { Location: { description: 'The new customer, `/v2/customers/{id}`', schema: { type: 'string' } } },
      content: { 'application/json': { schema: CustomerSchema } },
    },
    ...problems(400, 401, 409, 413, 415),
  },
});

const listCustomersRoute = createRoute({
  operationId: 'listCustomers',
  method: 'get',
  path: '/customers',
  tags: ['Customers'],
  summary: 'List customers, newest first',
  request: { query: CustomerListQuery },
  responses: {
    200: { description: 'A page of customers', content: { 'application/json': { schema: CustomerPageSchema } } },
    ...problems(400, 401),
  },
});

const getCustomerRoute = createRoute({
  operationId: 'getCustomer',
  method: 'get',
  path: '/customers/{id}',
  tags: ['Customers'],
  summary: 'Read a customer',
  request: { params: IdParam, query: CustomerReadQuery },
  responses: {
    200: { description: 'The customer', content: { 'application/json': { schema: CustomerSchema } } },
    ...problems(400, 401, 404),
  },
});

export function customersApp(deps: Deps) {
  alsoOnRefusedBody(CreateCustomerSchema, (input) => newCustomerIssues(input, deps.clock.now()));
  return openApiApp()
    .operation(createCustomer, async (c) => {
      const customer = await createCustomerFlow(c.var.db, deps, c.get('partnerId'), c.req.valid('json'));
      c.header('location', `/v2/customers/${customer.id}`);
      return c.json(customer, 201);
    })
    .operation(listCustomersRoute, async (c) => {
      const q = c.req.valid('query');
      const page = await listPartnerCustomers(c.var.db, deps, c.get('partnerId'), { type: q.type, status: q.status, taxId: q.taxId, email: q.email, externalUserId: q.externalUserId }, { size: q.size, cursor: q.cursor });
      return c.json(page, 200);
    })
    .operation(getCustomerRoute, async (c) => {
      const { id } = c.req.valid('param');
      const q = c.req.valid('query');
      // Reads that share a statement share the presented customer; each gets its own link (readCustomer).
      const customer = await readCustomer(c.var.db, deps, c.get('partnerId'), id, {
        includeTransactionLimits: q.includeTransactionLimits ?? c.get('versionDefaults')?.customerTransactionLimits ?? false,
        includeBalances: q.includeBalances,
      });
      if (customer === undefined) throw notFound('Customer');
      return c.json(customer, 200);
    });
}

// /v2/bank-accounts: payout destinations (PIX, SEPA, SWIFT) with a holder verified at level BASIC; newest first.
import { createRoute } from '@hono/zod-openapi';
import { BankAccountSchema, CreateBankAccountSchema } from '../../src/contract/bank-accounts';
import { PageQuery, page, Uuid } from '../../src/contract/common';
import { createBankAccount, deleteBankAccount, listPartnerBankAccounts, newBankAccountIssues, readBankAccount } from '../flows/bank-accounts';
import { presentBankAccount } from '../presenters';
import { CustomerIdParam as IdParam } from './customer-path';
import type { Deps } from '../deps';
import { alsoOnRefusedBody, openApiApp, problems } from './openapi-app';

const create = createRoute({
  operationId: 'createBankAccount',
  method: 'post',
  path: '/bank-accounts',
  tags: ['Bank accounts'],
  summary: 'Register a bank account',
  description:
    'PIX (BRL; identifier `{keyType: CPF|CNPJ|EMAIL|PHONE|EVP, keyValue}`), SEPA (EUR; `{iban, bic?}`, IBAN checked by mod-97) or SWIFT (USD; `{accountNumber, bic, bankName, bankCountry}`). The holder is the customer (`relationship: SELF`) or a counterparty; its verification starts UNDER_VERIFICATION (level BASIC) and is decided shortly after in sandbox (a holder taxId ending in 3 is rejected).',
  request: { body: { required: true, content: { 'application/json': { schema: CreateBankAccountSchema } } } },
  responses: { 201: { description: 'Created', content: { 'application/json': { schema: BankAccountSchema } } }, ...problems(400, 401, 404, 409) },
});

const list = createRoute({
  operationId: 'listBankAccounts',
  method: 'get',
  path: '/bank-accounts',
  tags: ['Bank accounts'],
  summary: 'List bank accounts, newest first',
  request: { query: PageQuery.extend({ customerId: Uuid.optional() }) },
  responses: { 200: { description: 'A page', content: { 'application/json': { schema: page(BankAccountSchema) } } }, ...problems(400, 401) },
});

const read = createRoute({
  operationId: 'getBankAccount',
  method: 'get',
  path: '/bank-accounts/{id}',
  tags: ['Bank accounts'],
  summary: 'Read a bank account',
  request: { params: IdParam },
  responses: { 200: { description: 'The bank account', content: { 'application/json': { schema: BankAccountSchema } } }, ...problems(400, 401, 404) },
});

const remove = createRoute({
  operationId: 'deleteBankAccount',
  method: 'delete',
  path: '/bank-accounts/{id}',
  tags: ['Bank accounts'],
  summary: 'Delete a bank account (transactions that used it keep their echo of it)',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 404) },
});

export function bankAccountsApp(deps: Deps) {
  alsoOnRefusedBody(CreateBankAccountSchema, (input) => newBankAccountIssues(input, deps.clock.now()));
  return openApiApp()
    .operation(create, async (c) => c.json(presentBankAccount(await createBankAccount(c.var.db, deps, c.get('partnerId'), c.req.valid('json'))), 201))
    .operation(list, async (c) => {
      const q = c.req.valid('query');
      const result = await listPartnerBankAccounts(c.var.db, c.get('partnerId'), q.customerId, q);
      return c.json({ data: result.data.map(presentBankAccount), pagination: result.pagination }, 200);
    })
    .operation(read, async (c) => c.json(presentBankAccount(await readBankAccount(c.var.db, c.get('partnerId'), c.req.valid('param').id)), 200))
    .operation(remove, async (c) => {
      await deleteBankAccount(c.var.db, deps, c.get('partnerId'), c.req.valid('param').id);
      return c.body(null, 204);
    });
}


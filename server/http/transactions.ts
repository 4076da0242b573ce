// /v2/transactions: on-ramp (PIX BR Code), off-ramp (to a bank account), transfer; read one and list.
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { PageQuery, page, Uuid } from '../../src/contract/common';
import { OffRampRequestSchema, OnRampRequestSchema, TransactionSchema, TransactionStatusSchema, TransferRequestSchema } from '../../src/contract/transactions';
import { invalid } from '../domain/errors';
import { createOffRamp, createOnRamp, createTransfer, listPartnerTransactions, readTransaction } from '../flows/transactions';
import { presentTransaction } from '../presenters';
import { CustomerIdParam as IdParam } from './customer-path';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

const created = { 201: { description: 'Created', content: { 'application/json': { schema: TransactionSchema } } }, ...problems(400, 401, 404, 409, 422) };

const onRamp = createRoute({
  operationId: 'createOnRamp',
  method: 'post',
  path: '/transactions/on-ramp',
  tags: ['Transactions'],
  summary: 'Buy stablecoin with fiat (PIX)',
  description:
    'Give `exchangeRateId` (a LOCKED quote of this customer or of none yet, redeemed once; `sourceCurrency`, `targetCurrency` and `sourceAmount` may be repeated beside it and must then match it, else 400 naming the field) or `sourceCurrency`, `targetCurrency`, `sourceAmount` and `rail`. `purpose` is required. The customer must be APPROVED and within its limits (422 TRANSACTION_LIMIT_EXCEEDED); a chain that does not settle here is 422 BLOCKCHAIN_UNAVAILABLE. On a chain that settles on-chain, the stablecoin is a real ERC-20 transfer from the treasury and SUCCESS comes after its confirmations, with its hash in `state.receipt`. Answers AWAITING_FUNDS with `state.payment {rail, brCode, expiresAt}`; then TRANSFERRING_FIAT → TRADING → TRANSFERRING_STABLECOIN → SUCCESS with `state.receipt`, or FAILED `{code: EXPIRED}` when unpaid in 15 minutes. With a PSP configured (RAMP_PIX_PSP_URL), a PIX on-ramp is a charge of that PSP: `brCode` is its `pixCopiaECola`, the on-ramp moves only on a Pix the PSP confirms, a PSP that cannot be reached answers 503 PSP_UNAVAILABLE with Retry-After (nothing created), and money that cannot pay the on-ramp (late, more or less than due) is returned in full: REFUNDING → REFUNDED with `state.error {code: PAYMENT_RETURNED}`.',
  request: { body: { required: true, content: { 'application/json': { schema: OnRampRequestSchema } } } },
  responses: created,
});

/**
 * The pre-v2.0.0 off-ramp (`customerId` + `payment`) is not in the schema; it is recognised here, before validation, to
 * answer where the destination went. Route middleware, not `app.use` on the path: a middleware on
 * `/transactions/off-ramp` beside the route `/transactions/{id}` is a shape hono's RegExpRouter cannot hold.
 */
const legacyOffRamp: MiddlewareHandler = async (c, next) => {
  const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && ('customerId' in body || 'payment' in body) && !('bankAccountId' in body)) {
    throw invalid([
      {
        path: 'bankAccountId',
        message:
          'is required: since v2.0.0 the destination is a bank account (customerId and payment were removed); register it with POST /v2/bank-accounts and pass its id',
        code: 'REQUIRED',
      },
    ]);
  }
  return next();
};

const offRamp = createRoute({
  operationId: 'createOffRamp',
  method: 'post',
  path: '/transactions/off-ramp',
  tags: ['Transactions'],
  summary: 'Sell stablecoin to a bank account',
  description:
    '`bankAccountId` (holder APPROVED), `purpose` (PERSONAL_ACCOUNT only to a SELF account), and `exchangeRateId` (currencies and `amount` may be repeated beside it and must then match it, else 400 naming the field) or `sourceCurrency` (the stablecoin), `targetCurrency` (the account currency) and `amount`. The stablecoin leaves the wallet at once (422 INSUFFICIENT_BALANCE otherwise): TRANSFERRING_STABLECOIN → TRADING → TRANSFERRING_FIAT (with `estimatedSettlementAt`) → SUCCESS; a failure after the debit is REFUNDING → REFUNDED. On a chain that settles on-chain the stablecoin moves from the customer wallet to the treasury (its gas paid by the service) and TRADING comes once that transfer is confirmed, with its hash in `state.receipt`; a refund moves it back before REFUNDED.',
  request: { body: { required: true, content: { 'application/json': { schema: OffRampRequestSchema } } } },
  responses: created,
  middleware: [legacyOffRamp] as const,
});

const transfer = createRoute({
  operationId: 'createTransfer',
  method: 'post',
  path: '/transactions/transfer',
  tags: ['Transactions'],
  summary: 'Move stablecoin to another customer or an address',
  description: 'On a chain that settles on-chain the stablecoin moves from the sender wallet to the destination (another customer wallet, or the address) in one transaction, its gas paid by the service; SUCCESS comes once it is confirmed, with its hash in `state.receipt`.',
  request: { body: { required: true, content: { 'application/json': { schema: TransferRequestSchema } } } },
  responses: created,
});

const read = createRoute({
  operationId: 'getTransaction',
  method: 'get',
  path: '/transactions/{id}',
  tags: ['Transactions'],
  summary: 'Read a transaction',
  request: { params: IdParam },
  responses: { 200: { description: 'The transaction', content: { 'application/json': { schema: TransactionSchema } } }, ...problems(400, 401, 404) },
});

const list = createRoute({
  operationId: 'listTransactions',
  method: 'get',
  path: '/transactions',
  tags: ['Transactions'],
  summary: 'List transactions, newest first',
  request: { query: PageQuery.extend({ customerId: Uuid.optional(), type: z.enum(['ON_RAMP', 'OFF_RAMP', 'TRANSFER']).optional(), status: TransactionStatusSchema.optional() }) },
  responses: { 200: { description: 'A page', content: { 'application/json': { schema: page(TransactionSchema) } } }, ...problems(400, 401) },
});

export function transactionsApp(deps: Deps) {
  const app = openApiApp();
  return app
    .operation(onRamp, async (c) => c.json(presentTransaction(await createOnRamp(c.var.db, deps, c.get('partnerId'), c.req.valid('json'), { idempotencyKey: c.req.header('idempotency-key') })), 201))
    .operation(offRamp, async (c) => c.json(presentTransaction(await createOffRamp(c.var.db, deps, c.get('partnerId'), c.req.valid('json'))), 201))
    .operation(transfer, async (c) => c.json(presentTransaction(await createTransfer(c.var.db, deps, c.get('partnerId'), c.req.valid('json'))), 201))
    .operation(read, async (c) => c.json(presentTransaction(await readTransaction(c.var.db, c.get('partnerId'), c.req.valid('param').id)), 200))
    .operation(list, async (c) => {
      const q = c.req.valid('query');
      const result = await listPartnerTransactions(c.var.db, c.get('partnerId'), { customerId: q.customerId, type: q.type, status: q.status }, q);
      return c.json({ data: result.data.map(presentTransaction), pagination: result.pagination }, 200);
    });
}

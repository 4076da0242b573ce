// /v2/sandbox: helpers that exist only when RAMP_ENV=sandbox (the router does not mount them in production).
import { createRoute, z } from '@hono/zod-openapi';
import { CustomerSchema } from '../../src/contract/customers';
import { DecimalString, Text } from '../../src/contract/common';
import { completeLiveness } from '../flows/documents';
import { advanceSandboxClock, createSandboxPartner, decideSandboxReview, fundCustomerWallet } from '../flows/sandbox';
import { CustomerIdParam } from './customer-path';
import { BlockchainSchema } from '../../src/contract/customers';
import { amountErrorCode, parseAmount } from '../domain/money';
import { invalid } from '../domain/errors';
import { TransactionSchema } from '../../src/contract/transactions';
import { failTransaction, payOnRamp } from '../flows/transactions';
import { presentCustomer, presentTransaction } from '../presenters';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

const CreatePartnerSchema = z.object({ name: Text({ min: 1, max: 200 }).openapi({ example: 'Acme Wallet' }) }).strict().openapi('SandboxCreatePartner');
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

const FundBody = z
  .object({
    customerId: z.uuid(),
    blockchain: BlockchainSchema,
    stablecoin: z.enum(['USDC', 'USDT']),
    amount: DecimalString().openapi({ example: '100.000000' }),
  })
  .strict()
  .openapi('SandboxFund');

const fundRoute = createRoute({
  operationId: 'sandboxFundWallet',
  method: 'post',
  path: '/sandbox/wallets/fund',
  tags: ['Sandbox'],
  summary: "Credit a customer's wallet from the sandbox treasury (sandbox only)",
  request: { body: { required: true, content: { 'application/json': { schema: FundBody } } } },
  responses: {
    200: {
      description: 'The new balance',
      content: { 'application/json': { schema: z.object({ customerId: z.uuid(), blockchain: BlockchainSchema, stablecoin: z.string(), balance: z.string() }) } },
    },
    ...problems(400, 401, 404, 409),
  },
});

const clockRoute = createRoute({
  operationId: 'sandboxAdvanceClock',
  method: 'post',
  path: '/sandbox/clock/advance',
  tags: ['Sandbox'],
  summary: "Move your clock forward, so expiries and delays pass without waiting (sandbox only)",
  description: "Each partner has a clock of its own: moving yours changes nothing of another partner's. Every process of the service sees it.",
  request: {
    body: { required: true, content: { 'application/json': { schema: z.object({ seconds: z.number().int().min(1).max(31 * 86400) }).strict().openapi('SandboxClockAdvance') } } },
  },
  responses: { 200: { description: 'The service time now', content: { 'application/json': { schema: z.object({ now: z.iso.datetime() }) } } }, ...problems(400, 401) },
});

const TxIdParam = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });
const txResponse = { 200: { description: 'The transaction', content: { 'application/json': { schema: TransactionSchema } } }, ...problems(401, 404, 409) };

const payRoute = createRoute({
  operationId: 'sandboxPayTransaction',
  method: 'post',
  path: '/sandbox/transactions/{id}/pay',
  tags: ['Sandbox'],
  summary: 'Pay an on-ramp as the payer would (sandbox only)',
  description: 'With a PSP configured (RAMP_PIX_PSP_URL), a PIX on-ramp is paid only by a real Pix the PSP confirms: 409 CONFLICT saying so.',
  request: { params: TxIdParam },
  responses: txResponse,
});

const failRoute = createRoute({
  operationId: 'sandboxFailTransaction',
  method: 'post',
  path: '/sandbox/transactions/{id}/fail',
  tags: ['Sandbox'],
  summary: 'Force a failure: an on-ramp FAILS, an off-ramp is REFUNDED (sandbox only)',
  request: { params: TxIdParam },
  responses: txResponse,
});

export function sandboxApp(deps: Deps) {
  return openApiApp()
    .operation(createPartnerRoute, async (c) => c.json(await createSandboxPartner(c.var.db, c.req.valid('json').name), 201))
    .operation(livenessRoute, async (c) => {
      const row = await completeLiveness(c.var.db, deps, c.get('partnerId'), c.req.valid('param').id);
      return c.json(await presentCustomer(c.var.db, deps, row), 200);
    })
    .operation(fundRoute, async (c) => {
      const body = c.req.valid('json');
      const amount = parseAmount(body.amount, body.stablecoin);
      if (!amount.ok) throw invalid([{ path: 'amount', message: amount.message, code: amountErrorCode[amount.error] }]);
      const { customerId, blockchain, stablecoin } = body;
      const balance = await fundCustomerWallet(c.var.db, deps, c.get('partnerId'), { customerId, blockchain, stablecoin, value: amount.value.toFixed(6) });
      return c.json({ customerId, blockchain, stablecoin, balance }, 200);
    })
    .operation(payRoute, async (c) => c.json(presentTransaction(await payOnRamp(c.var.db, deps, c.get('partnerId'), c.req.valid('param').id)), 200))
    .operation(failRoute, async (c) =>
      c.json(presentTransaction(await failTransaction(c.var.db, deps, c.get('partnerId'), c.req.valid('param').id, { code: 'SANDBOX_FAILURE', message: 'Failed on request in sandbox.' })), 200),
    )
    .operation(clockRoute, async (c) => {
      const offsetMs = await advanceSandboxClock(c.var.db, c.get('partnerId'), c.req.valid('json').seconds * 1000);
      return c.json({ now: new Date(Date.now() + offsetMs).toISOString() }, 200);
    })
    .operation(reviewRoute, async (c) => {
      const row = await decideSandboxReview(c.var.db, deps, c.get('partnerId'), c.req.valid('param').id, c.req.valid('json').outcome);
      return c.json(await presentCustomer(c.var.db, deps, row), 200);
    });
}

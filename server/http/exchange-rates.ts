// POST /v2/exchange-rates: floating quotes (indicative, not stored) and locked ones (stored, single use, until expiresAt).
import { createRoute } from '@hono/zod-openapi';
import { type Quote, QuoteRequestSchema, QuoteSchema } from '../../src/contract/exchange-rates';
import { invalid, notFound } from '../domain/errors';
import { timeLockSeconds, type TimeLock } from '../domain/fee-schedule';
import { priceFor } from '../flows/quotes';
import { newId } from '../ids';
import { getCustomer } from '../store/queries/customers';
import { insertLockedQuote } from '../store/queries/exchange-rates';
import type { Deps } from './deps';
import { openApiApp, problems } from './openapi-app';

const route = createRoute({
  operationId: 'createExchangeRate',
  method: 'post',
  path: '/exchange-rates',
  tags: ['Exchange rates'],
  summary: 'Quote an exchange rate, floating or locked',
  description:
    'Pairs are fiat ⇄ stablecoin only, and the rail must match the fiat (PIX–BRL, SEPA–EUR, SWIFT/ACH/FEDWIRE–USD); otherwise 422 UNSUPPORTED_PAIR. FLOATING needs `sourceAmount`, is indicative and not stored. LOCKED takes `sourceAmount` or `targetAmount` (the exact final amount wanted; the source is solved for), is stored with an `id` and `expiresAt` (`timeLock` 30s free by default, 1m and 5m with a premium), and can be used once by a transaction of the same customer before it expires. Fees are in the target currency: `finalTargetAmount = baseTargetAmount − fees.service.totalAmount − fees.partner.totalAmount`; targets round down, fees up.',
  request: { body: { required: true, content: { 'application/json': { schema: QuoteRequestSchema } } } },
  responses: {
    200: { description: 'The quote', content: { 'application/json': { schema: QuoteSchema } } },
    ...problems(400, 401, 404, 422),
  },
});

export function exchangeRatesApp(deps: Deps) {
  const { db } = deps.store;
  return openApiApp().openapi(route, async (c) => {
    const body = c.req.valid('json');
    const partnerId = c.get('partnerId');
    const issues = [];
    if (body.type === 'FLOATING') {
      if (body.sourceAmount === undefined) issues.push({ path: 'sourceAmount', message: 'is required for a FLOATING quote' });
      if (body.targetAmount !== undefined) issues.push({ path: 'targetAmount', message: 'applies only to LOCKED quotes' });
      if (body.timeLock !== undefined) issues.push({ path: 'timeLock', message: 'applies only to LOCKED quotes' });
    } else if ((body.sourceAmount === undefined) === (body.targetAmount === undefined)) {
      issues.push({ path: body.sourceAmount === undefined ? 'sourceAmount' : 'targetAmount', message: 'give exactly one of sourceAmount and targetAmount' });
    }
    if (issues.length) throw invalid(issues);
    if (!(await getCustomer(db, partnerId, body.customerId))) throw notFound('Customer');
    const quote = await priceFor(db, deps, partnerId, body);
    const now = new Date(quote.createdAt);
    if (body.type === 'FLOATING') return c.json(quote, 200);
    const id = newId();
    const expiresAt = new Date(now.getTime() + timeLockSeconds(quote.timeLock as TimeLock) * 1000);
    const locked: Quote = { id, ...quote, expiresAt: expiresAt.toISOString() };
    await insertLockedQuote(db, { id, partnerId, customerId: body.customerId, quote: locked, expiresAt, createdAt: now });
    return c.json(locked, 200);
  });
}

// POST /v2/exchange-rates: floating quotes (indicative, not stored) and locked ones (stored, single use, until expiresAt).
import { createRoute } from '@hono/zod-openapi';
import { QuoteRequestSchema, QuoteSchema } from '../../src/contract/exchange-rates';
import { quote } from '../flows/quotes';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

const route = createRoute({
  operationId: 'createExchangeRate',
  method: 'post',
  path: '/exchange-rates',
  tags: ['Exchange rates'],
  summary: 'Quote an exchange rate, floating or locked',
  description:
    'Pairs are fiat ⇄ stablecoin only, and the rail must match the fiat (PIX–BRL, SEPA–EUR, SWIFT/ACH/FEDWIRE–USD); otherwise 422 UNSUPPORTED_PAIR. A `blockchain` (or the default one) that does not settle on this service, or a stablecoin without a token configured on a chain that settles on-chain, is 422 BLOCKCHAIN_UNAVAILABLE naming `blockchain`. FLOATING needs `sourceAmount`, is indicative and not stored. LOCKED takes `sourceAmount`, `targetAmount` (alone: the exact final amount wanted, the source is solved for) or both (the source prices; the target is the least accepted, else 422 TARGET_AMOUNT_NOT_GUARANTEED with `guaranteedTargetAmount`); `customerId`, `rail` and `blockchain` are optional on LOCKED (rail default: BRL PIX, EUR SEPA, USD SWIFT), and a lock without a customer is bound to the customer of its first use. It is stored with an `id` and `expiresAt` (`timeLock` 30s free by default, 1m and 5m with a premium), and can be used once, before it expires, by a transaction of its customer. Fees are in the target currency: `finalTargetAmount = baseTargetAmount − fees.service.totalAmount − fees.partner.totalAmount`; targets round down, fees up.',
  request: { body: { required: true, content: { 'application/json': { schema: QuoteRequestSchema } } } },
  responses: {
    200: { description: 'The quote', content: { 'application/json': { schema: QuoteSchema } } },
    ...problems(400, 401, 404, 422),
  },
});

export function exchangeRatesApp(deps: Deps) {
  return openApiApp().operation(route, async (c) => {
    return c.json(await quote(c.var.db, deps, c.get('partnerId'), c.req.valid('json')), 200);
  });
}

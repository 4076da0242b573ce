// Pricing a quote for a customer: the rate of the moment, the fee schedule, the partner fee. Used by /exchange-rates and by transactions without a locked quote.
import type { Quote, QuoteRequest } from '../../src/contract/exchange-rates';
import { unknownReference } from '../domain/errors';
import { defaultRail, priceQuote, validatePair } from '../domain/pricing';
import type { Db } from '../store/db';
import { getPartnerFee } from '../store/queries/partner-fees';
import type { Deps } from '../http/deps';

export type QuoteDeps = Pick<Deps, 'clock' | 'rates' | 'config'>;

/**
 * Prices `req` now; the result is a FLOATING or LOCKED quote body without id or expiry (locking stores it). Inside a DB
 * transaction pass `rate` (read before it opened) so the rate source is not called while rows are locked.
 */
export async function priceFor(db: Db, deps: QuoteDeps, partnerId: string, req: QuoteRequest, rate?: string): Promise<Quote> {
  // Without a rail (a LOCKED request may omit it) the fiat side's usual rail; a pair with no fiat side is refused by validatePair.
  const rail = req.rail ?? defaultRail(req.sourceCurrency, req.targetCurrency) ?? 'PIX';
  const pair = validatePair(req.sourceCurrency, req.targetCurrency, rail);
  let partnerFee = null;
  if (req.partnerFeeId) {
    const fee = await getPartnerFee(db, partnerId, req.partnerFeeId);
    if (!fee) throw unknownReference('partnerFeeId', 'partner fee');
    partnerFee = fee.fees[pair.direction];
  }
  const now = deps.clock.now();
  const priced = priceQuote({
    sourceCurrency: req.sourceCurrency,
    targetCurrency: req.targetCurrency,
    rail,
    sourceAmount: req.sourceAmount,
    targetAmount: req.targetAmount,
    timeLock: req.timeLock,
    partnerFee,
    rate: rate ?? (await deps.rates.quoteRate(pair.sourceCurrency, pair.targetCurrency, now)),
    schedule: deps.config.fees,
  });
  return {
    type: req.type,
    ...(req.customerId ? { customerId: req.customerId } : {}),
    rail: pair.rail,
    blockchain: req.blockchain ?? deps.config.RAMP_DEFAULT_BLOCKCHAIN,
    sourceCurrency: req.sourceCurrency,
    sourceAmount: priced.sourceAmount,
    targetCurrency: req.targetCurrency,
    baseTargetAmount: priced.baseTargetAmount,
    baseExchangeRate: priced.baseExchangeRate,
    fees: priced.fees,
    finalTargetAmount: priced.finalTargetAmount,
    finalExchangeRate: priced.finalExchangeRate,
    partnerFeeId: req.partnerFeeId ?? null,
    ...(req.type === 'LOCKED' ? { timeLock: priced.timeLock } : {}),
    createdAt: now.toISOString(),
  };
}

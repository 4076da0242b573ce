// Pricing a quote for a customer: the rate of the moment, the fee schedule, the partner fee. Used by /exchange-rates and by transactions without a locked quote.
import type { Quote, QuoteRequest } from '../../src/contract/exchange-rates';
import { type FieldIssue, invalid, unknownReference } from '../domain/errors';
import { timeLockSeconds, type TimeLock } from '../domain/fee-schedule';
import { newId } from '../ids';
import { customerExists } from '../store/queries/customers';
import { insertLockedQuote } from '../store/queries/exchange-rates';
import { defaultRail, priceQuoteRemembered, validatePair } from '../domain/pricing';
import type { Db } from '../store/db';
import { getPartnerFee } from '../store/queries/partner-fees';
import type { Deps } from '../deps';
import { requireChain } from './chain/chains';

export type QuoteDeps = Pick<Deps, 'clock' | 'rates' | 'config' | 'chains' | 'settlement'>;

/**
 * Prices `req` now; the result is a FLOATING or LOCKED quote body without id or expiry (locking stores it). Inside a DB
 * transaction pass `rate` (read before it opened) so the rate source is not called while rows are locked.
 */
export async function priceFor(db: Db, deps: QuoteDeps, partnerId: string, req: QuoteRequest, rate?: string): Promise<Quote> {
  // Without a rail (a LOCKED request may omit it) the fiat side's usual rail; a pair with no fiat side is refused by validatePair.
  const rail = req.rail ?? defaultRail(req.sourceCurrency, req.targetCurrency) ?? 'PIX';
  const pair = validatePair(req.sourceCurrency, req.targetCurrency, rail);
  const blockchain = req.blockchain ?? deps.config.RAMP_DEFAULT_BLOCKCHAIN;
  requireChain(deps, blockchain, pair.stablecoin);
  let partnerFee = null;
  if (req.partnerFeeId) {
    const fee = await getPartnerFee(db, partnerId, req.partnerFeeId);
    if (!fee) throw unknownReference('partnerFeeId', 'partner fee');
    partnerFee = fee.fees[pair.direction];
  }
  const now = deps.clock.now();
  const priced = priceQuoteRemembered({
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
    blockchain,
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

/**
 * POST /exchange-rates (and the BFF's quotes): a FLOATING quote priced now and not stored, or a LOCKED one stored with its
 * id and expiry. `body` has passed the QuoteRequest schema; the customer, when named, must be the partner's.
 */
export async function quote(db: Db, deps: QuoteDeps, partnerId: string, body: QuoteRequest): Promise<Quote> {
  const issues: FieldIssue[] = [];
  if (body.type === 'FLOATING') {
    if (body.customerId === undefined) issues.push({ path: 'customerId', message: 'is required for a FLOATING quote', code: 'REQUIRED' });
    if (body.rail === undefined) issues.push({ path: 'rail', message: 'is required for a FLOATING quote', code: 'REQUIRED' });
    if (body.sourceAmount === undefined) issues.push({ path: 'sourceAmount', message: 'is required for a FLOATING quote', code: 'REQUIRED' });
    if (body.targetAmount !== undefined) issues.push({ path: 'targetAmount', message: 'applies only to LOCKED quotes', code: 'NOT_ALLOWED' });
    if (body.timeLock !== undefined) issues.push({ path: 'timeLock', message: 'applies only to LOCKED quotes', code: 'NOT_ALLOWED' });
  } else if (body.sourceAmount === undefined && body.targetAmount === undefined) {
    issues.push({ path: 'sourceAmount', message: 'give sourceAmount, targetAmount or both', code: 'REQUIRED' });
  }
  if (issues.length) throw invalid(issues);
  if (body.customerId !== undefined && !(await customerExists(db, partnerId, body.customerId))) throw unknownReference('customerId', 'customer');
  const priced = await priceFor(db, deps, partnerId, body);
  if (body.type === 'FLOATING') return priced;
  const now = new Date(priced.createdAt);
  const id = newId();
  const expiresAt = new Date(now.getTime() + timeLockSeconds(priced.timeLock as TimeLock) * 1000);
  const locked: Quote = { id, ...priced, expiresAt: expiresAt.toISOString() };
  await insertLockedQuote(db, { id, partnerId, customerId: body.customerId ?? null, quote: locked, expiresAt, createdAt: now });
  return locked;
}

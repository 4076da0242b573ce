// Quote resolution: the rates of the moment (read before a DB transaction opens), and a transaction's quote — a LOCKED one
// redeemed once, or a fresh price.
import { Decimal } from 'decimal.js';
import type { Quote } from '../../../src/contract/exchange-rates';
import { AppError, invalid } from '../../domain/errors';
import { type Currency, isCurrency, isFiat } from '../../domain/money';
import type { Blockchain } from '../../domain/wallets';
import type { Db } from '../../store/db';
import { redeemQuote } from '../../store/queries/exchange-rates';
import { type UsdRates, usdRates } from '../limits';
import { priceFor } from '../quotes';
import type { TxDeps } from './deps';

/** Rates of the moment, read before the DB transaction opens: USD mids for limits, and the pair's rate when a fresh price is needed. */
export interface Market {
  usd: UsdRates;
  rate?: string;
}

export async function readMarket(deps: TxDeps, pair?: { sourceCurrency?: string; targetCurrency?: string }): Promise<Market> {
  const now = deps.clock.now();
  const { sourceCurrency: s, targetCurrency: t } = pair ?? {};
  const [usd, rate] = await Promise.all([
    usdRates(deps.rates, now),
    isCurrency(s) && isCurrency(t) && s !== t && (isFiat(s) !== isFiat(t)) ? deps.rates.quoteRate(s, t, now) : Promise.resolve(undefined),
  ]);
  return { usd, rate };
}

/** The quote of a transaction: a LOCKED one redeemed now (once, this customer's, unexpired) or a fresh price. */
export async function resolveQuote(
  tx: Db,
  deps: TxDeps,
  partnerId: string,
  customerId: string,
  transactionId: string,
  q: { exchangeRateId?: string; rail?: string; sourceCurrency?: string; targetCurrency?: string; sourceAmount?: string; blockchain?: Blockchain; partnerFeeId?: string },
  amountField: string,
  market: Market,
): Promise<Quote> {
  if (q.exchangeRateId) {
    const quote = await redeemQuote(tx, { partnerId, customerId, id: q.exchangeRateId, usedBy: transactionId, now: deps.clock.now() });
    // The spec's examples repeat the currencies and amount beside the quote: accepted when they match it (the caller's
    // DB transaction rolls the redemption back when they do not).
    const differ = (['sourceCurrency', 'targetCurrency', 'sourceAmount'] as const).filter((k) => q[k] !== undefined && !sameValue(q[k]!, quote[k]));
    if (differ.length) {
      throw invalid(differ.map((k) => ({ path: k === 'sourceAmount' ? amountField : k, message: `differs from the locked quote (exchangeRateId), which has ${quote[k]}; send it as quoted or leave it out`, code: 'CONFLICTING_FIELDS' as const })));
    }
    return quote;
  }
  const missing = (['sourceCurrency', 'targetCurrency', 'sourceAmount'] as const).filter((k) => q[k] === undefined);
  if (!q.rail) missing.push('rail' as never);
  if (missing.length) throw invalid(missing.map((k) => ({ path: k === 'sourceAmount' ? amountField : k, message: 'is required without an exchangeRateId', code: 'REQUIRED' as const })));
  try {
    return await priceFor(tx, deps, partnerId, {
      customerId,
      type: 'FLOATING',
      rail: q.rail as Quote['rail'],
      sourceCurrency: q.sourceCurrency as Currency,
      targetCurrency: q.targetCurrency as Currency,
      sourceAmount: q.sourceAmount,
      blockchain: q.blockchain,
      partnerFeeId: q.partnerFeeId,
    }, market.rate);
  } catch (err) {
    // The off-ramp calls its stablecoin amount `amount`: name the field the client sent.
    if (err instanceof AppError && err.errors?.some((e) => e.path === 'sourceAmount') && amountField !== 'sourceAmount') {
      throw new AppError(err.code, err.detail.replaceAll('sourceAmount', amountField), { errors: err.errors.map((e) => ({ ...e, path: e.path === 'sourceAmount' ? amountField : e.path })), extra: err.extra });
    }
    throw err;
  }
}

/** A repeated field matches the quote: currencies exactly, amounts as decimals (`100` is `100.00`). */
function sameValue(given: string, quoted: string): boolean {
  if (given === quoted) return true;
  try {
    return new Decimal(given).eq(quoted);
  } catch {
    return false;
  }
}

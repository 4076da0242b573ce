// What would refuse a locked quote at payment, checked before locking: the customer's verification, limits and balance.
import type { Customer } from '../../contract/customers';
import type { Quote } from '../../contract/exchange-rates';
import { sign, subtract } from '../../rules/decimal';

export type LockBlock =
  | { kind: 'notApproved' }
  | { kind: 'rejected' }
  | { kind: 'single'; max: string }
  | { kind: 'daily'; remaining: string }
  | { kind: 'monthly'; remaining: string }
  | { kind: 'balance'; balance: string; coin: string };

/** The stablecoin side of a quote before fees: the service counts limits in USD-equivalent, and a dollar coin is a dollar. */
export function usdEstimate(quote: Pick<Quote, 'sourceCurrency' | 'sourceAmount' | 'baseTargetAmount'>, direction: 'buy' | 'sell'): string {
  return direction === 'buy' ? quote.baseTargetAmount : quote.sourceAmount;
}

/** The balance of `coin` on `chain` of the customer's wallet, when it was read with balances. */
export function balanceOf(customer: Customer | undefined, coin: string, chain: string | undefined): string | undefined {
  const wallet = customer?.wallets.find((w) => (chain ? w.blockchain === chain : w.isDefault));
  return wallet?.balances?.find((b) => b.stablecoin === coin)?.balance ?? (wallet?.balances ? '0' : undefined);
}

const above = (a: string, b: string): boolean => sign(subtract(a, b)) > 0;

/**
 * The first reason the payment of this quote would be refused, if any: a customer not approved (or finally rejected),
 * an amount over the single, daily or monthly limit, a sale above the wallet's balance. Unknown facts refuse nothing:
 * the server has the last word.
 */
export function lockBlock(
  customer: Customer | undefined,
  quote: Quote | undefined,
  direction: 'buy' | 'sell',
  coin: string,
  chain: string | undefined,
): LockBlock | undefined {
  if (!customer) return undefined;
  const status = customer.verification.status;
  if (status === 'FINAL_REJECTION') return { kind: 'rejected' };
  if (status !== 'APPROVED') return { kind: 'notApproved' };
  if (!quote) return undefined;
  const usd = usdEstimate(quote, direction);
  const limits = customer.transactionLimits;
  if (limits) {
    if (above(usd, limits.single.max)) return { kind: 'single', max: limits.single.max };
    if (above(usd, limits.daily.remaining)) return { kind: 'daily', remaining: limits.daily.remaining };
    if (above(usd, limits.monthly.remaining)) return { kind: 'monthly', remaining: limits.monthly.remaining };
  }
  if (direction === 'sell') {
    const balance = balanceOf(customer, coin, chain);
    if (balance !== undefined && above(quote.sourceAmount, balance)) return { kind: 'balance', balance, coin };
  }
  return undefined;
}

// Double-entry rules: account names, which accounts may go negative, and the check that a movement balances per chain and asset.
import { AppError } from './errors';
import { Decimal } from './money';

export interface Entry {
  account: string;
  blockchain: string;
  asset: string;
  /** Signed decimal string: credit positive, debit negative. */
  amount: string;
}

export const accounts = {
  customer: (customerId: string) => `customer:${customerId}`,
  sandboxTreasury: 'sandbox:treasury',
  serviceFees: 'fees:service',
  partnerFees: (partnerFeeId: string) => `fees:partner:${partnerFeeId}`,
  /** Money in transit between the fiat rails and the chains (on-ramp settlement, off-ramp payout). */
  clearing: (rail: string) => `clearing:${rail}`,
  /** What left our books to an address we did not issue. */
  external: (blockchain: string) => `external:${blockchain}`,
  /** Where stablecoin sent to a customer's wallet from outside came from: the chain's world, net of what it brought in. */
  deposits: (blockchain: string) => `deposits:${blockchain}`,
};

/** System accounts are sources and sinks of the outside world; customer and fee accounts hold real value. */
export const mayGoNegative = (account: string): boolean => account.startsWith('sandbox:') || account.startsWith('clearing:') || account.startsWith('deposits:');

/** Every movement sums to zero per (blockchain, asset); an entry of zero is a mistake, not a no-op. */
export function assertBalanced(entries: Entry[]): void {
  if (entries.length < 2) throw new AppError('INTERNAL', 'A movement needs at least two entries.');
  const sums = new Map<string, Decimal>();
  for (const e of entries) {
    const amount = new Decimal(e.amount);
    if (amount.isZero() || !amount.isFinite()) throw new AppError('INTERNAL', `Ledger entry of ${e.amount} on ${e.account}.`);
    const key = `${e.blockchain}/${e.asset}`;
    sums.set(key, (sums.get(key) ?? new Decimal(0)).plus(amount));
  }
  for (const [key, sum] of sums) if (!sum.isZero()) throw new AppError('INTERNAL', `Unbalanced movement: ${key} sums to ${sum.toFixed()}.`);
}

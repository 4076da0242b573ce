// Transaction life cycles: the next status of each type, which statuses are final, what a failure becomes, and settlement estimates per rail.
import { Decimal } from 'decimal.js';
import type { AccountRail } from './bank-accounts';

export type TxType = 'ON_RAMP' | 'OFF_RAMP' | 'TRANSFER';
export type TxStatus = 'AWAITING_FUNDS' | 'TRANSFERRING_FIAT' | 'TRADING' | 'TRANSFERRING_STABLECOIN' | 'SUCCESS' | 'FAILED' | 'REFUNDING' | 'REFUNDED';

const paths: Record<TxType, TxStatus[]> = {
  ON_RAMP: ['AWAITING_FUNDS', 'TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN', 'SUCCESS'],
  OFF_RAMP: ['TRANSFERRING_STABLECOIN', 'TRADING', 'TRANSFERRING_FIAT', 'SUCCESS'],
  TRANSFER: ['TRANSFERRING_STABLECOIN', 'SUCCESS'],
};

export const initialStatus = (type: TxType): TxStatus => paths[type][0]!;
export const isFinal = (s: TxStatus): boolean => s === 'SUCCESS' || s === 'FAILED' || s === 'REFUNDED';

/** The status after `s` on the happy path; REFUNDING always ends REFUNDED. Undefined when `s` is final or waits for funds. */
export function nextStatus(type: TxType, s: TxStatus): TxStatus | undefined {
  if (s === 'REFUNDING') return 'REFUNDED';
  if (s === 'AWAITING_FUNDS' || isFinal(s)) return undefined;
  const path = paths[type];
  return path[path.indexOf(s) + 1];
}

/**
 * What a failure leads to: before any money moved (an on-ramp, or a transfer before settlement) the transaction just FAILS;
 * an off-ramp has already taken the customer's stablecoin, so it is REFUNDED through REFUNDING.
 */
export function failureStatus(type: TxType): TxStatus {
  return type === 'OFF_RAMP' ? 'REFUNDING' : 'FAILED';
}

export const eventPrefix: Record<TxType, string> = { ON_RAMP: 'onramp', OFF_RAMP: 'offramp', TRANSFER: 'transfer' };
export const eventType = (type: TxType, s: TxStatus): string => `${eventPrefix[type]}.${s.toLowerCase()}`;

const addBusinessDays = (from: Date, days: number): Date => {
  const d = new Date(from);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d;
};

/** When the fiat should arrive: PIX instant; SEPA instant under 100k USD-equivalent, else one business day; SWIFT up to five business days. */
export function settlementEstimate(rail: AccountRail, amountUsd: string, from: Date): Date {
  switch (rail) {
    case 'PIX':
      return from;
    case 'SEPA':
      return new Decimal(amountUsd).lt(100_000) ? from : addBusinessDays(from, 1);
    case 'SWIFT':
      return addBusinessDays(from, 5);
  }
}

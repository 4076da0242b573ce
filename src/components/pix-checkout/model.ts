// What <ramp-pix-checkout> sends (a locked quote's id, or an unlocked BRL amount with the coin and chain, checked before it leaves) and which rail pays it.
import type { Quote } from '../../contract/exchange-rates';
import type { BffOnRampRequest, Transaction } from '../../contract/transactions';
import type { Purpose } from '../transaction/purposes';
import { BLOCKCHAINS } from '../../contract/blockchains';

export type Stablecoin = 'USDC' | 'USDT';
export type Blockchain = NonNullable<BffOnRampRequest['blockchain']>;

const blockchains: readonly Blockchain[] = BLOCKCHAINS;

/** Attribute values are whatever a partner typed: unknown ones fall back to the default rather than reaching the API. */
export const toStablecoin = (value: string | null | undefined): Stablecoin => (value?.trim().toUpperCase() === 'USDT' ? 'USDT' : 'USDC');
export const toBlockchain = (value: string | null | undefined): Blockchain | undefined => {
  const v = (value ?? '').trim().toUpperCase();
  return blockchains.find((b) => b === v);
};

/** A BRL amount as the API takes it: a plain decimal string, at most 2 decimals, above zero. `1.234,56` is not one. */
export function isBrlAmount(value: string): boolean {
  return /^\d{1,15}(\.\d{1,2})?$/.test(value) && /[1-9]/.test(value);
}

/** What the checkout was configured with: a locked quote, an unlocked amount, or nothing usable (a partner's mistake). */
export type CheckoutSource =
  | { kind: 'locked'; exchangeRateId: string }
  | { kind: 'unlocked'; sourceAmount: string; targetCurrency: Stablecoin; blockchain: Blockchain | undefined }
  | { kind: 'missing' };

export function checkoutSource(attrs: { exchangeRateId: string; amount: string; stablecoin: string; blockchain: string }): CheckoutSource {
  const exchangeRateId = attrs.exchangeRateId.trim();
  if (exchangeRateId) return { kind: 'locked', exchangeRateId };
  const amount = attrs.amount.trim();
  if (isBrlAmount(amount)) return { kind: 'unlocked', sourceAmount: amount, targetCurrency: toStablecoin(attrs.stablecoin), blockchain: toBlockchain(attrs.blockchain) };
  return { kind: 'missing' };
}

/**
 * A SEPA or SWIFT on-ramp: paid by a bank transfer to the instructions the server gives, not by PIX. The payment's
 * rail once it exists, else the locked quote's.
 */
export function paidByBank(tx: Transaction | undefined, source: CheckoutSource, quote: Quote | undefined): boolean {
  const rail = tx?.state.payment?.rail ?? tx?.quote?.rail ?? (source.kind === 'locked' ? quote?.rail : 'PIX');
  return typeof rail === 'string' && rail !== 'PIX';
}

/** The body of `POST /bff/transactions/on-ramp`: with a locked quote the server takes currencies and amount from it. */
export function onRampRequest(source: Exclude<CheckoutSource, { kind: 'missing' }>, purpose: Purpose): BffOnRampRequest {
  if (source.kind === 'locked') return { purpose, exchangeRateId: source.exchangeRateId };
  return {
    purpose,
    rail: 'PIX',
    sourceCurrency: 'BRL',
    targetCurrency: source.targetCurrency,
    sourceAmount: source.sourceAmount,
    ...(source.blockchain ? { blockchain: source.blockchain } : {}),
  };
}

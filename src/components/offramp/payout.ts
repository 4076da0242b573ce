// What <ramp-offramp> sends: a locked quote's id or an unlocked stablecoin amount, to one approved bank account, for one allowed purpose.
import type { BankAccount } from '../../contract/bank-accounts';
import type { Quote } from '../../contract/exchange-rates';
import type { BffOffRampRequest } from '../../contract/transactions';
import type { BankRail } from './model';
import { toBlockchain, toStablecoin, type Blockchain, type Stablecoin } from '../pix-checkout/model';
import { purposeAllowed, type Purpose, type Relationship } from '../transaction/purposes';

/** A stablecoin amount as the API takes it: a plain decimal string, at most 6 decimals, above zero. */
export function isCoinAmount(value: string): boolean {
  return /^\d{1,15}(\.\d{1,6})?$/.test(value) && /[1-9]/.test(value);
}

export type PayoutSource =
  | { kind: 'locked'; exchangeRateId: string }
  | { kind: 'unlocked'; amount: string; stablecoin: Stablecoin; blockchain: Blockchain | undefined }
  | { kind: 'missing' };

export function payoutSource(attrs: { exchangeRateId: string; amount: string; stablecoin: string; blockchain: string }): PayoutSource {
  const exchangeRateId = attrs.exchangeRateId.trim();
  if (exchangeRateId) return { kind: 'locked', exchangeRateId };
  const amount = attrs.amount.trim();
  if (isCoinAmount(amount)) return { kind: 'unlocked', amount, stablecoin: toStablecoin(attrs.stablecoin), blockchain: toBlockchain(attrs.blockchain) };
  return { kind: 'missing' };
}

/** The body of `POST /bff/transactions/off-ramp`; unlocked, the fiat is the one the account is paid in. */
export function offRampRequest(source: Exclude<PayoutSource, { kind: 'missing' }>, account: Pick<BankAccount, 'id' | 'currency'>, purpose: Purpose): BffOffRampRequest {
  if (source.kind === 'locked') return { bankAccountId: account.id, purpose, exchangeRateId: source.exchangeRateId };
  return {
    bankAccountId: account.id,
    purpose,
    sourceCurrency: source.stablecoin,
    targetCurrency: account.currency,
    amount: source.amount,
    ...(source.blockchain ? { blockchain: source.blockchain } : {}),
  };
}

export type Unavailable = 'verification' | 'currency';

/**
 * Why an account cannot receive this payout, or `undefined` when it can: its holder must be APPROVED, and a known
 * quote pays out in one fiat only (a BRL quote cannot go to a EUR account).
 */
export function unavailableReason(account: Pick<BankAccount, 'currency' | 'holder'>, quote: Pick<Quote, 'targetCurrency'> | undefined): Unavailable | undefined {
  if (account.holder.verification.status !== 'APPROVED') return 'verification';
  if (quote && quote.targetCurrency !== account.currency) return 'currency';
  return undefined;
}

/** PERSONAL_ACCOUNT is for the customer's own account only: the server refuses it otherwise, so the UI does first. */
export function purposeFits(purpose: Purpose, account: { holder: { relationship: Relationship } } | undefined): boolean {
  return purposeAllowed(purpose, account?.holder.relationship ?? 'SELF');
}

/** The rail that pays out a fiat, for the add-account form's first choice under a known quote. */
export function railFor(currency: Quote['targetCurrency']): BankRail {
  return currency === 'EUR' ? 'SEPA' : currency === 'USD' ? 'SWIFT' : 'PIX';
}

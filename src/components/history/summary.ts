// What a history row and its detail say about a transaction: direction, amounts (decimal strings with their currency),
// rail and chain, the status's words, and the payment's fields worth showing, read from the transaction as the API gives it.
import type { Transaction } from '../../contract/transactions';
import { isCurrency, type Currency } from '../../contract/currencies';
import type { MessageKey } from '../../i18n';
import { stepLabelKey, type StepLabelKey } from '../transaction/labels';

export interface Money {
  amount: string;
  currency: Currency;
}

export interface Summary {
  directionKey: 'history.direction.ON_RAMP' | 'history.direction.OFF_RAMP' | 'history.direction.TRANSFER';
  source: Money | undefined;
  /** What arrives (on- and off-ramp); a transfer names its destination address instead. */
  target: Money | undefined;
  to: string | undefined;
  rail: string | undefined;
  blockchain: string;
  statusKey: StepLabelKey | 'history.step.TRANSFER.TRANSFERRING_STABLECOIN';
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const decimal = (value: unknown): string | undefined => {
  const s = str(value);
  return s && /^\d+(\.\d+)?$/.test(s) ? s : undefined;
};
const money = (amount: unknown, currency: unknown): Money | undefined => {
  const a = decimal(amount);
  return a && isCurrency(currency) ? { amount: a, currency } : undefined;
};

export function summarize(t: Transaction): Summary {
  const r = t.request;
  const payment = (r.payment ?? {}) as Record<string, unknown>;
  const finalTarget = t.state.receipt?.targetAmount ?? t.quote?.finalTargetAmount;
  const statusKey: Summary['statusKey'] =
    t.type === 'TRANSFER' && t.state.status === 'TRANSFERRING_STABLECOIN' ? 'history.step.TRANSFER.TRANSFERRING_STABLECOIN' : stepLabelKey(t.type, t.state.status);
  switch (t.type) {
    case 'ON_RAMP':
      return {
        directionKey: 'history.direction.ON_RAMP',
        source: money(r.sourceAmount, r.sourceCurrency),
        target: money(finalTarget, r.targetCurrency),
        to: undefined,
        rail: str(r.rail) ?? str(payment.rail),
        blockchain: t.blockchain,
        statusKey,
      };
    case 'OFF_RAMP':
      return {
        directionKey: 'history.direction.OFF_RAMP',
        source: money(r.amount, r.sourceCurrency),
        target: money(finalTarget, r.targetCurrency),
        to: undefined,
        rail: str(payment.rail),
        blockchain: t.blockchain,
        statusKey,
      };
    default:
      return { directionKey: 'history.direction.TRANSFER', source: money(r.amount, r.currency), target: undefined, to: str(r.to), rail: undefined, blockchain: t.blockchain, statusKey };
  }
}

/** Payment fields the detail shows, in this order, with the words for each; anything else a provider adds stays out. */
export const paymentFields = [
  ['rail', 'history.payment.rail'],
  ['keyType', 'history.payment.keyType'],
  ['keyValue', 'history.payment.keyValue'],
  ['beneficiary', 'checkout.bank.beneficiary'],
  ['iban', 'checkout.bank.iban'],
  ['accountNumber', 'checkout.bank.account'],
  ['bic', 'checkout.bank.bic'],
  ['bankName', 'history.payment.bankName'],
  ['bankCountry', 'history.payment.bankCountry'],
  ['reference', 'checkout.bank.reference'],
  ['brCode', 'history.payment.brCode'],
  ['expiresAt', 'history.payment.expiresAt'],
] as const satisfies readonly (readonly [string, MessageKey])[];

export type PaymentField = (typeof paymentFields)[number][0];

/** The payment's fields present as text, in the order above. */
export function paymentRows(t: Transaction): { field: PaymentField; label: (typeof paymentFields)[number][1]; value: string }[] {
  const payment = (t.state.payment ?? {}) as Record<string, unknown>;
  return paymentFields.flatMap(([field, label]) => {
    const value = str(payment[field]);
    return value ? [{ field, label, value }] : [];
  });
}

/** Only an http(s) link is followed: a `javascript:` or `data:` URL from anywhere never becomes an href. */
export function safeHttpUrl(value: unknown): string | undefined {
  const s = str(value);
  if (!s) return undefined;
  try {
    const url = new URL(s);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

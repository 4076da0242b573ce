// The payment of an on-ramp, read defensively (PIX BR Code or bank-transfer instructions), and when its window closes on this device's clock, which may be off from the server's by minutes.

/**
 * The local epoch-ms at which `expiresAt` (server time) passes. `serverNow` is a server timestamp read at `localNow`
 * (the transaction's `updatedAt` when it arrived): their difference is the clock skew, so a phone set 3 minutes fast
 * does not close the window 3 minutes early. Network latency makes the estimate err by a few hundred ms, on the safe
 * side (the window looks to close slightly early). `undefined` when a date cannot be read.
 */
export function localDeadline(expiresAt: string, serverNow: string | undefined, localNow: number): number | undefined {
  const deadline = Date.parse(expiresAt);
  if (Number.isNaN(deadline)) return undefined;
  const server = serverNow ? Date.parse(serverNow) : Number.NaN;
  const skew = Number.isNaN(server) ? 0 : server - localNow;
  // A skew larger than a day is a broken timestamp, not a clock: trust the local clock instead.
  return Math.abs(skew) > 86_400_000 ? deadline : deadline - skew;
}

/** What the PIX payment of an on-ramp says, read defensively: `state.payment` is an open record in the contract. */
export interface PixPayment {
  brCode: string;
  expiresAt: string | undefined;
}

export function pixPaymentOf(payment: Readonly<Record<string, unknown>> | undefined): PixPayment | undefined {
  if (!payment || typeof payment.brCode !== 'string' || !payment.brCode) return undefined;
  return { brCode: payment.brCode, expiresAt: typeof payment.expiresAt === 'string' ? payment.expiresAt : undefined };
}

/** SEPA or SWIFT transfer instructions of an on-ramp: where to send the fiat, and the reference that matches it. */
export interface BankTransferPayment {
  rail: string;
  beneficiary: string;
  iban: string;
  bic: string;
  reference: string;
  amount: string;
  currency: string;
  expiresAt: string | undefined;
}

export function bankTransferOf(payment: Readonly<Record<string, unknown>> | undefined): BankTransferPayment | undefined {
  if (!payment || payment.rail === 'PIX') return undefined;
  const text = (key: string) => (typeof payment[key] === 'string' ? (payment[key] as string) : '');
  const iban = text('iban') || text('accountNumber');
  if (!iban || !text('reference')) return undefined;
  return {
    rail: text('rail'),
    beneficiary: text('beneficiary'),
    iban,
    bic: text('bic'),
    reference: text('reference'),
    amount: text('amount'),
    currency: text('currency'),
    expiresAt: text('expiresAt') || undefined,
  };
}

/** When the payment's window closes (server time), whatever the rail. */
export const paymentExpiresAt = (payment: Readonly<Record<string, unknown>> | undefined): string | undefined =>
  (pixPaymentOf(payment) ?? bankTransferOf(payment))?.expiresAt;

// The quote panel's model: what the user chose (direction, fiat, stablecoin, chain), the request bodies it becomes, and the few derived figures.
import type { BffQuoteRequest, Quote } from '../../contract/exchange-rates';
import { add, divide, multiply, ratio, sign, subtract, toFixed, trimZeros } from '../../rules/decimal';
import { solveSource } from '../../rules/pricing';
import { BLOCKCHAINS } from '../../contract/blockchains';
import { decimalsOf, type Fiat, type Stablecoin, STABLECOINS } from '../../contract/currencies';

// Types come from the contract (type-only imports: no zod in the browser); the runtime lists below mirror its enums.
export type Currency = Quote['sourceCurrency'];
export type Blockchain = Quote['blockchain'];
export type Rail = Quote['rail'];
export type TimeLock = NonNullable<BffQuoteRequest['timeLock']>;

/** `buy`: the user pays fiat and receives a stablecoin (on-ramp); `sell`: the reverse (off-ramp). */
export type Direction = 'buy' | 'sell';
export type { Fiat, Stablecoin } from '../../contract/currencies';
/** Which amount the user typed: what they pay (`source`) or what they receive (`target`, locked quotes only). */
export type Driver = 'source' | 'target';

export const directions: readonly Direction[] = ['buy', 'sell'];
export const fiats: readonly Fiat[] = ['BRL', 'EUR', 'USD'];
export const stablecoins: readonly Stablecoin[] = STABLECOINS;
export const blockchains: readonly Blockchain[] = BLOCKCHAINS;
export const timeLocks: readonly TimeLock[] = ['30s', '1m', '5m'];

/** The rail follows the fiat: PIX carries BRL, SEPA EUR, SWIFT USD (ACH and FEDWIRE also carry USD; SWIFT is the one offered here). */
export const railFor: Readonly<Record<Fiat, Rail>> = { BRL: 'PIX', EUR: 'SEPA', USD: 'SWIFT' };

/** Seconds in each lock window, as the server applies them (spec: `30s` free and default, `1m`, `5m`). */
export const timeLockSeconds: Readonly<Record<TimeLock, number>> = { '30s': 30, '1m': 60, '5m': 300 };

/** Decimals each currency may carry, and which are stablecoins: the contract's rules, the server's too. */
export { decimalsOf, isStablecoin } from '../../contract/currencies';

// Attribute values are whatever a partner typed: anything unknown falls back to the default rather than reaching the API.
const pick = <T extends string>(list: readonly T[], value: string | null | undefined, fallback: T): T => {
  const v = (value ?? '').trim().toUpperCase();
  return list.find((x) => x.toUpperCase() === v) ?? fallback;
};
export const toDirection = (value: string | null | undefined): Direction => pick(directions, value, 'buy');
export const toFiat = (value: string | null | undefined): Fiat => pick(fiats, value, 'BRL');
export const toStablecoin = (value: string | null | undefined): Stablecoin => pick(stablecoins, value, 'USDC');
export const toBlockchain = (value: string | null | undefined): Blockchain | undefined => {
  const v = (value ?? '').trim().toUpperCase();
  return blockchains.find((b) => b === v);
};

export interface Pair {
  direction: Direction;
  fiat: Fiat;
  stablecoin: Stablecoin;
  /** Absent: the server's default chain, which the response names. */
  blockchain?: Blockchain | undefined;
}

export interface Sides {
  source: Currency;
  target: Currency;
  rail: Rail;
}

export function sidesOf(pair: Pair): Sides {
  return pair.direction === 'buy'
    ? { source: pair.fiat, target: pair.stablecoin, rail: railFor[pair.fiat] }
    : { source: pair.stablecoin, target: pair.fiat, rail: railFor[pair.fiat] };
}

/** A quote answers for this pair: same currencies and rail, and the chosen chain if one was chosen. */
export function quoteMatches(quote: Quote, pair: Pair): boolean {
  const { source, target, rail } = sidesOf(pair);
  return (
    quote.sourceCurrency === source &&
    quote.targetCurrency === target &&
    quote.rail === rail &&
    (pair.blockchain === undefined || quote.blockchain === pair.blockchain)
  );
}

// What both kinds of request carry, around the one amount given.
function requestOf(pair: Pair, type: BffQuoteRequest['type'], amount: { sourceAmount: string } | { targetAmount: string }) {
  const { source, target, rail } = sidesOf(pair);
  return { type, rail, sourceCurrency: source, targetCurrency: target, ...amount, ...(pair.blockchain ? { blockchain: pair.blockchain } : {}) };
}

/** A floating (indicative, not stored) quote always gives the source amount: the server solves targets only for locks. */
export function floatingRequest(pair: Pair, sourceAmount: string): BffQuoteRequest {
  return requestOf(pair, 'FLOATING', { sourceAmount });
}

/** A locked quote gives exactly one of the amounts: the one the user typed (the server solves the other). */
export function lockedRequest(pair: Pair, driver: Driver, amount: string, timeLock: TimeLock): BffQuoteRequest {
  return { ...requestOf(pair, 'LOCKED', driver === 'source' ? { sourceAmount: amount } : { targetAmount: amount }), timeLock };
}

/** Basis points as the fraction Intl's percent style expects: `"50"` → `"0.005"` (exact: a shift of four places). */
export function bpsToFraction(bps: string): string {
  return trimZeros(toFixed(divide(bps, '10000'), 8));
}

/**
 * The source amount that should deliver `target` under this quote's terms, for showing "you pay ≈ …" while the user
 * drives the target. It is the server's own solve (src/rules/pricing.ts, which server/domain/pricing.ts uses: smallest base b with b − fees(b) ≥ target, then the smallest
 * source buying b), so a floating quote at this source lands on the target to the cent; the lock then solves it
 * exactly. Undefined when the fees take everything at any size.
 */
export function estimateSource(terms: Quote, target: string): string | undefined {
  const { service, partner } = terms.fees;
  return solveSource(
    {
      rate: terms.baseExchangeRate,
      serviceRate: service.rate,
      partnerRate: partner.rate,
      serviceFlat: service.flatAmount,
      partnerFlat: partner.flatAmount,
      sourceDecimals: decimalsOf(terms.sourceCurrency),
      targetDecimals: decimalsOf(terms.targetCurrency),
    },
    target,
  );
}

export interface LockPremium {
  /** Extra basis points on the service fee: the locked quote's rate minus the floating one's. */
  bps: string;
  /** What those points cost, in the fee currency: the service fees' difference, when both quotes price the same source. */
  amount?: string;
  currency: Currency;
}

/**
 * The lock premium, read off the two quotes rather than configured in the browser: the server adds it to the service
 * rate, so locked − floating is exactly it. The amount is only given when both quotes are for the same source amount,
 * otherwise the difference would mix in the size of the order.
 */
export function lockPremium(locked: Quote, floating: Quote | undefined): LockPremium | undefined {
  if (!floating || floating.fees.service.currency !== locked.fees.service.currency) return undefined;
  const bps = subtract(locked.fees.service.rate, floating.fees.service.rate);
  if (sign(bps) < 0) return undefined;
  const currency = locked.fees.service.currency;
  const premium: LockPremium = { bps: trimZeros(toFixed(bps, 4)), currency };
  if (sign(subtract(locked.sourceAmount, floating.sourceAmount)) === 0) {
    const amount = subtract(locked.fees.service.totalAmount, floating.fees.service.totalAmount);
    if (sign(amount) >= 0) premium.amount = toFixed(amount, decimalsOf(currency));
  }
  return premium;
}

export interface FeeRow {
  /** Basis points of this row. */
  bps: string;
  /** The flat part (fee currency); zero for the lock premium. */
  flat: string;
  amount: string;
}

/** The breakdown a person reads: base amount, each fee once, final amount; `base − service − premium − partner = final`, exactly. */
export interface FeeRows {
  currency: Currency;
  base: string;
  service: FeeRow;
  /** Only on a locked quote whose floating quote is known: the premium taken out of the service fee, not on top of it. */
  premium?: FeeRow;
  partner: FeeRow;
  final: string;
}

/**
 * Splits a quote's fees into rows. The server adds the lock premium to the service rate and rounds the fees as one, so
 * the premium's share is the premium's points on the base amount (rounded up, never more than the service fee) and
 * the service row keeps the rest: the rows add up to base − final to the last decimal.
 */
export function feeRows(q: Quote, floating?: Quote): FeeRows {
  const currency = q.fees.service.currency;
  const places = decimalsOf(currency);
  const premium = lockPremium(q, floating);
  const service: FeeRow = { bps: trimZeros(q.fees.service.rate), flat: q.fees.service.flatAmount, amount: q.fees.service.totalAmount };
  const rows: FeeRows = {
    currency,
    base: q.baseTargetAmount,
    service,
    partner: { bps: trimZeros(q.fees.partner.rate), flat: q.fees.partner.flatAmount, amount: q.fees.partner.totalAmount },
    final: q.finalTargetAmount,
  };
  if (premium && sign(premium.bps) > 0) {
    let amount = toFixed(multiply(q.baseTargetAmount, divide(premium.bps, '10000')), places, 'up');
    if (sign(subtract(amount, service.amount)) > 0) amount = service.amount;
    rows.premium = { bps: premium.bps, flat: toFixed('0', places), amount };
    rows.service = { ...service, bps: trimZeros(toFixed(subtract(service.bps, premium.bps), 4)), amount: toFixed(subtract(service.amount, amount), places) };
  }
  return rows;
}

/** How long a lock lasts, measured on the server's own clock (`expiresAt − createdAt`), so a skewed device clock does not matter. */
export function lockDurationMs(quote: Quote): number | undefined {
  if (!quote.expiresAt) return undefined;
  const ms = Date.parse(quote.expiresAt) - Date.parse(quote.createdAt);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** Whether a decimal string is zero (e.g. a partner fee of `"0.000000"`). */
export const isZero = (decimal: string): boolean => sign(ratio(decimal)) === 0;

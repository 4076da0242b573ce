// Quote pricing: which pairs and rails are allowed, and the exact amounts, fees and rates of a quote, forward (source given) or solved (target given).
import { solveSource as solve } from '../../src/rules/pricing';
import { AppError, type FieldIssue, invalid } from './errors';
import { type Direction, type FeeRule, type FeeSchedule, lockPremiumBps, TIME_LOCKS, type TimeLock } from './fee-schedule';
import {
  type Currency,
  Decimal,
  decimalsOf,
  divideDown,
  FIAT,
  type Fiat,
  formatAmount,
  formatRate,
  isCurrency,
  isFiat,
  isRail,
  isStablecoin,
  parseAmount,
  RAILS,
  type Rail,
  railFiat,
  railsFor,
  RATE_DECIMALS,
  roundDown,
  roundRateDown,
  roundUp,
  type Stablecoin,
  STABLECOINS,
  unitOf,
  amountErrorCode,
} from './money';

/*
 * How a quote is priced (all in decimal.js, all amounts strings on the way in and out):
 *
 *   baseExchangeRate  = the rate given (RateSource.quoteRate: mid less spread), 8 decimals, rounded down
 *   baseTargetAmount  = sourceAmount × baseExchangeRate, rounded DOWN to the target's decimals
 *   fee formula       = baseTargetAmount × rate / 10000 + flatAmount   (rate in basis points, in the target currency)
 *   finalTargetAmount = baseTargetAmount − service.totalAmount − partner.totalAmount
 *   finalExchangeRate = finalTargetAmount / sourceAmount, 8 decimals, rounded down (informative: the amounts are the truth)
 *
 * Rounding the fees. With no partner fee, service.totalAmount is its formula rounded UP, as the design
 * says. With a partner fee, rounding each of two fees up on its own makes the final amount non-monotone: one
 * more unit of base can push both fees over a rounding step at once and give the customer one unit LESS for
 * paying more (it happens on off-ramps, where one micro-USDC of source moves the base by 0 or 1 cent). So we
 * round the customer's TOTAL fee up — ceil(service formula + partner formula), never more than that — give
 * the partner its own formula rounded up, and the service takes the rest, which is its formula rounded up or
 * one unit below. The customer never pays more than the stated formulas rounded up once, the partner never
 * gets less than its formula, and a larger source never yields a smaller final amount.
 *
 * Solving for a target (`targetAmount` given). The customer asks for an exact final amount T. The final
 * amount is a non-decreasing step function of the source, so we take the SMALLEST source on the source
 * currency's grid whose forward quote delivers at least T — computed in closed form, exactly:
 *   the smallest base b with b − ceil(b·q + F) ≥ T is b* = ceil((T + F) / (1 − q))   (q = total rate / 10000, F = flats)
 *   the smallest source s with floor(s × rate) ≥ b* is s* = ceil(b* / rate)           (rounded UP, to the source's decimals)
 * The forward quote at s* delivers T plus some dust (less than what one unit of source buys), because the
 * source moves in whole cents or micro-units. An exact search would usually find no source that lands on T
 * exactly, so we report finalTargetAmount = T and add the dust to the service fee: the customer gets exactly
 * what was asked for at the lowest source that can pay for it, and the identity
 * final = base − service − partner still holds to the last decimal. The tests prove minimality, exactness and
 * the dust bound.
 */

export interface Pair {
  direction: Direction;
  sourceCurrency: Currency;
  targetCurrency: Currency;
  rail: Rail;
  fiat: Fiat;
  stablecoin: Stablecoin;
}

/**
 * Checks that a pair and rail can be quoted: fiat ↔ stablecoin only (fiat → stablecoin is an on-ramp,
 * stablecoin → fiat an off-ramp), and the rail carries the fiat side (PIX–BRL, SEPA–EUR, SWIFT/ACH/FEDWIRE–USD).
 * Unknown values are VALIDATION_FAILED (400); known values that do not go together are UNSUPPORTED_PAIR (422).
 */
export function validatePair(sourceCurrency: string, targetCurrency: string, rail: string): Pair {
  const unknown: FieldIssue[] = [];
  const allCurrencies = [...FIAT, ...STABLECOINS].join(', ');
  if (!isCurrency(sourceCurrency)) unknown.push({ path: 'sourceCurrency', message: `must be one of ${allCurrencies}`, code: 'NOT_ONE_OF' });
  if (!isCurrency(targetCurrency)) unknown.push({ path: 'targetCurrency', message: `must be one of ${allCurrencies}`, code: 'NOT_ONE_OF' });
  if (!isRail(rail)) unknown.push({ path: 'rail', message: `must be one of ${RAILS.join(', ')}`, code: 'NOT_ONE_OF' });
  if (unknown.length || !isCurrency(sourceCurrency) || !isCurrency(targetCurrency) || !isRail(rail)) throw invalid(unknown);

  let fiat: Fiat;
  let stablecoin: Stablecoin;
  let direction: Direction;
  if (isFiat(sourceCurrency) && isStablecoin(targetCurrency)) {
    [fiat, stablecoin, direction] = [sourceCurrency, targetCurrency, 'onRamp'];
  } else if (isStablecoin(sourceCurrency) && isFiat(targetCurrency)) {
    [fiat, stablecoin, direction] = [targetCurrency, sourceCurrency, 'offRamp'];
  } else {
    const kind = isFiat(sourceCurrency) ? 'fiat currencies' : 'stablecoins';
    throw unsupported(`${sourceCurrency} → ${targetCurrency} is not supported: both are ${kind}; one side must be fiat (${FIAT.join(', ')}) and the other a stablecoin (${STABLECOINS.join(', ')})`, 'targetCurrency');
  }
  if (railFiat(rail) !== fiat) {
    throw unsupported(`${rail} carries ${railFiat(rail)} only; ${fiat} moves over ${railsFor(fiat).join(', ')}`, 'rail');
  }
  return { direction, sourceCurrency, targetCurrency, rail, fiat, stablecoin };
}

/** The rail a quote uses when none is given: the usual rail of its fiat side (BRL PIX, EUR SEPA, USD SWIFT). */
export function defaultRail(sourceCurrency: string, targetCurrency: string): Rail | undefined {
  const fiat = isFiat(sourceCurrency) ? sourceCurrency : isFiat(targetCurrency) ? targetCurrency : undefined;
  return fiat ? railsFor(fiat)[0] : undefined;
}

const unsupported = (message: string, path: string): AppError => new AppError('UNSUPPORTED_PAIR', message, { errors: [{ path, message, code: 'NOT_ALLOWED' }] });

export interface Fee {
  /** Basis points. For the service fee: the schedule's rate plus any lock premium. */
  rate: string;
  flatAmount: string;
  totalAmount: string;
  currency: Currency;
}

export interface PricedQuote {
  direction: Direction;
  sourceCurrency: Currency;
  targetCurrency: Currency;
  rail: Rail;
  timeLock: TimeLock;
  sourceAmount: string;
  baseTargetAmount: string;
  baseExchangeRate: string;
  fees: { service: Fee; partner: Fee };
  finalTargetAmount: string;
  finalExchangeRate: string;
}

export interface PriceQuoteInput {
  sourceCurrency: string;
  targetCurrency: string;
  rail: string;
  /** Give exactly one of `sourceAmount` and `targetAmount` (decimal strings, as received). */
  sourceAmount?: unknown;
  targetAmount?: unknown;
  /** Lock window; omitted (floating quotes, or a lock without one) means `30s`, which is free. */
  timeLock?: string;
  /** The partner fee for this quote's direction (`partnerFee.fees.onRamp` or `.offRamp`); none means zero. */
  partnerFee?: FeeRule | null;
  /** Target per source, from `RateSource.quoteRate` (mid less spread). Used at 8 decimals, rounded down. */
  rate: string;
  schedule: FeeSchedule;
}

/** Prices a quote. Throws VALIDATION_FAILED / UNSUPPORTED_PAIR AppErrors naming the request field at fault. */
export function priceQuote(input: PriceQuoteInput): PricedQuote {
  const pair = validatePair(input.sourceCurrency, input.targetCurrency, input.rail);
  const { direction, sourceCurrency, targetCurrency, rail } = pair;

  const timeLock = input.timeLock ?? '30s';
  if (!(TIME_LOCKS as readonly string[]).includes(timeLock)) throw invalid([{ path: 'timeLock', message: `must be one of ${TIME_LOCKS.join(', ')}`, code: 'NOT_ONE_OF' }]);
  const lock = timeLock as TimeLock;

  const rate = roundRateDown(input.rate);
  if (!rate.gt(0)) throw new Error(`exchange rate must be positive at ${RATE_DECIMALS} decimals (got ${input.rate})`);

  const scheduled = input.schedule.service[direction][rail];
  const terms: Terms = {
    rate,
    sourceCurrency,
    targetCurrency,
    serviceRate: new Decimal(scheduled.rate).plus(lockPremiumBps(input.schedule, lock)),
    serviceFlat: onGrid(scheduled.flatAmount, targetCurrency, `service fee flat amount for ${direction} ${rail}`),
    partnerRate: new Decimal(input.partnerFee?.rate ?? '0'),
    partnerFlat: onGrid(input.partnerFee?.flatAmount ?? '0', targetCurrency, 'partner fee flat amount'),
  };
  if (terms.serviceRate.lt(0) || terms.partnerRate.lt(0) || terms.serviceFlat.lt(0) || terms.partnerFlat.lt(0)) {
    throw new Error('fee rates and flat amounts must not be negative');
  }

  const hasSource = input.sourceAmount !== undefined && input.sourceAmount !== null;
  const hasTarget = input.targetAmount !== undefined && input.targetAmount !== null;
  if (!hasSource && !hasTarget) throw invalid([{ path: 'sourceAmount', message: 'required (or give targetAmount instead)', code: 'REQUIRED' }]);
  // Both given: the source prices the quote and the target is the least final amount accepted (checked after pricing).
  const minimumTarget = hasSource && hasTarget ? amountOrThrow(input.targetAmount, targetCurrency, 'targetAmount') : undefined;

  let priced: Priced;
  if (hasSource) {
    const source = amountOrThrow(input.sourceAmount, sourceCurrency, 'sourceAmount');
    priced = forward(terms, source);
    if (!priced.final.gt(0)) {
      const minimum = solveSource(terms, unitOf(targetCurrency));
      const message = minimum
        ? `amount too small to cover fees: the smallest ${sourceCurrency} amount that delivers any ${targetCurrency} is ${formatAmount(minimum, sourceCurrency)}`
        : 'amount too small to cover fees';
      throw new AppError('VALIDATION_FAILED', `sourceAmount: ${message}`, {
        errors: [{ path: 'sourceAmount', message, code: 'BELOW_MINIMUM' }],
        ...(minimum ? { extra: { minimumSourceAmount: formatAmount(minimum, sourceCurrency) } } : {}),
      });
    }
    if (minimumTarget && priced.final.lt(minimumTarget)) {
      const guaranteed = formatAmount(priced.final, targetCurrency);
      const message = `${formatAmount(minimumTarget, targetCurrency)} ${targetCurrency} cannot be guaranteed for this sourceAmount; the amount that can be guaranteed is ${guaranteed}`;
      throw new AppError('TARGET_AMOUNT_NOT_GUARANTEED', `targetAmount: ${message}`, { errors: [{ path: 'targetAmount', message, code: 'ABOVE_MAXIMUM' }], extra: { guaranteedTargetAmount: guaranteed } });
    }
  } else {
    const target = amountOrThrow(input.targetAmount, targetCurrency, 'targetAmount');
    const source = solveSource(terms, target);
    if (!source) throw invalid([{ path: 'targetAmount', message: 'amount too small to cover fees: the fees take the whole amount at any size', code: 'BELOW_MINIMUM' }]);
    priced = forward(terms, source);
    // Deliver exactly the target: the rounding dust of a whole-unit source goes to the service fee (see the header).
    const dust = priced.final.minus(target);
    if (dust.lt(0)) throw new Error('solved source does not reach the target'); // cannot happen: solveSource is exact
    priced = { ...priced, serviceTotal: priced.serviceTotal.plus(dust), final: target };
  }

  return {
    direction,
    sourceCurrency,
    targetCurrency,
    rail,
    timeLock: lock,
    sourceAmount: formatAmount(priced.source, sourceCurrency),
    baseTargetAmount: formatAmount(priced.base, targetCurrency),
    baseExchangeRate: formatRate(rate),
    fees: {
      service: fee(terms.serviceRate, terms.serviceFlat, priced.serviceTotal, targetCurrency),
      partner: fee(terms.partnerRate, terms.partnerFlat, priced.partnerTotal, targetCurrency),
    },
    finalTargetAmount: formatAmount(priced.final, targetCurrency),
    finalExchangeRate: formatRate(divideDown(priced.final, priced.source, RATE_DECIMALS)),
  };
}

interface Terms {
  rate: Decimal;
  sourceCurrency: Currency;
  targetCurrency: Currency;
  serviceRate: Decimal;
  serviceFlat: Decimal;
  partnerRate: Decimal;
  partnerFlat: Decimal;
}

interface Priced {
  source: Decimal;
  base: Decimal;
  serviceTotal: Decimal;
  partnerTotal: Decimal;
  final: Decimal;
}

const BPS = new Decimal(10000);

/**
 * The forward computation: source → base → fees → final (may be ≤ 0; the caller decides). Dividing by 10000
 * is exact in decimal, so the fee formulas are exact until `roundUp` rounds them, once.
 */
function forward(t: Terms, source: Decimal): Priced {
  const base = roundDown(source.times(t.rate), t.targetCurrency);
  const serviceFormula = base.times(t.serviceRate).dividedBy(BPS).plus(t.serviceFlat);
  const partnerFormula = base.times(t.partnerRate).dividedBy(BPS).plus(t.partnerFlat);
  const totalFees = roundUp(serviceFormula.plus(partnerFormula), t.targetCurrency);
  const partnerTotal = roundUp(partnerFormula, t.targetCurrency);
  const serviceTotal = totalFees.minus(partnerTotal);
  return { source, base, serviceTotal, partnerTotal, final: base.minus(totalFees) };
}

/**
 * The smallest source (on the source currency's grid) whose forward final amount is at least `target`, or
 * null if the fees' rates add up to 100 % or more (then no source is enough). Exact: see the header. The rule
 * is src/rules/pricing.ts, shared with the quote panel's "you pay" estimate.
 */
function solveSource(t: Terms, target: Decimal): Decimal | null {
  const solved = solve(
    {
      rate: t.rate.toFixed(),
      serviceRate: t.serviceRate.toFixed(),
      partnerRate: t.partnerRate.toFixed(),
      serviceFlat: t.serviceFlat.toFixed(),
      partnerFlat: t.partnerFlat.toFixed(),
      sourceDecimals: decimalsOf(t.sourceCurrency),
      targetDecimals: decimalsOf(t.targetCurrency),
    },
    target.toFixed(),
  );
  return solved === undefined ? null : new Decimal(solved);
}

function fee(rate: Decimal, flat: Decimal, total: Decimal, currency: Currency): Fee {
  return { rate: rate.toString(), flatAmount: formatAmount(flat, currency), totalAmount: formatAmount(total, currency), currency };
}

function amountOrThrow(value: unknown, currency: Currency, path: string): Decimal {
  const parsed = parseAmount(value, currency);
  if (!parsed.ok) throw invalid([{ path, message: parsed.message, code: amountErrorCode[parsed.error] }]);
  return parsed.value;
}

/** Configured fee amounts must already sit on the target's grid (the schedule and partner-fee parsers ensure it). */
function onGrid(value: string, currency: Currency, what: string): Decimal {
  const d = new Decimal(value);
  if (!roundDown(d, currency).eq(d)) throw new Error(`${what} ${value} has more decimals than ${currency} allows`);
  return d;
}

/** Quotes priced per fee schedule, by everything else `priceQuote` reads (the rate among it): at most `PRICED_KEPT` each. */
const pricedBySchedule = new WeakMap<FeeSchedule, Map<string, PricedQuote>>();
const PRICED_KEPT = 512;

/**
 * `priceQuote`, remembered: the same request at the same rate gets the same (frozen) answer without the decimal work.
 * The rate is part of the key, so a new tick of the market prices afresh; a request that fails is priced (and fails)
 * every time. Many customers ask for the same few amounts (a widget's default, round figures), within one tick.
 */
export function priceQuoteRemembered(input: PriceQuoteInput): PricedQuote {
  const { sourceAmount, targetAmount } = input;
  const plain = (v: unknown) => v === undefined || v === null || typeof v === 'string';
  if (!plain(sourceAmount) || !plain(targetAmount)) return priceQuote(input);
  let kept = pricedBySchedule.get(input.schedule);
  if (!kept) pricedBySchedule.set(input.schedule, (kept = new Map()));
  const key = [input.sourceCurrency, input.targetCurrency, input.rail, sourceAmount ?? '', targetAmount ?? '', input.timeLock ?? '', input.partnerFee?.rate ?? '', input.partnerFee?.flatAmount ?? '', input.rate].join('\u0000');
  const hit = kept.get(key);
  if (hit) return hit;
  const priced = priceQuote(input);
  Object.freeze(priced.fees.service);
  Object.freeze(priced.fees.partner);
  Object.freeze(priced.fees);
  Object.freeze(priced);
  if (kept.size >= PRICED_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, priced);
  return priced;
}

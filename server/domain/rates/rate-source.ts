// The RateSource port — where mid-market rates come from — and the spread that turns a mid into the rate a quote converts at.
import { type Currency, Decimal, formatRate, parseDecimal } from '../money';

/**
 * A source of exchange rates. Implementations live one per file beside this one (the embedded
 * `simulated-market.ts` today; a liquidity provider's RFQ API later). Rates are decimal strings, priced as
 * "one `base` buys this many `quote`" — for a quote, base is the source currency and quote the target.
 * `at` is passed in rather than read from a clock so that a quote is reproducible and sandbox time travel works.
 */
export interface RateSource {
  readonly name: string;
  /** Mid-market price of one `base` in `quote` at `at`. */
  midRate(base: Currency, quote: Currency, at: Date): Promise<string>;
  /**
   * The rate a quote converts at (what `priceQuote` takes as `rate` and reports as `baseExchangeRate`):
   * the mid less the source's spread, 8 decimals, rounded down.
   */
  quoteRate(base: Currency, quote: Currency, at: Date): Promise<string>;
}

/** Spreads are basis points with up to 2 decimals, below 100 %. */
export function parseSpreadBps(input: unknown): string {
  const parsed = parseDecimal(input, { decimals: 2, allowZero: true, noun: 'basis points' });
  if (!parsed.ok) throw new Error(`spread: ${parsed.message}`);
  if (parsed.value.gte(10000)) throw new Error('spread: must be below 10000 basis points');
  return parsed.value.toString();
}

/**
 * The customer's side of the market: `mid × (1 − spreadBps/10000)`, rounded down to 8 decimals. The same
 * formula serves both directions because a rate is always "target per source": the spread always means
 * fewer target units per source unit, whichever way the money goes.
 */
export function applySpread(mid: string, spreadBps: string): string {
  const m = new Decimal(mid);
  if (!m.gt(0)) throw new Error(`mid rate must be positive (got ${mid})`);
  const bps = new Decimal(parseSpreadBps(spreadBps));
  return formatRate(m.times(new Decimal(1).minus(bps.dividedBy(10000))));
}

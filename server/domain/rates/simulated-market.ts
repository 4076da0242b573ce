// The embedded RateSource: a simulated market with realistic mid rates that drift a little, deterministically, with the clock.
import { type Currency, Decimal, type DecimalValue, unreachable } from '../money';
import { applySpread, parseSpreadBps, type RateSource } from './rate-source';

/** One sine wave of drift: a fraction of the anchor price, a period, a phase in radians. */
interface Wave {
  amplitude: string;
  periodMs: number;
  phase: string;
}

interface Profile {
  /** Units of the currency one US dollar buys, before drift. */
  perUsd: string;
  waves: Wave[];
}

const MINUTE = 60_000;

// A fiat currency's three waves: the same amplitudes and periods for each, in phases of its own.
const fiat = (perUsd: string, [fast, middle, slow]: [string, string, string]): Profile => ({
  perUsd,
  waves: [
    { amplitude: '0.0015', periodMs: 7 * MINUTE, phase: fast },
    { amplitude: '0.001', periodMs: 53 * MINUTE, phase: middle },
    { amplitude: '0.0005', periodMs: 371 * MINUTE, phase: slow },
  ],
});

/**
 * Prices per USD, and how each moves. Fiat drifts by at most ±0.3 % (the amplitudes sum to 0.003) through
 * three incommensurate waves (7 min, 53 min, 6 h 11 min), so a floating quote visibly moves between two
 * requests a few seconds apart but never wanders off. USD is the numeraire; USDC sits at par; USDT a hair
 * under par, wobbling by at most ±0.01 %, as the real one does. The switch is exhaustive: a new currency
 * does not typecheck until it has a price.
 */
export function profileOf(currency: Currency): Profile {
  switch (currency) {
    case 'USD':
    case 'USDC':
      return { perUsd: '1', waves: [] };
    case 'USDT':
      return {
        perUsd: '0.9998',
        waves: [
          { amplitude: '0.00006', periodMs: 11 * MINUTE, phase: '0.4' },
          { amplitude: '0.00004', periodMs: 97 * MINUTE, phase: '3.3' },
        ],
      };
    case 'BRL':
      return fiat('5.3', ['0', '1.3', '2.9']);
    case 'EUR':
      return fiat('0.92', ['0.7', '2.1', '4.4']);
    default:
      return unreachable(currency);
  }
}

/** Largest fraction by which `currency`'s price per USD can stray from its anchor. */
export const maxDrift = (currency: Currency): Decimal =>
  profileOf(currency).waves.reduce((sum, w) => sum.plus(w.amplitude), new Decimal(0));

// Trigonometry runs in decimal.js too (not Math.sin), so a given instant yields the same digits on every
// platform and Node version; 30 digits is plenty for a price we then round to 10 decimals.
const Trig = Decimal.clone({ precision: 30, rounding: Decimal.ROUND_HALF_EVEN });
const TWO_PI = Trig.acos(-1).times(2);

/** Mid rates carry 10 decimals: two more than a quote rate, so the spread and its rounding act on a precise mid. */
export const MID_DECIMALS = 10;

/** The market moves once a second: every instant within a second has that second's rates. */
export const TICK_MS = 1000;

export const DEFAULT_SPREAD_BPS = '20';

export interface SimulatedMarketOptions {
  /** Basis points taken off the mid to give the quote rate (default 20, i.e. 0.2 %). */
  spreadBps?: string;
}

export class SimulatedMarket implements RateSource {
  readonly name = 'simulated-market';
  readonly spreadBps: string;

  constructor(opts: SimulatedMarketOptions = {}) {
    this.spreadBps = parseSpreadBps(opts.spreadBps ?? DEFAULT_SPREAD_BPS);
  }

  /** Units of `currency` one USD buys at `at` (30 significant digits). */
  perUsd(currency: Currency, at: Date): Decimal {
    const t = millis(at);
    const { perUsd, waves } = profileOf(currency);
    let drift = new Trig(0);
    for (const w of waves) {
      // Reduce the clock modulo the period first (exact on integers), so the angle stays small and precise.
      const into = ((t % w.periodMs) + w.periodMs) % w.periodMs;
      const angle = TWO_PI.times(into).dividedBy(w.periodMs).plus(w.phase);
      drift = drift.plus(Trig.sin(angle).times(w.amplitude));
    }
    return new Trig(perUsd).times(drift.plus(1));
  }

  /**
   * The synchronous core of `midRate`, for callers that already hold the time. The market ticks once a second: the mid
   * of an instant is the one of its whole second, computed once per pair per tick and remembered (the 30-digit sines
   * are dear).
   */
  midRateAt(base: Currency, quote: Currency, at: Date): string {
    return this.atTick(base, quote, at).mid;
  }

  quoteRateAt(base: Currency, quote: Currency, at: Date): string {
    const t = this.atTick(base, quote, at);
    return (t.quote ??= applySpread(t.mid, this.spreadBps));
  }

  private readonly ticks = new Map<string, { tick: number; mid: string; quote?: string }>();

  private atTick(base: Currency, quote: Currency, at: Date): { mid: string; quote?: string } {
    const ms = millis(at);
    const tick = ms - (((ms % TICK_MS) + TICK_MS) % TICK_MS); // start of the tick (integer time, no float money)
    const pair = `${base}/${quote}`;
    const hit = this.ticks.get(pair);
    if (hit && hit.tick === tick) return hit;
    const tickAt = new Date(tick);
    const mid = base === quote ? new Decimal(1).toFixed(MID_DECIMALS) : toMid(this.perUsd(quote, tickAt).dividedBy(this.perUsd(base, tickAt)));
    const entry = { tick, mid };
    this.ticks.set(pair, entry);
    return entry;
  }

  async midRate(base: Currency, quote: Currency, at: Date): Promise<string> {
    return this.midRateAt(base, quote, at);
  }

  async quoteRate(base: Currency, quote: Currency, at: Date): Promise<string> {
    return this.quoteRateAt(base, quote, at);
  }
}

const toMid = (v: DecimalValue): string => new Trig(v).toDecimalPlaces(MID_DECIMALS, Trig.ROUND_HALF_EVEN).toFixed(MID_DECIMALS);

function millis(at: Date): number {
  const t = at.getTime();
  if (!Number.isFinite(t)) throw new Error('rate requested for an invalid date');
  return t;
}

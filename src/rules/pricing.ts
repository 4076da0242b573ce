// The pricing rule the server and the browser share: the smallest source that delivers a target. Exact (BigInt), no zod, no decimal.js.
import { add, divide, sign, subtract, toFixed } from './decimal';

/** A quote's terms, as decimal strings: the base rate, both fees (basis points and flat amounts in the target), the currencies' decimals. */
export interface SolveTerms {
  /** Target per source (the base exchange rate). */
  rate: string;
  serviceRate: string;
  partnerRate: string;
  serviceFlat: string;
  partnerFlat: string;
  sourceDecimals: number;
  targetDecimals: number;
}

/**
 * The smallest source (on the source currency's grid) whose quote delivers at least `target`, or undefined when the
 * fees' rates add up to 100 % or more (no source is enough). With q = total rate / 10000 and F the flats:
 *   the smallest base b with b − ceil(b·q + F) ≥ T is b* = ceil((T + F) / (1 − q))   (to the target's decimals)
 *   the smallest source s with floor(s × rate) ≥ b* is s* = ceil(b* / rate)           (to the source's decimals)
 * server/domain/pricing.ts solves locked targets with it; the quote panel estimates "you pay" with it.
 */
export function solveSource(t: SolveTerms, target: string): string | undefined {
  const keep = subtract('1', divide(add(t.serviceRate, t.partnerRate), '10000'));
  if (sign(keep) <= 0 || sign(t.rate) <= 0) return undefined;
  const base = toFixed(divide(add(target, add(t.serviceFlat, t.partnerFlat)), keep), t.targetDecimals, 'up');
  return toFixed(divide(base, t.rate), t.sourceDecimals, 'up');
}

// Token amounts between the service's decimal strings and a contract's integer base units (1.5 USDC ⇄ 1500000n), exactly.
import { Decimal, type DecimalValue } from '../money';

/** An ERC-20 balance is a uint256. */
export const MAX_UINT256 = (1n << 256n) - 1n;

/** A conversion that would not be exact or does not fit a token amount. */
export class BaseUnitsError extends Error {
  override name = 'BaseUnitsError';
}

// Plain non-negative decimals only: an exponent or a sign in a token amount is a bug upstream, not a notation to accept.
const PLAIN_DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

function checkDecimals(decimals: number): void {
  // ERC-20's decimals() is a uint8.
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) throw new BaseUnitsError(`decimals must be an integer from 0 to 255, not ${decimals}`);
}

/**
 * `amount` in base units of a token with `decimals`: "1.5" with 6 → 1500000n. Refuses an amount with more significant
 * fractional digits than the token has (it would have to be rounded, and which way is the caller's decision), a
 * negative one, and one above uint256. Trailing zeros are fine: "1.50" with 1 decimal is 15n.
 */
export function toBaseUnits(amount: DecimalValue, decimals: number): bigint {
  checkDecimals(decimals);
  // A Decimal is written out in full (toFixed without places never rounds), so both inputs go through one exact path.
  let text: string;
  if (typeof amount === 'string') text = amount;
  else if (Decimal.isDecimal(amount)) text = amount.isZero() ? '0' : amount.toFixed();
  else throw new BaseUnitsError('amount must be a decimal string or a Decimal');
  if (text.startsWith('-')) throw new BaseUnitsError(`a token amount cannot be negative (${text})`);
  const m = PLAIN_DECIMAL.exec(text);
  if (!m) throw new BaseUnitsError(`not a plain decimal amount: ${JSON.stringify(text.slice(0, 80))}`);
  const integer = m[1] ?? '0';
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) {
    throw new BaseUnitsError(`${text} has ${fraction.length} decimal places; the token has ${decimals}`);
  }
  const units = BigInt(integer + fraction.padEnd(decimals, '0'));
  if (units > MAX_UINT256) throw new BaseUnitsError(`${text} is above the largest token amount (uint256)`);
  return units;
}

/** Base units as a decimal string with exactly `decimals` places: 1500000n with 6 → "1.500000". */
export function fromBaseUnits(units: bigint, decimals: number): string {
  checkDecimals(decimals);
  if (typeof units !== 'bigint') throw new BaseUnitsError('base units must be a bigint');
  if (units < 0n || units > MAX_UINT256) throw new BaseUnitsError(`base units must be a uint256, not ${units}`);
  if (decimals === 0) return units.toString();
  const digits = units.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** The same as a Decimal, for arithmetic with the rest of the money code. */
export const baseUnitsToDecimal = (units: bigint, decimals: number): Decimal => new Decimal(fromBaseUnits(units, decimals));

// Exact arithmetic on decimal strings (BigInt fractions), for rules the server and the browser share (src/rules/pricing.ts): never JS numbers on money, no dependency.

/** A non-reduced fraction `n / d` with `d > 0`: every decimal string is exactly one of these. */
export interface Ratio {
  readonly n: bigint;
  readonly d: bigint;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** `"-12.345"` → `-12345 / 1000`. Throws on anything that is not a plain decimal string (the API only sends those). */
export function ratio(decimal: string): Ratio {
  const m = DECIMAL.exec(decimal.trim());
  if (!m) throw new RangeError(`not a decimal string: ${JSON.stringify(decimal)}`);
  const [, minus, integer = '0', fraction = ''] = m;
  const n = BigInt(integer + fraction);
  return { n: minus ? -n : n, d: 10n ** BigInt(fraction.length) };
}

const of = (value: Ratio | string): Ratio => (typeof value === 'string' ? ratio(value) : value);

export const add = (a: Ratio | string, b: Ratio | string): Ratio => {
  const [x, y] = [of(a), of(b)];
  return { n: x.n * y.d + y.n * x.d, d: x.d * y.d };
};

export const subtract = (a: Ratio | string, b: Ratio | string): Ratio => {
  const y = of(b);
  return add(a, { n: -y.n, d: y.d });
};

export const multiply = (a: Ratio | string, b: Ratio | string): Ratio => {
  const [x, y] = [of(a), of(b)];
  return { n: x.n * y.n, d: x.d * y.d };
};

export function divide(a: Ratio | string, b: Ratio | string): Ratio {
  const [x, y] = [of(a), of(b)];
  if (y.n === 0n) throw new RangeError('division by zero');
  const sign = y.n < 0n ? -1n : 1n;
  return { n: x.n * y.d * sign, d: x.d * y.n * sign };
}

export const sign = (value: Ratio | string): -1 | 0 | 1 => {
  const { n } = of(value);
  return n === 0n ? 0 : n > 0n ? 1 : -1;
};

/** Floor division that rounds toward −∞ for negative numerators too (BigInt `/` truncates toward zero). */
function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n < 0n ? q - 1n : q;
}

/**
 * The value as a decimal string with exactly `places` decimals, rounded `up` (toward +∞) or `down` (toward −∞):
 * what a customer pays rounds up, what a customer gets rounds down, as the server rounds.
 */
export function toFixed(value: Ratio | string, places: number, mode: 'up' | 'down' = 'down'): string {
  const { n, d } = of(value);
  const scale = 10n ** BigInt(places);
  const scaled = n * scale;
  let q = floorDiv(scaled, d);
  if (mode === 'up' && q * d !== scaled) q += 1n;
  const negative = q < 0n;
  const digits = (negative ? -q : q).toString().padStart(places + 1, '0');
  const integer = digits.slice(0, digits.length - places);
  const fraction = places > 0 ? `.${digits.slice(-places)}` : '';
  return `${negative ? '-' : ''}${integer}${fraction}`;
}

/** `"0.500"` → `"0.5"`, `"2.000"` → `"2"`: the shortest exact form, for values that are known to be finite decimals. */
export function trimZeros(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
}

// Production refuses secrets a person typed instead of a machine drew: one character repeated, a pattern, words. The
// checks look at shape only (never a dictionary): a value from `openssl rand -hex 32` or any CSPRNG passes all of them.

/** Bits a random string of this length and these character classes carries at most. */
function classBits(value: string): number {
  let alphabet = 0;
  if (/[a-z]/.test(value)) alphabet += 26;
  if (/[A-Z]/.test(value)) alphabet += 26;
  if (/[0-9]/.test(value)) alphabet += 10;
  if (/[^a-zA-Z0-9]/.test(value)) alphabet += 33;
  return value.length * Math.log2(Math.max(alphabet, 1));
}

/**
 * The most times one of `k` characters may come up in `n` even draws: the count that any of them reaches with a
 * probability under 10^-9 (a binomial tail, summed from the top).
 */
function evenDrawCeiling(n: number, k: number): number {
  const p = 1 / k;
  const logChoose = (i: number) => lgammaInt(n + 1) - lgammaInt(i + 1) - lgammaInt(n - i + 1);
  let tail = 0;
  for (let t = n; t >= 1; t--) {
    tail += Math.exp(logChoose(t) + t * Math.log(p) + (n - t) * Math.log1p(-p));
    if (k * tail >= 1e-9) return t;
  }
  return n;
}

/** log((m-1)!) for whole m ≥ 1. */
function lgammaInt(m: number): number {
  let sum = 0;
  for (let i = 2; i < m; i++) sum += Math.log(i);
  return sum;
}

/** Why `value` does not look randomly drawn, or undefined when it does. */
export function weakness(value: string, minBits = 96): string | undefined {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const top = Math.max(...counts.values());
  if (counts.size <= 2) return 'it is one or two characters repeated';
  // A CSPRNG's output draws its characters evenly: a count that even draws reach less than once in 10^9 is a person's.
  if (top > evenDrawCeiling(value.length, counts.size)) return 'one character comes up far more often than chance';
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= value.length; i++) grams.add(value.slice(i, i + 3));
  if (value.length >= 12 && grams.size < (value.length - 2) * 0.75) return 'it repeats a pattern';
  if (/\s/.test(value) || /^[a-z]+$/.test(value)) return 'it reads as words, not random characters';
  if (classBits(value) < minBits) return `it carries less than ${minBits} bits`;
  return undefined;
}

/** Why a hex seed does not look randomly drawn (all zero, few distinct bytes, a pattern), or undefined. */
export function seedWeakness(hex: string): string | undefined {
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.every((b) => b === 0)) return 'it is all zero';
  if (new Set(bytes).size < bytes.length / 2) return 'it has too few distinct bytes';
  return weakness(hex.toLowerCase(), 128);
}

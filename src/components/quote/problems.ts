// Server problems about amounts, read into errors the amount inputs can show in the user's language; anything else stays form-level.
import type { FieldProblem } from '../../client/problem';
import type { AmountError } from './amount';

/** What an amount input says is wrong: a rule we know (translated), "too small for the fees" (with the minimum), or the server's text. */
export type AmountFieldError =
  | { kind: 'rule'; error: AmountError }
  | { kind: 'tooSmall'; minimumSourceAmount?: string | undefined }
  | { kind: 'text'; message: string };

export type AmountPath = 'sourceAmount' | 'targetAmount';

/**
 * The server words its amount rules in server/domain/money.ts and pricing.ts; recognising them lets the UI say them in
 * the user's language. Matched loosely (a substring) so a reworded prefix does not lose the translation.
 */
const knownRules: readonly (readonly [RegExp, AmountError])[] = [
  [/at most \d+ decimal place|are whole numbers/i, 'tooManyDecimals'],
  [/greater than zero/i, 'zero'],
  [/must be below 10\^/i, 'tooLarge'],
  [/plain decimal|decimal string/i, 'invalid'],
];

export function amountErrorFromMessage(message: string, minimumSourceAmount: string | undefined): AmountFieldError {
  if (/too small to cover (the )?fees/i.test(message)) return { kind: 'tooSmall', minimumSourceAmount };
  const rule = knownRules.find(([pattern]) => pattern.test(message))?.[1];
  return rule ? { kind: 'rule', error: rule } : { kind: 'text', message };
}

/** `sourceAmount`, `/sourceAmount`, `body.targetAmount` → the amount it names. */
export function amountPathOf(path: string): AmountPath | undefined {
  return path
    .split(/[./[\]]+/)
    .filter(Boolean)
    .find((segment): segment is AmountPath => segment === 'sourceAmount' || segment === 'targetAmount');
}

/**
 * Splits a problem's `errors[]` into what lands on the amounts (first per path wins) and what does not.
 * `minimumSourceAmount` is the extension member the server adds to "too small to cover fees".
 */
export function placeAmountProblems(
  errors: readonly FieldProblem[],
  problem: Readonly<Record<string, unknown>>,
): { amounts: Partial<Record<AmountPath, AmountFieldError>>; unplaced: FieldProblem[] } {
  const minimum = typeof problem.minimumSourceAmount === 'string' ? problem.minimumSourceAmount : undefined;
  const amounts: Partial<Record<AmountPath, AmountFieldError>> = {};
  const unplaced: FieldProblem[] = [];
  for (const e of errors) {
    const path = amountPathOf(e.path);
    if (!path) unplaced.push(e);
    else amounts[path] ??= amountErrorFromMessage(e.message, minimum);
  }
  return { amounts, unplaced };
}

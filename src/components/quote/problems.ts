// Server problems about amounts, read by their stable `errors[].code` into errors the amount inputs show in the user's language; anything else stays form-level.
import type { FieldProblem } from '../../client/problem';
import type { FieldErrorCode } from '../../contract/field-codes';
import type { AmountError } from './amount';

/** What an amount input says is wrong: a rule we know (translated), "too small for the fees" (with the minimum), or the server's text. */
export type AmountFieldError =
  | { kind: 'rule'; error: AmountError }
  | { kind: 'tooSmall'; minimumSourceAmount?: string | undefined }
  | { kind: 'text'; message: string };

export type AmountPath = 'sourceAmount' | 'targetAmount';

/** The server's amount codes (src/contract/field-codes.ts) that the panel has its own words for. */
const ruleByCode: Partial<Record<FieldErrorCode, AmountError>> = {
  TOO_MANY_DECIMALS: 'tooManyDecimals',
  NOT_POSITIVE: 'zero',
  ABOVE_MAXIMUM: 'tooLarge',
  NOT_A_DECIMAL: 'invalid',
};

/** A code the panel knows becomes its own sentence; an unknown or missing code keeps the server's text, shown as it came. */
export function amountErrorFromProblem(problem: FieldProblem, minimumSourceAmount: string | undefined): AmountFieldError {
  if (problem.code === 'BELOW_MINIMUM') return { kind: 'tooSmall', minimumSourceAmount };
  const rule = problem.code ? ruleByCode[problem.code as FieldErrorCode] : undefined;
  return rule ? { kind: 'rule', error: rule } : { kind: 'text', message: problem.message };
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
 * `minimumSourceAmount` is the extension member the server adds to a `BELOW_MINIMUM` amount.
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
    else amounts[path] ??= amountErrorFromProblem(e, minimum);
  }
  return { amounts, unplaced };
}

// What a failed quote request means to <ramp-quote>: amount problems, read by their stable `errors[].code`, land on the amount input in the user's language; anything else is a form-level alert.
import { fieldProblemKey, type FieldProblemKey } from '../../i18n/problem-words';
import { NetworkError, ProblemError, type FieldProblem } from '../../client/problem';
import type { RampErrorDetail } from '../../events/error';
import type { FieldErrorCode } from '../../contract/field-codes';
import type { AmountError } from './amount';

/** What an amount input says is wrong: a rule we know (translated), "too small for the fees" (with the minimum), or the sentence of the server's code. */
export type AmountFieldError =
  | { kind: 'rule'; error: AmountError }
  | { kind: 'tooSmall'; minimumSourceAmount?: string | undefined }
  | { kind: 'code'; key: FieldProblemKey };

export type AmountPath = 'sourceAmount' | 'targetAmount';

/** The server's amount codes (src/contract/field-codes.ts) that the panel has its own words for. */
const ruleByCode: Partial<Record<FieldErrorCode, AmountError>> = {
  TOO_MANY_DECIMALS: 'tooManyDecimals',
  NOT_POSITIVE: 'zero',
  ABOVE_MAXIMUM: 'tooLarge',
  NOT_A_DECIMAL: 'invalid',
};

/** A code the panel knows becomes its own sentence; any other code its plain sentence (never the server's English). */
export function amountErrorFromProblem(problem: FieldProblem, minimumSourceAmount: string | undefined): AmountFieldError {
  if (problem.code === 'BELOW_MINIMUM') return { kind: 'tooSmall', minimumSourceAmount };
  const rule = problem.code ? ruleByCode[problem.code as FieldErrorCode] : undefined;
  return rule ? { kind: 'rule', error: rule } : { kind: 'code', key: fieldProblemKey(problem.code) };
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

/** Form-level failures: the ones editing the amount cannot fix. */
export type QuoteAlert =
  | { kind: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'NETWORK' }
  | { kind: 'UNSUPPORTED_PAIR' }
  | { kind: 'VALIDATION_FAILED' }
  | { kind: 'OTHER'; code: string };

/** Where a failed quote request lands: on the amount the user typed, or in an alert (with the `ramp-error` detail when the partner should hear of it). */
export type QuoteFailure = { amount: AmountFieldError } | { alert: QuoteAlert; report?: Omit<RampErrorDetail, 'operation'> };

export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

/** What a failed floating or locked quote means to the panel; `undefined` for an abort (a newer request or a lock replaced it). */
export function quoteFailureOf(error: unknown): QuoteFailure | undefined {
  if (isAbort(error)) return undefined;
  if (error instanceof ProblemError) {
    const report = { code: error.code, status: error.status, detail: error.detail, ...(error.requestId ? { requestId: error.requestId } : {}) };
    if (error.status === 400) {
      const { amounts, unplaced } = placeAmountProblems(error.errors, error.problem);
      // Whatever the path, the user typed one amount: the error belongs on it (a floating quote in target mode asks
      // with a solved source, whose problems are still about what was typed).
      const onAmount = amounts.sourceAmount ?? amounts.targetAmount;
      if (onAmount && unplaced.length === 0) return { amount: onAmount };
      return { alert: { kind: 'VALIDATION_FAILED' }, report };
    }
    // Another choice fixes it: not a failure to report.
    if (error.code === 'UNSUPPORTED_PAIR') return { alert: { kind: 'UNSUPPORTED_PAIR' } };
    if (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND') return { alert: { kind: error.code }, report };
    return { alert: { kind: 'OTHER', code: error.code }, report };
  }
  if (error instanceof NetworkError) return { alert: { kind: 'NETWORK' }, report: { code: 'NETWORK_ERROR', status: null, detail: error.message } };
  return { alert: { kind: 'OTHER', code: 'CLIENT_ERROR' }, report: { code: 'CLIENT_ERROR', status: null, detail: error instanceof Error ? error.message : String(error) } };
}

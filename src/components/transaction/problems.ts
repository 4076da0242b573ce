// What a failed transaction request means to the user: a new quote is needed, a limit or balance stops it, the customer is not approved, or a field is wrong.
import { NetworkError, ProblemError, type FieldProblem } from '../../client/problem';
import { fieldProblemKey, type FieldProblemKey } from '../../i18n/problem-words';
import type { RampErrorDetail } from '../../events/error';

/** Form-level outcomes, each with its own message and way out. */
export type TransactionAlert =
  /** The locked quote cannot pay any more: only a new quote helps. */
  | { kind: 'requote'; code: 'RATE_EXPIRED' | 'RATE_ALREADY_USED' }
  /** A USD-equivalent limit: which one, its maximum and what remains of it (extension members of the problem). */
  | { kind: 'limit'; limit: string | undefined; max: string | undefined; remaining: string | undefined }
  | { kind: 'balance'; asset: string | undefined; blockchain: string | undefined }
  /** 409 INVALID_STATE: the customer cannot transact yet (verification not APPROVED) or no more (rejected). */
  | { kind: 'notApproved' }
  | { kind: 'session' }
  | { kind: 'forbidden' }
  | { kind: 'notFound' }
  | { kind: 'network' }
  | { kind: 'validation' }
  | { kind: 'other'; code: string };

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** The alert for a failure; `undefined` for an abort (the element went away, nobody is waiting for an answer). */
export function alertFor(error: unknown): TransactionAlert | undefined {
  if (error instanceof DOMException && error.name === 'AbortError') return undefined;
  if (error instanceof NetworkError) return { kind: 'network' };
  if (!(error instanceof ProblemError)) return { kind: 'other', code: 'CLIENT_ERROR' };
  switch (error.code) {
    case 'RATE_EXPIRED':
    case 'RATE_ALREADY_USED':
      return { kind: 'requote', code: error.code };
    case 'TRANSACTION_LIMIT_EXCEEDED':
      return { kind: 'limit', limit: text(error.problem.limit), max: text(error.problem.max), remaining: text(error.problem.remaining) };
    case 'INSUFFICIENT_BALANCE':
      return { kind: 'balance', asset: text(error.problem.asset), blockchain: text(error.problem.blockchain) };
    case 'INVALID_STATE':
      return { kind: 'notApproved' };
    case 'UNAUTHENTICATED':
      return { kind: 'session' };
    case 'FORBIDDEN':
      return { kind: 'forbidden' };
    case 'NOT_FOUND':
      return { kind: 'notFound' };
  }
  if (error.status === 400 || error.status === 422) return { kind: 'validation' };
  return { kind: 'other', code: error.code };
}

/** Whether trying the same request again can help (as opposed to changing something first). */
export const isRetryable = (alert: TransactionAlert): boolean => alert.kind === 'network' || alert.kind === 'other' || alert.kind === 'session';

/** A failure the partner hears of (`ramp-error`): one the user cannot fix by editing the form. */
export const isReported = (alert: TransactionAlert): boolean =>
  alert.kind === 'network' || alert.kind === 'session' || alert.kind === 'forbidden' || alert.kind === 'notFound' || alert.kind === 'other';

/**
 * Splits a problem's `errors[]` into those a form shows on a field (first per field wins: the message key of its code,
 * never the server's English) and the rest.
 * `fieldOf` maps a server path (`purpose`, `identifier.iban`, `/holder/taxId`, `holder.address.city`) to a field name.
 */
export function placeFieldProblems<F extends string>(
  errors: readonly FieldProblem[],
  fieldOf: (segments: readonly string[]) => F | undefined,
): { fields: Partial<Record<F, FieldProblemKey>>; unplaced: FieldProblem[] } {
  const fields: Partial<Record<F, FieldProblemKey>> = {};
  const unplaced: FieldProblem[] = [];
  for (const e of errors) {
    const field = fieldOf(pathSegments(e.path));
    if (field === undefined) unplaced.push(e);
    else fields[field] ??= fieldProblemKey(e.code);
  }
  return { fields, unplaced };
}

/** `holder.address.city`, `/holder/address/city`, `body.holder.taxId`, `identifier[iban]` → its segments, without a leading `body`. */
export function pathSegments(path: string): string[] {
  const segments = path.split(/[./[\]]+/).filter(Boolean);
  return segments[0] === 'body' ? segments.slice(1) : segments;
}

export { errorDetailFor } from '../../client/problem';

// The components' own words for what the server refused: a field problem by its stable `errors[].code`, never by the
// English `message` or `detail` the server wrote (those are for logs and for `ramp-error`, not for the user's screen).
import { isFieldErrorCode, type FieldErrorCode } from '../contract/field-codes';

/** The message key of a field problem: its code's sentence, or a plain "not accepted" when the code is unknown or absent. */
export type FieldProblemKey = `problem.field.${FieldErrorCode}` | 'problem.field.other';

export function fieldProblemKey(code: string | undefined): FieldProblemKey {
  return isFieldErrorCode(code) ? `problem.field.${code}` : 'problem.field.other';
}

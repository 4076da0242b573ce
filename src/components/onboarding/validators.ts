// Client checks are the server's own rules (src/contract/customer-rules.ts); this maps them and the server's problems onto the form's fields.
import { type FieldErrorCode, isFieldErrorCode } from '../../contract/field-codes';
import { fieldProblemKey, type FieldProblemKey } from '../../i18n/problem-words';
import { checkNewCustomer, fieldErrorMessages, type FieldError } from '../../contract/customer-rules';
import type { FieldProblem } from '../../client/problem';
import { fieldsFor, taxIdModel, type CustomerType, type FieldName, type FormValues } from './model';

export type { FieldError };

/** Every rule on a new customer, for the fields this customer type shows: field → error key. */
export function validateCustomer(values: FormValues, now: Date): Partial<Record<FieldName, FieldError>> {
  const found = checkNewCustomer(
    {
      type: values.type,
      ...(values.type === 'INDIVIDUAL' ? { name: values.name } : { legalName: values.legalName }),
      country: values.country,
      taxId: taxIdModel(values.taxId),
      ...(values.type === 'INDIVIDUAL' ? { birthDate: values.birthDate } : { incorporationDate: values.incorporationDate }),
      email: values.email.trim(),
    },
    now,
  );
  // The API reads an individual without a country as Brazilian; the form asks, so that a foreigner is never taken for one.
  if (!values.country) found.country = 'required';
  const out: Partial<Record<FieldName, FieldError>> = {};
  for (const field of fieldsFor(values.type)) {
    const error = found[field];
    if (error) out[field] = error;
  }
  return out;
}

/** What the server said about one field: a rule we know (translated), a duplicate, or text we show as given. */
/** A server field problem: one of our rules, the duplicate tax id, or the sentence of its stable code (never the server's English). */
export type ServerFieldError = { kind: 'rule'; error: FieldError } | { kind: 'duplicate' } | { kind: 'code'; key: FieldProblemKey };

const knownMessages = Object.entries(fieldErrorMessages) as [FieldError, string][];

/** The server words its rule errors with `fieldErrorMessages`; recognising them lets the UI say them in the user's language. */
export function ruleFromMessage(message: string): FieldError | undefined {
  const text = message.trim();
  return knownMessages.find(([, known]) => text === known || text.endsWith(` ${known}`))?.[0];
}

/** The server's field codes that are one of our own rules: said with the rule's words (the adult age, the CPF). */
const ruleByCode: Partial<Record<FieldErrorCode, FieldError>> = {
  REQUIRED: 'required',
  INVALID_DATE: 'invalidDate',
  FUTURE_DATE: 'futureDate',
  UNDERAGE: 'underage',
  INVALID_COUNTRY: 'invalidCountry',
  INVALID_CHARACTERS: 'controlCharacter',
};
const taxIdRules: readonly FieldError[] = ['invalidCpf', 'invalidCnpj', 'invalidTaxId'];

/**
 * The rule a field problem is, by its stable code. A tax id's code covers three sentences (CPF, CNPJ, other), told apart
 * by the rule text the server shares with us; a problem without a code (an older server) is recognised by that text alone.
 */
export function ruleOf(problem: FieldProblem): FieldError | undefined {
  if (problem.code === 'INVALID_TAX_ID') {
    const rule = ruleFromMessage(problem.message);
    return rule && taxIdRules.includes(rule) ? rule : 'invalidTaxId';
  }
  if (problem.code !== undefined) return isFieldErrorCode(problem.code) ? ruleByCode[problem.code] : undefined;
  return ruleFromMessage(problem.message);
}

/** `taxId`, `/taxId`, `body.taxId`, `customer[taxId]` → `taxId`, when the form shows that field for this type. */
export function fieldFromPath(path: string, type: CustomerType): FieldName | undefined {
  const shown = fieldsFor(type);
  return path
    .split(/[./[\]]+/)
    .filter(Boolean)
    .find((segment): segment is FieldName => (shown as readonly string[]).includes(segment));
}

/** Splits a problem's `errors[]` into those that land on a field (first one per field wins) and those that do not. */
export function placeFieldProblems(
  errors: readonly FieldProblem[],
  type: CustomerType,
): { fields: Partial<Record<FieldName, ServerFieldError>>; unplaced: FieldProblem[] } {
  const fields: Partial<Record<FieldName, ServerFieldError>> = {};
  const unplaced: FieldProblem[] = [];
  for (const problem of errors) {
    const field = fieldFromPath(problem.path, type);
    if (!field) {
      unplaced.push(problem);
      continue;
    }
    if (fields[field]) continue;
    const rule = ruleOf(problem);
    fields[field] = rule ? { kind: 'rule', error: rule } : { kind: 'code', key: fieldProblemKey(problem.code) };
  }
  return { fields, unplaced };
}

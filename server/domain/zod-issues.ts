// zod issues → `errors[]` entries: a code from the one table (src/contract/field-codes.ts), our own English (zod's
// wording changes between versions and reads like a stack trace), and the RFC 6901 pointer beside the dotted path.
import type { ZodError } from 'zod';
import { FIELD_ERROR_TABLE } from '../../src/contract/field-code-table';
import { type FieldErrorCode, isFieldErrorCode, toPointer } from '../../src/contract/field-codes';
import type { FieldIssue } from './errors';

type Issue = ZodError['issues'][number];
type Segment = string | number;

/** zod's own default messages start so; a schema's own message (`'must be a date as YYYY-MM-DD'`) never does. */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Unrecognized|Expected|Required)\b/;

const typeWords: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  bigint: 'an integer',
  date: 'a date',
};

const formatWords: Record<string, string> = {
  uuid: 'a UUID',
  email: 'an email address',
  url: 'a URL',
  datetime: 'a date-time such as 2026-01-31T12:00:00Z',
  date: 'a date as YYYY-MM-DD',
};

const list = (values: readonly unknown[]) => values.map((v) => String(v)).join(', ');

/** The value at `path` inside `input`, or undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** Code and our message for one zod issue (a key that is absent is REQUIRED, whatever check noticed it). */
function describe(i: Issue, input: unknown, hasInput: boolean): { code: FieldErrorCode; message: string } {
  if (hasInput && i.path.length && i.code !== 'unrecognized_keys' && i.code !== 'invalid_key' && valueAt(input, i.path) === undefined) {
    return { code: 'REQUIRED', message: FIELD_ERROR_TABLE.REQUIRED };
  }
  const own = ZOD_WORDING.test(i.message) ? undefined : i.message;
  const say = (code: FieldErrorCode, message: string) => ({ code, message: own ?? message });
  switch (i.code) {
    case 'invalid_type':
      if (/received undefined$/.test(i.message)) return { code: 'REQUIRED', message: FIELD_ERROR_TABLE.REQUIRED };
      return say('INVALID_TYPE', `must be ${typeWords[i.expected] ?? i.expected}`);
    case 'too_small': {
      const min = String(i.minimum);
      if (i.origin === 'string') return say('TOO_SHORT', Number(i.minimum) <= 1 ? 'must not be empty' : `must be at least ${min} characters`);
      if (i.origin === 'array' || i.origin === 'set') return say('TOO_FEW', `must have at least ${min} item${min === '1' ? '' : 's'}`);
      return say('TOO_SMALL', i.inclusive ? `must be at least ${min}` : `must be greater than ${min}`);
    }
    case 'too_big': {
      const max = String(i.maximum);
      if (i.origin === 'string') return say('TOO_LONG', `must be at most ${max} characters`);
      if (i.origin === 'array' || i.origin === 'set' || i.origin === 'object') return say('TOO_MANY', `must have at most ${max} items`);
      return say('TOO_LARGE', i.inclusive ? `must be at most ${max}` : `must be less than ${max}`);
    }
    case 'invalid_format':
      return say('INVALID_FORMAT', `must be ${formatWords[i.format] ?? `a valid ${i.format}`}`);
    case 'invalid_value':
      return say('NOT_ONE_OF', `must be one of ${list(i.values)}`);
    case 'invalid_union': {
      const options = (i as { options?: unknown[] }).options;
      if (options) return say('NOT_ONE_OF', `must be one of ${list(options)}`);
      return say('INVALID_VALUE', 'matches none of the accepted forms');
    }
    case 'not_multiple_of':
      return say('INVALID_VALUE', `must be a multiple of ${String(i.divisor)}`);
    case 'invalid_key':
      return say('INVALID_FORMAT', 'is not an accepted key');
    case 'invalid_element':
      return say('INVALID_VALUE', 'is not an accepted entry');
    case 'custom': {
      const code = (i.params as { code?: unknown } | undefined)?.code;
      return say(isFieldErrorCode(code) ? code : 'INVALID_VALUE', FIELD_ERROR_TABLE.INVALID_VALUE);
    }
    default:
      return say('INVALID_VALUE', FIELD_ERROR_TABLE.INVALID_VALUE);
  }
}

/**
 * zod issues → `errors[]`, with the location (`query.`, `header.`) prefixed for non-body input. `input` is what was
 * validated, when known: a key missing from it is REQUIRED whichever check saw it first.
 */
export function issuesOf(error: ZodError, target?: string, ...input: [unknown?]): FieldIssue[] {
  const prefix: Segment[] = target === 'query' ? ['query'] : target === 'header' ? ['header'] : [];
  const entry = (segments: readonly PropertyKey[], d: { code: FieldErrorCode; message: string }): FieldIssue => {
    const at = [...prefix, ...segments.map((s) => (typeof s === 'number' ? s : String(s)))];
    return { path: at.length ? at.join('.') : '(body)', pointer: toPointer(at), ...d };
  };
  return error.issues.flatMap((i): FieldIssue[] => {
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => entry([...i.path, k], { code: 'UNKNOWN_FIELD', message: FIELD_ERROR_TABLE.UNKNOWN_FIELD }));
    return [entry(i.path, describe(i, input[0], input.length > 0))];
  });
}

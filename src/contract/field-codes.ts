// Stable codes for `errors[].code` of a problem: what a client translates, instead of the English `message`. No zod here.
// The names alone (the components ship them); their meanings and default English are in ./field-code-table.
export const FIELD_ERROR_CODES = [
  'REQUIRED',
  'UNKNOWN_FIELD',
  'NOT_ONE_OF',
  'INVALID_TYPE',
  'INVALID_FORMAT',
  'INVALID_CHARACTERS',
  'TOO_SHORT',
  'TOO_LONG',
  'TOO_FEW',
  'TOO_MANY',
  'TOO_SMALL',
  'TOO_LARGE',
  'NOT_UNIQUE',
  'NOT_A_DECIMAL',
  'TOO_MANY_DECIMALS',
  'NOT_POSITIVE',
  'BELOW_MINIMUM',
  'ABOVE_MAXIMUM',
  'CONFLICTING_FIELDS',
  'NOT_ALLOWED',
  'INVALID_TAX_ID',
  'INVALID_DATE',
  'FUTURE_DATE',
  'UNDERAGE',
  'INVALID_COUNTRY',
  'INVALID_PHONE',
  'INVALID_ADDRESS',
  'UNKNOWN_REFERENCE',
  'INVALID_BODY',
  'INVALID_VALUE',
] as const;

export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

export const isFieldErrorCode = (value: unknown): value is FieldErrorCode => (FIELD_ERROR_CODES as readonly unknown[]).includes(value);

/** RFC 6901: a JSON Pointer from path segments (`~` → `~0`, `/` → `~1`; array indices as their digits). */
export const toPointer = (segments: readonly (string | number)[]): string =>
  segments.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** The segments of an RFC 6901 pointer; undefined when it is not one. */
export function fromPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/') || /~[^01]|~$/.test(pointer)) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

// Stable codes for `errors[].code` of a problem: what a client translates, instead of the English `message`. No zod here.
// One table: the OpenAPI enum, docs/api.md and the components' words all follow it; a code is never renamed.
export const FIELD_ERROR_TABLE = {
  REQUIRED: 'is required',
  UNKNOWN_FIELD: 'is not a known field',
  NOT_ONE_OF: 'is not one of the accepted values',
  INVALID_TYPE: 'has the wrong type',
  INVALID_FORMAT: 'is not in the expected format',
  INVALID_CHARACTERS: 'must not contain control characters (such as NUL) or malformed Unicode',
  TOO_SHORT: 'is too short',
  TOO_LONG: 'is too long',
  TOO_FEW: 'has too few items',
  TOO_MANY: 'has too many items',
  TOO_SMALL: 'is too small',
  TOO_LARGE: 'is too large',
  NOT_UNIQUE: 'repeats a value',
  NOT_A_DECIMAL: 'is not a plain decimal string such as "10.50"',
  TOO_MANY_DECIMALS: 'has more decimal places than the currency carries',
  NOT_POSITIVE: 'must be more than zero',
  BELOW_MINIMUM: 'is below the least accepted',
  ABOVE_MAXIMUM: 'is above the most accepted',
  CONFLICTING_FIELDS: 'conflicts with another field of the request',
  NOT_ALLOWED: 'is not accepted in this request',
  INVALID_TAX_ID: 'is not a valid tax id',
  INVALID_DATE: 'is not a calendar date as YYYY-MM-DD',
  FUTURE_DATE: 'must not be in the future',
  UNDERAGE: 'must be the birth date of an adult',
  INVALID_COUNTRY: 'is not an ISO 3166-1 alpha-3 country code',
  INVALID_PHONE: 'is not a phone number in international format',
  INVALID_ADDRESS: 'is not a valid address',
  UNKNOWN_REFERENCE: 'names nothing of yours',
  INVALID_BODY: 'is not a JSON object this operation reads',
  INVALID_VALUE: 'is not accepted',
} as const;

export type FieldErrorCode = keyof typeof FIELD_ERROR_TABLE;

/**
 * Each code's meaning, for docs/api.md and the OpenAPI description. Kept beside the table so a new code cannot
 * ship undocumented (the type requires an entry).
 */
export const FIELD_ERROR_MEANING: Readonly<Record<FieldErrorCode, string>> = {
  REQUIRED: 'Required and absent (also when the whole body is empty).',
  UNKNOWN_FIELD: 'A field the operation does not know.',
  NOT_ONE_OF: 'Not one of the values the field takes (currencies, rails, types, lock windows, …).',
  INVALID_TYPE: 'A JSON type other than the one expected (a number for a string, an array for an object).',
  INVALID_FORMAT: 'The right type in the wrong shape: a UUID, email, URL, date-time or pattern that does not match.',
  INVALID_CHARACTERS: 'Text with control characters (such as NUL) or malformed Unicode.',
  TOO_SHORT: 'Text shorter than its minimum length.',
  TOO_LONG: 'Text longer than its maximum length.',
  TOO_FEW: 'A list with fewer items than needed.',
  TOO_MANY: 'A list or object with more items (keys) than allowed.',
  TOO_SMALL: 'A number below its minimum.',
  TOO_LARGE: 'A number above its maximum, or a value larger than allowed (metadata size).',
  NOT_UNIQUE: 'A list that repeats a value.',
  NOT_A_DECIMAL: 'Not a plain decimal string such as "10.50" (a JSON number, an exponent, a sign, spaces).',
  TOO_MANY_DECIMALS: 'More decimal places than the currency (or unit) carries.',
  NOT_POSITIVE: 'Zero or negative where a positive amount is needed.',
  BELOW_MINIMUM: 'Too small: for a quote, the fees take the whole amount (`minimumSourceAmount` says the least that works).',
  ABOVE_MAXIMUM: 'Above the largest value accepted.',
  CONFLICTING_FIELDS: 'Disagrees with another field of the request or with what it refers to (the locked quote, the account).',
  NOT_ALLOWED: 'A known field that this request, in this state or with these other fields, does not take.',
  INVALID_TAX_ID: 'Not a valid CPF, CNPJ or tax id (check digits, length).',
  INVALID_DATE: 'Not a calendar date as YYYY-MM-DD.',
  FUTURE_DATE: 'A date that lies in the future.',
  UNDERAGE: 'A birth date of someone who is not an adult.',
  INVALID_COUNTRY: 'Not an ISO 3166-1 alpha-3 country code.',
  INVALID_PHONE: 'Not a phone number in international format (+5511987654321).',
  INVALID_ADDRESS: 'Not a valid address: a wallet address, or a webhook URL that does not resolve to a public host.',
  UNKNOWN_REFERENCE: 'An id or reference that names nothing of this partner (or of this customer).',
  INVALID_BODY: 'The body as a whole: not JSON, not UTF-8, too deeply nested, not an object, or an incomplete upload.',
  INVALID_VALUE: 'A value the operation refuses for a reason of its own: the `message` says which.',
};

export const FIELD_ERROR_CODES = Object.keys(FIELD_ERROR_TABLE) as [FieldErrorCode, ...FieldErrorCode[]];

export const isFieldErrorCode = (value: unknown): value is FieldErrorCode => typeof value === 'string' && Object.hasOwn(FIELD_ERROR_TABLE, value);

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

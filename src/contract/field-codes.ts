// Stable codes for `errors[].code` of a problem: what a client translates, instead of the English `message`. No zod here.
export const FIELD_ERROR_CODES = [
  /** Required and absent. */
  'REQUIRED',
  /** A field the operation does not know. */
  'UNKNOWN_FIELD',
  /** Not one of the values the field takes (currencies, rails, lock windows, …). */
  'NOT_ONE_OF',
  /** Not a plain decimal string such as "10.50" (a JSON number, an exponent, a sign, spaces). */
  'NOT_A_DECIMAL',
  /** More decimal places than the currency (or unit) carries. */
  'TOO_MANY_DECIMALS',
  /** Zero or negative where a positive amount is needed. */
  'NOT_POSITIVE',
  /** Too small: for a quote, the fees take the whole amount (`minimumSourceAmount` says the least that works, when one does). */
  'BELOW_MINIMUM',
  /** Above the largest value accepted. */
  'ABOVE_MAXIMUM',
  /** Two fields that exclude each other (sourceAmount and targetAmount). */
  'CONFLICTING_FIELDS',
] as const;

export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

export const isFieldErrorCode = (value: unknown): value is FieldErrorCode => (FIELD_ERROR_CODES as readonly unknown[]).includes(value);

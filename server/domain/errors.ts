import { type FieldErrorCode, toPointer } from '../../src/contract/field-codes';

// The one error type the service throws on purpose: a stable code, a human detail, and the bad fields.
export const errorCodes = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'INVALID_STATE',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'PAYLOAD_TOO_LARGE',
  'DOCUMENT_QUOTA_EXCEEDED',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_EXPIRED',
  'RATE_ALREADY_USED',
  'UNSUPPORTED_PAIR',
  'TARGET_AMOUNT_NOT_GUARANTEED',
  'TRANSACTION_LIMIT_EXCEEDED',
  'INSUFFICIENT_BALANCE',
  'BLOCKCHAIN_UNAVAILABLE',
  'RATE_LIMITED',
  'UPSTREAM_UNAVAILABLE',
  'PSP_UNAVAILABLE',
  'DATABASE_UNAVAILABLE',
  'SERVICE_BUSY',
  'INSUFFICIENT_STORAGE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface FieldIssue {
  /** Dotted path into the request: `taxId`, `address.country`, `query.size`. */
  path: string;
  /** English, for people and logs; never the validation library's wording. */
  message: string;
  /** Stable machine-readable reason (src/contract/field-codes.ts): clients translate this, not `message`. */
  code: FieldErrorCode;
  /** RFC 6901 pointer to the same place as `path` (`/holder/address/country`); derived from `path` when absent. */
  pointer?: string;
}

/** The pointer of a dotted path: `(body)` is the whole document; a key with a dot needs its issue's own pointer. */
export const pointerOfPath = (path: string): string => (path === '(body)' || path === '' ? '' : toPointer(path.split('.')));

/** Every issue with its pointer, as a problem carries it. */
export const withPointers = (errors: readonly FieldIssue[]): Required<FieldIssue>[] =>
  errors.map((e) => ({ path: e.path, message: e.message, code: e.code, pointer: e.pointer ?? pointerOfPath(e.path) }));

export class AppError extends Error {
  override name = 'AppError';
  readonly errors?: FieldIssue[];
  /** Extra problem members (`existingCustomerId`, `missing`, …). */
  readonly extra?: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    opts: { errors?: FieldIssue[]; extra?: Record<string, unknown> } = {},
  ) {
    super(`${code}: ${detail}`);
    this.errors = opts.errors;
    this.extra = opts.extra;
  }
}

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', `${what} not found`);

/**
 * The one rule for an id in a request body that names nothing of this partner's (or of this customer's): 404 NOT_FOUND
 * naming the field in `errors[]`. Another partner's resource answers the same, so ids never leak across partners.
 */
export const unknownReference = (path: string, what: string): AppError =>
  new AppError('NOT_FOUND', `${path}: no such ${what} for this partner`, { errors: [{ path, message: `is not a ${what} of yours`, code: 'UNKNOWN_REFERENCE' }] });

export function invalid(errors: FieldIssue[]): AppError {
  const detail = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
  return new AppError('VALIDATION_FAILED', detail, { errors });
}

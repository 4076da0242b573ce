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
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_EXPIRED',
  'RATE_ALREADY_USED',
  'UNSUPPORTED_PAIR',
  'TRANSACTION_LIMIT_EXCEEDED',
  'INSUFFICIENT_BALANCE',
  'RATE_LIMITED',
  'UPSTREAM_UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface FieldIssue {
  /** Dotted path into the request: `taxId`, `address.country`, `query.size`. */
  path: string;
  message: string;
}

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

export function invalid(errors: FieldIssue[]): AppError {
  const detail = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
  return new AppError('VALIDATION_FAILED', detail, { errors });
}

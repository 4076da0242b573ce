// The two ways a BFF call fails: the server said no (a typed RFC 9457 problem) or the server could not be reached.
import type { Problem } from '../contract/common';
import type { RampErrorDetail } from '../events/error';

export interface FieldProblem {
  path: string;
  /** RFC 6901 pointer to the same place (`/holder/address/country`). */
  pointer?: string;
  /** English, for logs: never matched on. */
  message: string;
  /** Stable reason (src/contract/field-codes.ts), what the components translate. */
  code?: string;
}

/** Codes for answers that carried no problem body (a proxy's 502 page, say), by status. */
const codeByStatus: Readonly<Record<number, string>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** The server answered with an error status; `code` is the stable machine-readable reason. */
export class ProblemError extends Error {
  override name = 'ProblemError';
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: readonly FieldProblem[];
  readonly requestId: string | undefined;
  /** The whole body, for extension members such as `existingCustomerId`. */
  readonly problem: Readonly<Record<string, unknown>>;

  constructor(status: number, body: unknown, statusText = '') {
    const p = isRecord(body) ? body : {};
    const code = typeof p.code === 'string' && p.code ? p.code : (codeByStatus[status] ?? (status >= 500 ? 'SERVER_ERROR' : 'HTTP_ERROR'));
    const detail = typeof p.detail === 'string' ? p.detail : statusText || `HTTP ${status}`;
    super(`${code}: ${detail}`);
    this.status = status;
    this.code = code;
    this.title = typeof p.title === 'string' ? p.title : statusText;
    this.detail = detail;
    this.errors = Array.isArray(p.errors) ? p.errors.filter(isFieldProblem) : [];
    this.requestId = typeof p.requestId === 'string' ? p.requestId : undefined;
    this.problem = p;
  }
}

/** No answer at all: offline, DNS, CORS refusal, or the timeout passed. Safe to retry with the same Idempotency-Key. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  readonly reason: 'unreachable' | 'timeout';

  constructor(reason: 'unreachable' | 'timeout', cause?: unknown) {
    super(reason === 'timeout' ? 'The server did not answer in time' : 'The server could not be reached', { cause });
    this.reason = reason;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFieldProblem(value: unknown): value is FieldProblem {
  return isRecord(value) && typeof value.path === 'string' && typeof value.message === 'string';
}

/** Whether a parsed body has the problem+json shape of the contract. */
export function isProblem(value: unknown): value is Problem {
  return isRecord(value) && typeof value.status === 'number' && typeof value.code === 'string' && typeof value.title === 'string';
}

/** The `ramp-error` detail for a failure the user cannot fix here: the problem as the server said it, or a network or client error. */
export function errorDetailFor(error: unknown, operation: string): RampErrorDetail {
  if (error instanceof ProblemError) {
    return { code: error.code, status: error.status, detail: error.detail, operation, ...(error.requestId ? { requestId: error.requestId } : {}) };
  }
  return {
    code: error instanceof NetworkError ? 'NETWORK_ERROR' : 'CLIENT_ERROR',
    status: null,
    detail: error instanceof Error ? error.message : String(error),
    operation,
  };
}

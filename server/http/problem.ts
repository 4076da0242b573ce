// RFC 9457 problem+json: the one place that turns any error into a response, and maps each code to its HTTP status.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { AppError, type ErrorCode, type FieldIssue, invalid } from '../domain/errors';
import type { AppEnv } from './env';

const statusOf: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  INVALID_STATE: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_EXPIRED: 409,
  RATE_ALREADY_USED: 409,
  UNSUPPORTED_PAIR: 422,
  TRANSACTION_LIMIT_EXCEEDED: 422,
  INSUFFICIENT_BALANCE: 422,
  RATE_LIMITED: 429,
  UPSTREAM_UNAVAILABLE: 502,
  INTERNAL: 500,
};

const titleOf = (code: ErrorCode): string =>
  code
    .toLowerCase()
    .split('_')
    .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');

export const PROBLEM_BASE = 'https://docs.ramp.dev/problems/';

export function problemBody(err: AppError, requestId: string) {
  return {
    type: PROBLEM_BASE + err.code.toLowerCase().replaceAll('_', '-'),
    title: titleOf(err.code),
    status: statusOf[err.code],
    detail: err.detail,
    code: err.code,
    ...(err.errors ? { errors: err.errors } : {}),
    ...err.extra,
    requestId,
  };
}

export function problemResponse(c: Context<AppEnv>, err: AppError): Response {
  const body = problemBody(err, c.get('requestId') ?? 'req_unknown');
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (err.code === 'UNAUTHENTICATED') headers['www-authenticate'] = 'Bearer realm="ramp"';
  // newResponse keeps headers that middleware already set (CORS, request id).
  return c.newResponse(JSON.stringify(body), body.status as 400, headers);
}

/** zod issues → `errors[{path, message}]`, with the location (`query.`, `path.`) prefixed for non-body input. */
export function issuesOf(error: ZodError, target?: string): FieldIssue[] {
  const prefix = target === 'query' ? 'query.' : target === 'header' ? 'header.' : '';
  return error.issues.flatMap((i): FieldIssue[] => {
    const path = i.path.map(String).join('.');
    const at = (p: string) => prefix + (p || '(body)');
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => ({ path: at(path ? `${path}.${k}` : k), message: 'is not a known field' }));
    const message = i.code === 'invalid_type' && /received undefined/.test(i.message) ? 'is required' : i.message;
    return [{ path: at(path), message }];
  });
}

/** The `defaultHook` of every OpenAPIHono app: a failed zod validation is a 400 naming each bad field. */
export const validationHook = (
  result: { success: true; data: unknown; target?: string } | { success: false; error: ZodError; target?: string },
  c: Context<AppEnv>,
) => {
  if (!result.success) return problemResponse(c, invalid(issuesOf(result.error, result.target)));
};

export function onError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof AppError) return problemResponse(c, err);
  if (err instanceof HTTPException) {
    const code: ErrorCode =
      err.status === 413 ? 'PAYLOAD_TOO_LARGE' : err.status === 401 ? 'UNAUTHENTICATED' : err.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_FAILED';
    if (err.status < 500) return problemResponse(c, new AppError(code, err.message || titleOf(code)));
  }
  c.get('logger')?.error({ err, requestId: c.get('requestId') }, 'unhandled error');
  return problemResponse(c, new AppError('INTERNAL', 'Something went wrong on our side. The request id identifies it in our logs.'));
}

export const notFoundHandler = (c: Context<AppEnv>): Response =>
  problemResponse(c, new AppError('NOT_FOUND', `No route for ${c.req.method} ${new URL(c.req.url).pathname}`));

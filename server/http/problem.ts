// RFC 9457 problem+json: the one place that turns any error into a response, and maps each code to its HTTP status.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { AppError, type ErrorCode, invalid, withPointers } from '../domain/errors';
import { databaseTrouble } from '../flows/database-trouble';
import type { AppEnv } from './env';
import { issuesOf } from '../domain/zod-issues';

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
  DOCUMENT_QUOTA_EXCEEDED: 409,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_EXPIRED: 409,
  RATE_ALREADY_USED: 409,
  UNSUPPORTED_PAIR: 422,
  TARGET_AMOUNT_NOT_GUARANTEED: 422,
  TRANSACTION_LIMIT_EXCEEDED: 422,
  INSUFFICIENT_BALANCE: 422,
  BLOCKCHAIN_UNAVAILABLE: 422,
  RATE_LIMITED: 429,
  UPSTREAM_UNAVAILABLE: 502,
  PSP_UNAVAILABLE: 503,
  DATABASE_UNAVAILABLE: 503,
  SERVICE_BUSY: 503,
  INSUFFICIENT_STORAGE: 507,
  INTERNAL: 500,
};

const titleOf = (code: ErrorCode): string =>
  code
    .toLowerCase()
    .split('_')
    .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');

/** Seconds a client should wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_S = 2;
/** Every database connection of this process is in use: a moment later one is free. */
export const BUSY_RETRY_AFTER_S = 1;
/** The PSP (PIX) could not be reached: nothing was done; the client tries again shortly. */
export const PSP_RETRY_AFTER_S = 5;
/** A full disk frees up when someone acts: the client waits a minute before sending its file again. */
export const STORAGE_RETRY_AFTER_S = 60;

export const PROBLEM_BASE = 'https://docs.ramp.dev/problems/';

export function problemBody(err: AppError, requestId: string) {
  return {
    type: PROBLEM_BASE + err.code.toLowerCase().replaceAll('_', '-'),
    title: titleOf(err.code),
    status: statusOf[err.code],
    detail: err.detail,
    code: err.code,
    ...(err.errors ? { errors: withPointers(err.errors) } : {}),
    ...err.extra,
    requestId,
  };
}

export function problemResponse(c: Context<AppEnv>, err: AppError): Response {
  const body = problemBody(err, c.get('requestId') ?? 'req_unknown');
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (err.code === 'UNAUTHENTICATED') headers['www-authenticate'] = 'Bearer realm="ramp"';
  if (err.code === 'DATABASE_UNAVAILABLE') headers['retry-after'] = String(DATABASE_RETRY_AFTER_S);
  if (err.code === 'SERVICE_BUSY') headers['retry-after'] = String(BUSY_RETRY_AFTER_S);
  if (err.code === 'PSP_UNAVAILABLE') headers['retry-after'] = String(PSP_RETRY_AFTER_S);
  if (err.code === 'INSUFFICIENT_STORAGE') headers['retry-after'] = String(STORAGE_RETRY_AFTER_S);
  if (err.code === 'RATE_LIMITED' && typeof err.extra?.retryAfter === 'number') headers['retry-after'] = String(err.extra.retryAfter);
  // newResponse keeps headers that middleware already set (CORS, request id).
  return c.newResponse(JSON.stringify(body), body.status as 400, headers);
}

export { issuesOf } from '../domain/zod-issues';

/** The `defaultHook` of every OpenAPIHono app: a failed zod validation is a 400 naming each bad field. */
export const validationHook = (
  result: { success: true; data: unknown; target?: string } | { success: false; error: ZodError; data?: unknown; target?: string },
  c: Context<AppEnv>,
) => {
  if (!result.success) return problemResponse(c, invalid(issuesOf(result.error, result.target, result.data)));
};

export function onError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof AppError) return problemResponse(c, err);
  if (err instanceof HTTPException) {
    const code: ErrorCode =
      err.status === 413 ? 'PAYLOAD_TOO_LARGE' : err.status === 401 ? 'UNAUTHENTICATED' : err.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_FAILED';
    // hono's own 400s (a body its validator could not read) name the body, as every VALIDATION_FAILED names a field.
    if (code === 'VALIDATION_FAILED') return problemResponse(c, invalid([{ path: '(body)', message: 'is not a JSON object this operation reads', code: 'INVALID_BODY' }]));
    if (err.status < 500) return problemResponse(c, new AppError(code, err.message || titleOf(code)));
  }
  const trouble = databaseTrouble(err);
  if (trouble === 'busy') {
    // The database answers; this process has every connection in use. Busy, not down: a short wait, nothing done.
    c.get('logger')?.warn({ requestId: c.get('requestId') }, 'database pool busy');
    return problemResponse(c, new AppError('SERVICE_BUSY', 'Every database connection of this server is in use. Retry in a second, with the same Idempotency-Key for a write.'));
  }
  if (trouble === 'unavailable') {
    // The database is away (restarting, unreachable, our connection was cut): nothing was done; try again shortly.
    c.get('logger')?.warn({ code: (err as { code?: string }).code, requestId: c.get('requestId') }, 'database unavailable');
    return problemResponse(c, new AppError('DATABASE_UNAVAILABLE', 'The database is not reachable right now. Retry after a few seconds, with the same Idempotency-Key for a write.'));
  }
  c.get('logger')?.error({ err, requestId: c.get('requestId') }, 'unhandled error');
  return problemResponse(c, new AppError('INTERNAL', 'Something went wrong on our side. The request id identifies it in our logs.'));
}

/**
 * No route: 405 with `Allow` when the path exists under other methods, else 404. `routes` is the app's route table
 * (read when the first request misses, so every route is registered by then).
 */
export function notFoundHandler(routes: () => readonly { method: string; path: string }[]) {
  let table: { pattern: RegExp; method: string }[] | undefined;
  return (c: Context<AppEnv>): Response => {
    table ??= routes()
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => ({ method: r.method, pattern: new RegExp(`^${r.path.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}/?$`) }));
    const path = new URL(c.req.url).pathname;
    const allowed = [...new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (!allowed.length) return problemResponse(c, new AppError('NOT_FOUND', `No route for ${c.req.method} ${path}`));
    if (allowed.includes('GET')) allowed.push('HEAD');
    c.header('allow', allowed.join(', '));
    return problemResponse(c, new AppError('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed on ${path}; use ${allowed.join(', ')}`));
  };
}

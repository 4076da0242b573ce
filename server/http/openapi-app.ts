// The OpenAPIHono every resource sub-app is made from: zod failures become 400 problems naming each field.
import { OpenAPIHono } from '@hono/zod-openapi';
import { ProblemSchema } from '../../src/contract/common';
import type { AppEnv } from './env';
import { validationHook } from './problem';

/**
 * @hono/zod-openapi's own `OpenAPIHono`, with its own validators for every part of a request: a failed check is a 400
 * problem naming each field (`validationHook`). A faster check of query and path parameters in one synchronous step
 * was measured and dropped (docs/performance.md).
 */
export const openApiApp = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });

/** Standard problem responses for a route's OpenAPI entry; every authenticated route is also rate limited (429). */
export const problems = (...statuses: number[]) =>
  Object.fromEntries(
    (statuses.includes(401) && !statuses.includes(429) ? [...statuses, 429] : statuses).map((s) => [
      s,
      {
        description: problemDescriptions[s] ?? 'Problem',
        ...(s === 429 ? { headers: { 'Retry-After': { description: 'Seconds until the budget allows another request', schema: { type: 'integer' as const, minimum: 1 } } } } : {}),
        content: { 'application/problem+json': { schema: ProblemSchema } },
      },
    ]),
  );

const problemDescriptions: Record<number, string> = {
  400: 'VALIDATION_FAILED: `errors[]` names each bad field',
  401: 'UNAUTHENTICATED: missing or invalid API key',
  404: 'NOT_FOUND: no such resource for this partner',
  409: 'CONFLICT, INVALID_STATE or IDEMPOTENCY_KEY_REUSED',
  413: 'PAYLOAD_TOO_LARGE: body over 1 MB',
  415: 'UNSUPPORTED_MEDIA_TYPE: body is not JSON',
  422: 'A business rule refused the request',
  507: 'INSUFFICIENT_STORAGE: the service cannot store files right now (its storage is full); wait `Retry-After` seconds',
  429: 'RATE_LIMITED: over the API key\'s request budget (or too many refused keys from this address); wait `Retry-After` seconds',
};

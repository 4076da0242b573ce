// The OpenAPIHono every resource sub-app is made from: zod failures become 400 problems naming each field.
import { OpenAPIHono, type RouteConfig, type RouteHandler } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { ZodType } from 'zod';
import { ProblemSchema } from '../../src/contract/common';
import { type FieldIssue, invalid } from '../domain/errors';
import type { AppEnv } from './env';
import { issuesOf } from '../domain/zod-issues';
import { problemResponse, validationHook } from './problem';

/**
 * @hono/zod-openapi's own `OpenAPIHono`, with `operation()` beside its `openapi()`: a failed check is a 400 problem naming
 * each field. `operation()` checks path parameters, query and JSON body in one step (below), so one request hears of
 * every bad field at once, and an empty body is checked as `{}`, so it names each required field. It registers the
 * route's document as written (the registry's `registerPath`), then the handler through `openapi()` with the route
 * hidden and its checks left to that step. A route with headers or cookies in its request keeps the library's validators
 * and `validationHook`.
 */
export class OpenApiApp extends OpenAPIHono<AppEnv> {
  constructor() {
    super({ defaultHook: validationHook as never });
  }

  operation<R extends RouteConfig>(route: R, handler: RouteHandler<R, AppEnv>): this {
    const { middleware, hide, ...rest } = route as Route;
    const content = rest.request?.body?.content ?? {};
    const json = Object.keys(content).length === 1 ? (content['application/json']?.schema as ZodType | undefined) : undefined;
    const targets = (
      [
        ['param', rest.request?.params],
        ['query', rest.request?.query],
        ['json', json],
      ] as const
    ).filter((t): t is [Target, ZodType] => isZod(t[1]));
    if (rest.request?.headers || rest.request?.cookies || !targets.length) {
      this.openapi(route, handler as never);
      return this;
    }
    if (!hide) this.openAPIRegistry.registerPath(rest as never);
    const request = { ...rest.request, params: undefined, query: undefined, body: json ? undefined : rest.request?.body };
    const before = middleware ? (Array.isArray(middleware) ? middleware : [middleware]) : [];
    this.openapi({ ...rest, request, hide: true, middleware: [...before, validateAll(targets)] } as never, handler as never);
    return this;
  }
}

export const openApiApp = () => new OpenApiApp();

type Target = 'param' | 'query' | 'json';
/** What `operation()` reads of a route. */
interface Route {
  middleware?: MiddlewareHandler | MiddlewareHandler[];
  hide?: boolean;
  request?: { params?: unknown; query?: unknown; headers?: unknown; cookies?: unknown; body?: { content?: Record<string, { schema?: unknown }> } };
}

const isZod = (s: unknown): s is ZodType => typeof s === 'object' && s !== null && 'safeParseAsync' in s;

/** What hono's validator reads for each target (a repeated query key is an array). */
async function inputOf(c: Context<AppEnv>, target: Target): Promise<unknown> {
  if (target === 'param') return c.req.param();
  if (target === 'query') return Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
  // jsonBody() has refused a body that is not JSON before this runs; no body is the empty object.
  const text = await c.req.text();
  if (!text.length) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid([{ path: '(body)', message: 'is not valid JSON', code: 'INVALID_BODY' }]);
  }
}

/** A body's rules that its flow checks once the shape is valid (check digits, dates against the clock), by schema. */
const laterRules = new WeakMap<ZodType, (input: unknown) => FieldIssue[]>();

/**
 * Also runs `rules` on a body whose shape was refused, so that one answer names every bad field: the rules' findings
 * join the schema's for the fields the schema did not already name. The flow still checks them on a valid body.
 */
export function alsoOnRefusedBody(schema: ZodType, rules: (input: unknown) => FieldIssue[]): void {
  laterRules.set(schema, rules);
}

function validateAll(targets: readonly [Target, ZodType][]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const issues: FieldIssue[] = [];
    for (const [target, schema] of targets) {
      const input = await inputOf(c, target);
      const result = await schema.safeParseAsync(input);
      if (result.success) c.req.addValidatedData(target, result.data as object);
      else {
        const found = issuesOf(result.error, target, input);
        const named = new Set(found.map((i) => i.path));
        issues.push(...found, ...(laterRules.get(schema)?.(input) ?? []).filter((i) => !named.has(i.path)));
      }
    }
    if (issues.length) return problemResponse(c, invalid(issues));
    await next();
  };
}

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

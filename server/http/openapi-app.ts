// The OpenAPIHono every resource sub-app is made from: zod failures become 400 problems naming each field.
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { z } from 'zod';
import type { JsonText } from '../presenters';
import { ProblemSchema } from '../../src/contract/common';
import type { AppEnv } from './env';
import { validationHook } from './problem';

/**
 * `OpenAPIHono` whose routes check their query and path parameters in one synchronous middleware instead of a
 * validator each. @hono/zod-openapi gives every part its own `zValidator`: two async frames and zod's async parse per
 * part, ~6 % of a customer read's CPU for two parts that never need a promise. The checks, their order (query, then
 * path), the hook and what reaches `c.req.valid()` are the same; bodies, headers and cookies keep zod-openapi's own.
 */
class RampOpenAPIHono extends OpenAPIHono<AppEnv> {
  constructor() {
    super({ defaultHook: validationHook as never });
    const register = this.openapi;
    this.openapi = ((config: RouteConfig, handler: never, hook?: Hook) => {
      const { middleware, hide, ...route } = config;
      const query = route.request?.query as Schema | undefined;
      const params = route.request?.params as Schema | undefined;
      if (!query && !params) return register(config, handler, hook as never);
      // The document still shows the parameters: the route is listed here, and registered hidden below without them.
      if (!hide) this.openAPIRegistry.registerPath(route);
      const { query: _query, params: _params, ...request } = route.request!;
      const own = middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];
      const parts: Part[] = [...(query ? [{ target: 'query' as const, schema: query }] : []), ...(params ? [{ target: 'param' as const, schema: params }] : [])];
      return register({ ...route, request, hide: true, middleware: [...own, checkParameters(parts, hook ?? (validationHook as Hook))] } as RouteConfig, handler, hook as never);
    }) as typeof register;
  }
}

export const openApiApp = () => new RampOpenAPIHono();

type Schema = z.ZodType;
type Part = { target: 'query' | 'param'; schema: Schema };
type Parsed = { success: true; data: unknown } | { success: false; error: z.ZodError };
/** A route's validation hook, as zod-validator calls it: an answer (or `{ response }`) refuses the request. */
type Hook = (result: Parsed & { data?: unknown; target: string }, c: Context<AppEnv>) => unknown;

/**
 * A query as hono's validator reads it: a name given once is a string, given more often an array of them. Made with
 * `Object.fromEntries`, as there: every name an own property (assigned, `__proto__` would set the object's prototype).
 */
const queryOf = (c: Context<AppEnv>): Record<string, string | string[]> =>
  Object.fromEntries(Object.entries(c.req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0]! : values]));

/**
 * The query and path parameters checked as @hono/zod-validator checks them (the hook sees every result; a failure it
 * lets through is a 400 of zod's result), but parsed synchronously; a schema that turns out to need a promise (an
 * async refinement) is parsed again asynchronously, and a hook may answer with a promise.
 */
function checkParameters(parts: Part[], hook: Hook): MiddlewareHandler<AppEnv> {
  type Verdict = Response | undefined | Promise<Response | undefined>;
  /** The hook's word on one part's result; a passing part's data is what `c.req.valid()` answers. */
  const verdict = (c: Context<AppEnv>, target: Part['target'], value: unknown, result: Parsed): Verdict => {
    const after = (hooked: unknown) => {
      const answer = answerOf(hooked);
      if (answer) return answer;
      if (!result.success) return c.json(result, 400);
      c.req.addValidatedData(target, result.data as object);
      return undefined;
    };
    const hooked = hook({ data: value, ...result, target }, c);
    return hooked instanceof Promise ? hooked.then(after) : after(hooked);
  };
  /** Parts `i` onwards, in order: the first refusal, or undefined when every part passes. */
  const from = (c: Context<AppEnv>, i: number): Verdict => {
    for (; i < parts.length; i++) {
      const { target, schema } = parts[i]!;
      const value = target === 'query' ? queryOf(c) : c.req.param();
      let v: Verdict;
      try {
        v = verdict(c, target, value, schema.safeParse(value) as Parsed);
      } catch (err) {
        if (!(err instanceof z.core.$ZodAsyncError)) throw err;
        v = schema.safeParseAsync(value).then((r) => verdict(c, target, value, r as Parsed));
      }
      if (v instanceof Promise) {
        const next = i + 1;
        return v.then((refused) => refused ?? from(c, next));
      }
      if (v) return v;
    }
    return undefined;
  };
  return (c, next) => {
    const refused = from(c, 0);
    if (refused instanceof Promise) return refused.then((r): Promise<Response | void> | Response => r ?? next());
    return refused ? Promise.resolve(refused) : next();
  };
}

const answerOf = (r: unknown): Response | undefined => (r instanceof Response ? r : typeof r === 'object' && r !== null && 'response' in r ? (r.response as Response) : undefined);

/** An answer whose body a presenter already serialised, typed as `c.json` of the value would be. */
export const jsonAnswer = <T, S extends ContentfulStatusCode>(c: Context, text: JsonText<T>, status: S) =>
  c.body(text, status, { 'content-type': 'application/json' }) as unknown as TypedResponse<JSONParsed<T>, S, 'json'>;

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
  429: 'RATE_LIMITED: over the API key\'s request budget (or too many refused keys from this address); wait `Retry-After` seconds',
};

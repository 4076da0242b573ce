// The routes of `openApiApp()` (server/http/openapi-app.ts) check query and path parameters in one synchronous
// middleware instead of @hono/zod-openapi's validator per part. The same routes on a plain OpenAPIHono must answer every
// request alike (status and body: the problem, its order of checks, the values the handler gets), and the OpenAPI
// document must not change.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../server/http/env';
import { openApiApp } from '../../server/http/openapi-app';
import { onError, validationHook } from '../../server/http/problem';

const Id = z.object({ id: z.uuid() });
const Query = z.object({
  size: z.coerce.number().int().min(1).max(100).default(25),
  status: z.enum(['NEW', 'DONE']).optional(),
  tag: z.union([z.string(), z.array(z.string())]).optional(),
});
/** A parameter only an async check can pass. */
const AsyncQuery = z.object({ code: z.string().refine(async (v) => (await Promise.resolve(v)) === 'open', 'is not open') });
const Body = z.object({ name: z.string().min(1) });
const ok = { 200: { description: 'ok' } };

/** Runs before the checks (a route's own middleware): they must still come after it. */
const stamp: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.header('x-stop')) return c.text('stopped by the route middleware', 403);
  await next();
};

function routes(app: OpenAPIHono<AppEnv>) {
  return app
    .openapi(createRoute({ method: 'get', path: '/things/{id}', request: { params: Id, query: Query }, responses: ok }), (c) =>
      c.json({ param: c.req.valid('param'), query: c.req.valid('query') }, 200),
    )
    .openapi(createRoute({ method: 'get', path: '/strict', request: { query: z.strictObject({ size: z.string().optional() }) }, responses: ok }), (c) => c.json(c.req.valid('query'), 200))
    .openapi(createRoute({ method: 'get', path: '/gated', request: { query: AsyncQuery }, responses: ok }), (c) => c.json(c.req.valid('query'), 200))
    .openapi(
      createRoute({ method: 'post', path: '/things/{id}/notes', middleware: [stamp] as const, request: { params: Id, query: Query, body: { required: true, content: { 'application/json': { schema: Body } } } }, responses: ok }),
      (c) => c.json({ param: c.req.valid('param'), query: c.req.valid('query'), body: c.req.valid('json') }, 200),
    )
    .openapi(
      createRoute({ method: 'get', path: '/hooked/{id}', request: { params: Id, query: Query }, responses: ok }),
      (c) => c.json(c.req.valid('query'), 200),
      // A route's own hook sees the passing results too, and may answer for them (sometimes through a promise).
      (result, c) => {
        if (result.success && result.target === 'query' && (result.data as { status?: string }).status === 'DONE') return c.json({ hook: 'refused a passing query' }, 409);
        if (result.success && result.target === 'param') return Promise.resolve(undefined) as never;
        if (!result.success) return c.json({ hook: `failed ${result.target}` }, 422);
      },
    );
}

function apps() {
  const plain = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
  const ours = openApiApp();
  for (const app of [plain, ours]) app.onError(onError);
  return { plain: routes(plain), ours: routes(ours) };
}

const id = '0190d4a1-3b6c-7d3e-9f00-1234567890ab';
const requests: [string, RequestInit?][] = [
  [`/things/${id}`],
  [`/things/${id}?size=7&status=DONE`],
  [`/things/${id}?tag=a&tag=b&tag=c`],
  [`/things/${id}?size=0`],
  [`/things/${id}?status=LOST&size=x`],
  ['/things/not-a-uuid'],
  ['/things/not-a-uuid?size=500'],
  [`/things/${id}?size=%00`],
  [`/things/${id}?__proto__=x&__proto__=y&constructor=z`],
  [`/strict?__proto__=x&__proto__=y`],
  ['/strict?__proto__=x'],
  ['/strict?constructor=x&toString=y'],
  ['/gated?code=open'],
  ['/gated?code=shut'],
  ['/gated'],
  [`/things/${id}/notes?size=3`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"n"}' }],
  [`/things/${id}/notes?size=3`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":""}' }],
  [`/things/${id}/notes?size=-1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":""}' }],
  ['/things/nope/notes', { method: 'POST', headers: { 'content-type': 'application/json', 'x-stop': '1' }, body: '{}' }],
  [`/hooked/${id}?status=NEW`],
  [`/hooked/${id}?status=DONE`],
  [`/hooked/${id}?size=nope`],
  ['/hooked/nope'],
];

describe('openApiApp: query and path parameters checked in one step', () => {
  test('every request answers as @hono/zod-openapi answers it', async () => {
    const { plain, ours } = apps();
    const statuses = new Set<number>();
    for (const [path, init] of requests) {
      const a = await plain.request(path, init);
      const b = await ours.request(path, init);
      const [ta, tb] = [await a.text(), await b.text()];
      assert.deepEqual({ path, status: b.status, body: tb }, { path, status: a.status, body: ta });
      statuses.add(a.status);
    }
    // The requests reach every kind of answer: passed, refused by the checks, by a hook, by the route's middleware.
    assert.deepEqual([...statuses].sort(), [200, 400, 403, 409, 422]);
  });

  test('a failing query is reported before a failing path parameter, and a failing part stops the route', async () => {
    const res = await apps().ours.request('/things/not-a-uuid?size=500');
    assert.equal(res.status, 400);
    const problem = (await res.json()) as { errors: { path: string }[] };
    assert.deepEqual(
      problem.errors.map((e) => e.path),
      ['query.size'],
    );
  });

  test('the OpenAPI document is the same', () => {
    const { plain, ours } = apps();
    const config = { openapi: '3.1.0', info: { title: 't', version: '1' } };
    assert.deepEqual(ours.getOpenAPI31Document(config), plain.getOpenAPI31Document(config));
    assert.ok(JSON.stringify(ours.getOpenAPI31Document(config)).includes('"in":"query"'));
  });
});

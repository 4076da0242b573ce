// The JSON body guard (server/http/json-body.ts) reads and checks a body without touching hono's request object: the
// route's validator gets the same body through hono's own `c.req.json()` (no method of `c.req` replaced), and the
// guard's refusals (413, 415, depth, control characters) still come first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hono } from 'hono';
import { HonoRequest } from 'hono/request';
import type { AppEnv } from '../../server/http/env';
import { jsonBody, MAX_JSON_BYTES, MAX_JSON_DEPTH } from '../../server/http/json-body';
import { onError } from '../../server/http/problem';

function app() {
  const seen: { ownJson: boolean; sameMethod: boolean; body: unknown }[] = [];
  const a = new Hono<AppEnv>();
  a.onError(onError);
  a.use('*', jsonBody());
  a.post('/echo', async (c) => {
    seen.push({ ownJson: Object.hasOwn(c.req, 'json'), sameMethod: c.req.json === HonoRequest.prototype.json, body: await c.req.json() });
    return c.json({ ok: true });
  });
  return { a, seen };
}
const post = (a: Hono<AppEnv>, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => a.request('/echo', { method: 'POST', headers, body });
const code = async (res: Response) => ((await res.json()) as { code: string }).code;

test('the route reads the body through hono\'s own c.req.json(): nothing on c.req is replaced', async () => {
  const { a, seen } = app();
  const body = { name: 'Ana', nested: { list: [1, '2', null], text: 'line\nbreak' } };
  assert.equal((await post(a, JSON.stringify(body))).status, 200);
  assert.deepEqual(seen, [{ ownJson: false, sameMethod: true, body }]);
});

test('the guard still refuses first: 413, 415, too deep, control characters, malformed', async () => {
  const { a, seen } = app();
  const big = await post(a, JSON.stringify({ s: 'x'.repeat(MAX_JSON_BYTES) }));
  assert.deepEqual([big.status, await code(big)], [413, 'PAYLOAD_TOO_LARGE']);
  const xml = await post(a, '<a/>', { 'content-type': 'text/xml' });
  assert.deepEqual([xml.status, await code(xml)], [415, 'UNSUPPORTED_MEDIA_TYPE']);
  for (const body of ['['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1), '{"name":"A\\u0000"}', '{"name":']) {
    const res = await post(a, body);
    assert.deepEqual([res.status, await code(res)], [400, 'VALIDATION_FAILED'], body.slice(0, 40));
  }
  assert.deepEqual(seen, [], 'a refused body reached the route');
});

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
import { client, individual, startTestServer } from './harness';

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

test('bytes that are not UTF-8 are a 400 naming the body, another charset a 415; nothing is stored (issue 32 item 15)', async () => {
  const server = await startTestServer();
  try {
    const api = client(server, server.apiKey);
    const before = (await api.get('/v2/customers')).body.data.length;
    const json = Buffer.from(JSON.stringify(individual({ name: 'Jo__o Souza' })));
    const at = json.indexOf('__');
    const latin1 = Buffer.concat([json.subarray(0, at), Buffer.from([0xe3]), json.subarray(at + 2)]); // "João" in ISO-8859-1
    const send = (body: Uint8Array, type: string) =>
      server.app.request('/v2/customers', { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': type }, body: new Uint8Array(body) });
    const bad = await send(latin1, 'application/json');
    assert.equal(bad.status, 400);
    const problem = (await bad.json()) as { errors: { path: string; message: string }[] };
    assert.deepEqual(problem.errors, [{ path: '(body)', pointer: '', message: 'is not valid UTF-8', code: 'INVALID_BODY' }]);
    const other = await send(latin1, 'application/json; charset=ISO-8859-1');
    assert.equal(other.status, 415);
    assert.equal((await api.get('/v2/customers')).body.data.length, before, 'nothing stored');
    // The same name in UTF-8 is fine.
    const good = await send(Buffer.from(JSON.stringify(individual({ name: 'João Souza' }))), 'application/json; charset=utf-8');
    assert.equal(good.status, 201, await good.clone().text());
  } finally {
    await server.close();
  }
});

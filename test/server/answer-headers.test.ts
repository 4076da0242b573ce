// The headers every answer carries, on the wire: served by @hono/node-server they are set on Node's ServerResponse
// (not on the fetch Response), so these go through a real socket, not `app.request`. And the app's router: one route
// shape hono's RegExpRouter cannot hold sends every request to the slower TrieRouter.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { individual, type TestServer, startTestServer } from './harness';
import { listen } from './uploads-helpers';

let server: TestServer;
let http: Awaited<ReturnType<typeof listen>>;

before(async () => {
  server = await startTestServer();
  http = await listen(server);
});
after(async () => {
  await http?.close();
  await server?.close();
});

const auth = () => ({ authorization: `Bearer ${server.apiKey}` });

/** Request id, nosniff, and (on /v2) the version served: each exactly once, and the problem's requestId the header's. */
async function common(res: Response, opts: { version?: string } = {}) {
  const id = res.headers.get('x-request-id');
  assert.match(id ?? '', /^[A-Za-z0-9_.-]{8,64}$/, `x-request-id on ${res.url}`);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  if (opts.version) assert.equal(res.headers.get('ramp-version'), opts.version);
  const text = await res.text();
  if (res.headers.get('content-type') === 'application/problem+json') assert.equal(JSON.parse(text).requestId, id);
  return text;
}

describe('headers on the wire', () => {
  test('a /v2 answer, a created resource and a problem carry the request id, nosniff and the version once', async () => {
    const list = await fetch(`${http.base}/v2/customers?size=1`, { headers: auth() });
    assert.equal(list.status, 200);
    await common(list, { version: '2.4.0' });

    const created = await fetch(`${http.base}/v2/customers`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify(individual()) });
    assert.equal(created.status, 201);
    assert.match(created.headers.get('location') ?? '', /^\/v2\/customers\//);
    assert.equal(created.headers.get('content-type'), 'application/json');
    await common(created, { version: '2.4.0' });

    const missing = await fetch(`${http.base}/v2/customers/00000000-0000-7000-8000-000000000000`, { headers: auth() });
    assert.equal(missing.status, 404);
    await common(missing, { version: '2.4.0' });

    const unauthenticated = await fetch(`${http.base}/v2/customers`);
    assert.equal(unauthenticated.status, 401);
    await common(unauthenticated, { version: '2.4.0' });
  });

  test('a request id the client sends comes back; a pinned or refused version is echoed', async () => {
    const mine = await fetch(`${http.base}/healthz`, { headers: { 'x-request-id': 'client-chosen-id-1234' } });
    assert.equal(mine.headers.get('x-request-id'), 'client-chosen-id-1234');
    await common(mine);

    const pinned = await fetch(`${http.base}/v2/customers?size=1`, { headers: { ...auth(), 'ramp-version': '2.2.0' } });
    assert.equal(pinned.status, 200);
    await common(pinned, { version: '2.2.0' });

    const refused = await fetch(`${http.base}/v2/customers`, { headers: { ...auth(), 'ramp-version': '1.0.0' } });
    assert.equal(refused.status, 400);
    await common(refused, { version: '2.4.0' });
  });

  test('the hosted page and its API (an app of their own) answer with the same headers and problems', async () => {
    const page = await fetch(`${http.base}/verify/not-a-link`);
    assert.equal(page.status, 404);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    await common(page);

    const api = await fetch(`${http.base}/verify/api/customer`, { headers: { authorization: 'Bearer not-a-link' } });
    assert.equal(api.status, 401);
    assert.equal(api.headers.get('access-control-allow-origin'), '*');
    const problem = JSON.parse(await common(api));
    assert.equal(problem.code, 'UNAUTHENTICATED');

    const nothing = await fetch(`${http.base}/verify/api/nothing-here`, { headers: { authorization: 'Bearer not-a-link' } });
    assert.equal(nothing.status, 401, 'the link is checked before anything under /verify/api');
    await common(nothing);
  });

  test('the app routes with RegExpRouter (a route shape it cannot hold would fall back to TrieRouter for every route)', async () => {
    await server.app.request('/healthz');
    const router = server.app.router as unknown as { activeRouter?: { name: string } };
    assert.equal(router.activeRouter?.name, 'RegExpRouter');
  });
});

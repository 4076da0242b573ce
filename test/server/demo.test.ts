// The demo page and its session route: sandbox only, bound to the page's own origin, never framed.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { demoOriginAllowed } from '../../server/sandbox/demo-session';
import { startTestServer, type TestServer } from './harness';
import { stubSettlement } from './settlement-stub';
import { productionEnv } from './support/production-env';

const built = existsSync(fileURLToPath(new URL('../../dist/demo/index.html', import.meta.url)));
const notBuilt = 'SKIPPED: the demo page is not built (npm run build)';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => server?.close());

async function mint(url: string, origin?: string) {
  const res = await server.app.request(url, { method: 'POST', headers: origin ? { origin } : {} });
  return { status: res.status, body: (await res.json()) as any };
}

describe('/demo/session in sandbox', () => {
  test("mints a session for the server's public origin (RAMP_PUBLIC_URL), usable from that origin only", async () => {
    const res = await mint('http://ramp.test/demo/session', 'http://ramp.test');
    assert.equal(res.status, 201);
    const bff = (origin: string) => server.app.request('/bff/session', { headers: { authorization: `Bearer ${res.body.token}`, origin } });
    assert.equal((await bff('http://ramp.test')).status, 200);
    assert.equal((await bff('https://evil.example')).status, 403);
  });

  test('a page on another origin cannot mint a session for itself', async () => {
    const res = await mint('http://ramp.test/demo/session', 'https://evil.example');
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'FORBIDDEN');
    assert.equal(res.body.token, undefined);
  });

  test('a request without Origin is refused (browsers always send it on a scripted POST)', async () => {
    const res = await mint('http://ramp.test/demo/session');
    assert.equal(res.status, 403);
    assert.equal(res.body.token, undefined);
  });

  test('the origin the page was served from counts when it is a loopback host (npm start on localhost, the Vite dev proxy)', async () => {
    assert.equal((await mint('http://localhost:5173/demo/session', 'http://localhost:5173')).status, 201);
    assert.equal((await mint('http://127.0.0.1:8787/demo/session', 'http://127.0.0.1:8787')).status, 201);
    // ... but not another loopback port than the one it reached.
    assert.equal((await mint('http://localhost:5173/demo/session', 'http://localhost:9999')).status, 403);
  });

  test('a Host that is neither the public origin nor loopback is not trusted (DNS rebinding)', async () => {
    assert.equal((await mint('http://rebound.evil.example:8787/demo/session', 'http://rebound.evil.example:8787')).status, 403);
    assert.equal(demoOriginAllowed('http://10.0.0.5:8787', 'http://ramp.test', 'http://10.0.0.5:8787/demo/session'), false);
  });
});

describe('the demo page', () => {
  test('is never framed', async (t) => {
    if (!built) return t.skip(notBuilt);
    for (const path of ['/', '/index.html']) {
      const res = await server.app.request(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      const directives = new Map((res.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
      assert.deepEqual(directives.get('frame-ancestors'), ["'none'"], path);
      // Only its own scripts and styles, only its own origin to talk to (issue 32.9: it had frame-ancestors alone).
      assert.deepEqual(directives.get('script-src'), ["'self'"], path);
      assert.deepEqual(directives.get('style-src'), ["'self'"], path);
      assert.deepEqual(directives.get('connect-src'), ["'self'"], path);
      assert.deepEqual(directives.get('object-src'), ["'none'"], path);
    }
  });

  test('sandbox answers carry no HSTS (it is served over plain http on a laptop)', async () => {
    assert.equal((await server.app.request('/healthz')).headers.get('strict-transport-security'), null);
  });
});

describe('in production', () => {
  let prod: TestServer;
  before(async () => {
    prod = await startTestServer(productionEnv(), { settlement: stubSettlement() });
  });
  after(async () => prod?.close());

  test('every answer tells browsers to use https only (HSTS), the API and the pages alike', async () => {
    for (const path of ['/healthz', '/v2/customers', '/docs', '/sdk/ramp-widget.js', '/nowhere']) {
      assert.equal((await prod.app.request(path)).headers.get('strict-transport-security'), 'max-age=31536000; includeSubDomains', path);
    }
  });

  test('neither the session route, nor the demo page, nor its assets exist', async () => {
    const post = await prod.app.request('http://ramp.test/demo/session', { method: 'POST', headers: { origin: 'http://ramp.test' } });
    assert.equal(post.status, 404);
    for (const path of ['/', '/index.html', '/assets/index.js']) assert.equal((await prod.app.request(path)).status, 404, path);
  });

  test('the SDK bundle is still served (partners and the hosted page load it)', async (t) => {
    if (!built) return t.skip(notBuilt);
    assert.equal((await prod.app.request('/sdk/ramp-widget.js')).status, 200);
    // A real asset of the demo build, to be sure the 404 above is not just a wrong name.
    const index = await (await server.app.request('/')).text();
    const asset = /\/assets\/[^"']+\.(?:js|css)/.exec(index)?.[0];
    if (asset) {
      assert.equal((await server.app.request(asset)).status, 200, `sandbox serves ${asset}`);
      assert.equal((await prod.app.request(asset)).status, 404, `production does not serve ${asset}`);
    }
  });
});

// The HTTP core: auth, problems for every error path, body limits and media types, request ids, health, OpenAPI, docs, sandbox gating.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, individual, newPartner, type TestServer, startTestServer } from './harness';
import { stubSettlement } from './settlement-stub';
import { productionEnv } from './support/production-env';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const isProblem = (res: { status: number; headers: Headers; body: any }, status: number, code: string) => {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.headers.get('content-type'), 'application/problem+json');
  assert.equal(res.body.status, status);
  assert.equal(res.body.code, code);
  assert.ok(res.body.type.startsWith('https://'));
  assert.ok(res.body.title && res.body.detail);
  assert.equal(res.body.requestId, res.headers.get('x-request-id'));
};

describe('authentication', () => {
  test('no Authorization header is a 401 problem with WWW-Authenticate', async () => {
    const res = await client(server).get('/v2/customers');
    isProblem(res, 401, 'UNAUTHENTICATED');
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /);
  });

  test('an unknown key, a malformed header and a Basic scheme are 401s', async () => {
    for (const authorization of ['Bearer sk_sandbox_doesnotexist1234567890', 'Bearer', 'Basic dXNlcjpwYXNz', 'sk_sandbox_abc']) {
      const res = await client(server).get('/v2/customers', { authorization });
      isProblem(res, 401, 'UNAUTHENTICATED');
    }
  });

  test('a key created by the sandbox works at once and sees only its own partner', async () => {
    const { api } = await newPartner(server);
    const res = await api.get('/v2/customers');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, []);
  });

  test('the sandbox partner route answers the key once and stores only its hash', async () => {
    const { apiKey, partnerId } = await newPartner(server);
    assert.match(apiKey, /^sk_sandbox_[\w-]{32}$/);
    const { apiKeys } = await import('../../server/store/schema/index');
    const { eq } = await import('drizzle-orm');
    const rows = await server.deps.store.db.select().from(apiKeys).where(eq(apiKeys.partnerId, partnerId));
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]!.keyHash, apiKey);
    assert.match(rows[0]!.keyHash, /^[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(rows).includes(apiKey));
  });
});

describe('error paths', () => {
  test('an unknown route is a 404 problem', async () => {
    isProblem(await client(server, server.apiKey).get('/v2/nothing-here'), 404, 'NOT_FOUND');
    isProblem(await client(server).get('/no/such/page'), 404, 'NOT_FOUND');
  });

  test('a body over 1 MB is a 413 problem', async () => {
    const res = await client(server, server.apiKey).post('/v2/customers', individual({ name: 'x'.repeat(1024 * 1024 + 10) }));
    isProblem(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('a non-JSON body where JSON is expected is a 415 problem', async () => {
    const api = client(server, server.apiKey);
    isProblem(await api.post('/v2/customers', 'type=INDIVIDUAL&name=Ana', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    isProblem(await api.post('/v2/customers', '<customer/>', { 'content-type': 'text/xml' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('malformed JSON is a 400 problem', async () => {
    const res = await client(server, server.apiKey).post('/v2/customers', '{"type": "INDIVIDUAL",', { 'content-type': 'application/json' });
    isProblem(res, 400, 'VALIDATION_FAILED');
    assert.equal(res.body.errors[0].path, '(body)');
  });

  test('an empty body is a 400 naming the required fields', async () => {
    const res = await client(server, server.apiKey).send('POST', '/v2/customers');
    isProblem(res, 400, 'VALIDATION_FAILED');
    assert.ok(res.body.errors.length > 0);
  });

  test('a JSON array or scalar body is a 400, never a 500', async () => {
    for (const body of ['[]', '42', '"x"', 'null', '{"type":null}']) {
      const res = await client(server, server.apiKey).post('/v2/customers', body);
      isProblem(res, 400, 'VALIDATION_FAILED');
    }
  });

  test('problems never carry a stack trace', async () => {
    const res = await client(server, server.apiKey).post('/v2/customers', '{bad', { 'content-type': 'application/json' });
    assert.ok(!/at \w+ \(|node_modules|\.ts:\d+/.test(res.text));
  });
});

describe('response headers', () => {
  test('every answer carries X-Content-Type-Options: nosniff: JSON, problems, pages, the bundle, preflights, 404s', async () => {
    const session = await client(server, server.apiKey).post('/v2/widget-sessions', {});
    const answers = [
      await client(server, server.apiKey).get('/v2/customers'),
      await client(server).get('/v2/customers'),
      await client(server).get('/no/such/route'),
      await client(server).get('/healthz'),
      await client(server).get('/openapi.json'),
      await client(server).get('/docs'),
      await client(server).get('/verify/not-a-link'),
      await client(server).get('/sdk/ramp-widget.js'),
      await client(server).get('/'),
      await client(server, session.body.token).get('/bff/session'),
      await client(server).send('OPTIONS', '/bff/customers', undefined, { origin: 'https://shop.example', 'access-control-request-method': 'POST' }),
      await client(server).post('/v2/customers', '{', { authorization: `Bearer ${server.apiKey}` }),
    ];
    for (const res of answers) assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${res.status} ${res.text.slice(0, 80)}`);
  });

  test('the OpenAPI document lists 429 with Retry-After on authenticated operations', async () => {
    const doc = (await client(server).get('/openapi.json')).body;
    const op = doc.paths['/v2/customers'].get;
    assert.ok(op.responses['429'], 'GET /v2/customers documents 429');
    assert.ok(op.responses['429'].headers['Retry-After']);
  });
});

describe('request ids', () => {
  test('every answer carries X-Request-Id, and a sane incoming one is kept', async () => {
    const a = await client(server).get('/healthz');
    assert.match(a.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
    const b = await client(server).get('/healthz', { 'x-request-id': 'trace-1234567' });
    assert.equal(b.headers.get('x-request-id'), 'trace-1234567');
  });
});

describe('health, OpenAPI and docs', () => {
  test('/healthz and /readyz answer', async () => {
    assert.deepEqual((await client(server).get('/healthz')).body, { status: 'ok' });
    const ready = await client(server).get('/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, 'ready');
  });

  test('/openapi.json is OpenAPI 3.1 generated from the schemas, with bearer security and problems', async () => {
    const res = await client(server).get('/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.body;
    assert.equal(doc.openapi, '3.1.0');
    for (const path of ['/v2/customers', '/v2/customers/{id}', '/v2/widget-sessions', '/v2/sandbox/partners']) assert.ok(doc.paths[path], path);
    assert.ok(doc.paths['/v2/customers'].post.responses['201']);
    assert.ok(doc.components.schemas.Customer);
    assert.ok(doc.components.schemas.Problem);
    assert.equal(doc.components.securitySchemes.ApiKey.scheme, 'bearer');
  });

  test('/docs is served from our own origin with no CDN', async () => {
    const res = await client(server).get('/docs');
    assert.equal(res.status, 200);
    assert.match(await (await server.app.request('/docs/assets/start.js')).text(), /\/openapi\.json/);
    assert.ok(!/https?:\/\/(?!localhost)/.test(res.text.replace(/<!doctype[^>]*>/i, '')), 'no external URL in the docs page');
    const js = await server.app.request('/docs/assets/swagger-ui-bundle.js');
    assert.equal(js.status, 200);
    assert.ok((await js.text()).length > 100_000);
  });

  test('/docs runs only its own scripts, talks only to this origin and is never framed', async () => {
    for (const path of ['/docs', '/docs/assets/start.js']) {
      const res = await server.app.request(path);
      const directives = new Map((res.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
      assert.deepEqual(directives.get('default-src'), ["'none'"], path);
      assert.deepEqual(directives.get('script-src'), ["'self'"], path);
      assert.deepEqual(directives.get('connect-src'), ["'self'"], path);
      assert.deepEqual(directives.get('frame-ancestors'), ["'none'"], path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
    }
    const html = await (await server.app.request('/docs')).text();
    assert.ok([...html.matchAll(/<script\b[^>]*>/g)].every((m) => /\ssrc="\/docs\/assets\//.test(m[0])), 'no inline script');
  });
});

describe('environments', () => {
  test('RAMP_ENV=production turns off every sandbox route', async () => {
    const env = productionEnv();
    const prod = await startTestServer(env, { settlement: stubSettlement() });
    try {
      const api = client(prod, env.RAMP_API_KEY);
      assert.equal((await api.get('/v2/customers')).status, 200);
      isProblem(await api.post('/v2/sandbox/partners', { name: 'x' }), 404, 'NOT_FOUND');
      isProblem(await client(prod).post('/demo/session'), 404, 'NOT_FOUND');
      const doc = (await client(prod).get('/openapi.json')).body;
      assert.ok(!Object.keys(doc.paths).some((p) => p.includes('sandbox')));
    } finally {
      await prod.close();
    }
  });
});

describe('logs', () => {
  test('no API key, token or tax id reaches the logs', async () => {
    const { api, apiKey } = await newPartner(server);
    const body = individual();
    const created = await api.post('/v2/customers', body);
    const session = await api.post('/v2/widget-sessions', { customerId: created.body.id });
    await client(server).get('/bff/customer', { authorization: `Bearer ${session.body.token}` });
    await client(server).get(new URL(created.body.verification.link).pathname);
    const logs = server.logs.join('');
    assert.ok(logs.includes('"route"'), 'requests are logged');
    for (const secret of [apiKey, server.apiKey, body.taxId as string, session.body.token, new URL(created.body.verification.link).pathname.split('/')[2]!]) {
      assert.ok(!logs.includes(secret), `a secret reached the logs: ${secret.slice(0, 12)}…`);
    }
  });
});

describe('static assets', () => {
  test('the SDK is served compressed to clients that accept gzip, loadable cross-origin as a module', async (t) => {
    const { existsSync } = await import('node:fs');
    if (!existsSync(new URL('../../dist/sdk/ramp-widget.js', import.meta.url))) return t.skip('not built (npm run build)');
    const res = await server.app.request('/sdk/ramp-widget.js', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
  });

  test('the SDK is sent as the build compressed it (brotli, else gzip), byte for byte the file, and plain to a client that accepts neither', async (t) => {
    const { existsSync, readdirSync, readFileSync } = await import('node:fs');
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const sdk = new URL('../../dist/sdk/', import.meta.url);
    if (!existsSync(new URL('ramp-widget.js', sdk))) return t.skip('not built (npm run build)');
    const chunk = readdirSync(sdk).find((f) => /^onboarding-[\w-]{8}\.js$/.test(f))!;
    const file = readFileSync(new URL(chunk, sdk));
    const br = await server.app.request(`/sdk/${chunk}`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    assert.equal(br.headers.get('content-encoding'), 'br');
    assert.match(br.headers.get('vary') ?? '', /accept-encoding/i);
    assert.equal(br.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(br.headers.get('timing-allow-origin'), '*', "a partner's page may time the load");
    const sent = Buffer.from(await br.arrayBuffer());
    assert.deepEqual(brotliDecompressSync(sent), file);
    assert.deepEqual(sent, readFileSync(new URL(`${chunk}.br`, sdk)), 'the copy written at build time, not compressed again');
    const gz = await server.app.request(`/sdk/${chunk}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers.get('content-encoding'), 'gzip');
    assert.deepEqual(gunzipSync(Buffer.from(await gz.arrayBuffer())), file);
    const plain = await server.app.request(`/sdk/${chunk}`);
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.deepEqual(Buffer.from(await plain.arrayBuffer()), file);
    for (const copy of [`${chunk}.br`, `${chunk}.gz`]) assert.equal((await server.app.request(`/sdk/${copy}`)).status, 404, `${copy} is not a file of its own`);
    // Hostile paths: a NUL, a control character, an encoded step up, a copy's suffix after a NUL: 404, never a 5xx or a file outside.
    for (const path of [`/sdk/${chunk}%00`, `/sdk/%00${chunk}`, `/sdk/${chunk}%00.br`, `/sdk/%01${chunk}`, '/sdk/..%2fpackage.json', '/sdk/%2e%2e/package.json', '/sdk/../../package.json']) {
      const res = await server.app.request(path, { headers: { 'accept-encoding': 'br, gzip' } });
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(await res.text(), /"dependencies"/, path);
    }
  });

  test('the loader is cached briefly, hashed chunks for good, the build manifest not at all', async (t) => {
    const { existsSync, readdirSync } = await import('node:fs');
    const sdk = new URL('../../dist/sdk/', import.meta.url);
    if (!existsSync(new URL('ramp-widget.js', sdk))) return t.skip('not built (npm run build)');
    const loader = await server.app.request('/sdk/ramp-widget.js');
    assert.equal(loader.headers.get('cache-control'), 'public, max-age=300');
    const chunk = readdirSync(sdk).find((f) => /^onboarding-[\w-]{8}\.js$/.test(f));
    assert.ok(chunk, 'the build has an onboarding chunk');
    const res = await server.app.request(`/sdk/${chunk}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const gone = await server.app.request('/sdk/onboarding-AAAAAAAA.js');
    assert.equal(gone.status, 404);
    assert.doesNotMatch(gone.headers.get('cache-control') ?? '', /immutable/, 'a missing chunk is not cached for a year');
    assert.equal((await server.app.request('/sdk/.vite/manifest.json')).status, 404);
  });
});

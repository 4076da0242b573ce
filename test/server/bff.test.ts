// Widget sessions and the BFF: session auth, CORS limited to the session's origins, one customer per onboarding session, session-scoped reads.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Tokens } from '../../server/tokens';
import { client, individual, newPartner, type TestServer, startTestServer } from './harness';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const partnerApi = () => client(server, server.apiKey);
const bff = (token?: string) => client(server, token);
const withOrigin = (origin: string) => ({ origin });

async function onboardingSession(body: Record<string, unknown> = {}) {
  const res = await partnerApi().post('/v2/widget-sessions', body);
  assert.equal(res.status, 201, res.text);
  return res.body as { token: string; expiresAt: string; customerId: string | null };
}

describe('widget sessions', () => {
  test('a session is a signed token with an expiry, 15 minutes by default', async () => {
    const before = Date.now();
    const s = await onboardingSession();
    assert.equal(s.customerId, null);
    assert.equal(s.token.split('.').length, 3);
    const ttl = Date.parse(s.expiresAt) - before;
    assert.ok(ttl > 890_000 && ttl <= 901_000, String(ttl));
  });

  test('a session for an unknown or foreign customer is 404', async () => {
    const other = await newPartner(server);
    const { body: foreign } = await other.api.post('/v2/customers', individual());
    const res = await partnerApi().post('/v2/widget-sessions', { customerId: foreign.id });
    assert.equal(res.status, 404);
  });

  test('bad session input names the field', async () => {
    for (const [body, path] of [
      [{ expiresIn: 10 }, 'expiresIn'],
      [{ allowedOrigins: ['not a url'] }, 'allowedOrigins.0'],
      [{ customerId: 'x' }, 'customerId'],
    ] as const) {
      const res = await partnerApi().post('/v2/widget-sessions', body);
      assert.equal(res.status, 400);
      assert.equal(res.body.errors[0].path, path);
    }
  });
});

describe('the BFF', () => {
  test('an onboarding session creates its customer and gets a session bound to it', async () => {
    const s = await onboardingSession();
    const res = await bff(s.token).post('/bff/customers', individual());
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.customer.type, 'INDIVIDUAL');
    assert.equal(res.body.session.customerId, res.body.customer.id);
    const me = await bff(res.body.session.token).get('/bff/customer');
    assert.equal(me.status, 200);
    assert.equal(me.body.id, res.body.customer.id);
    assert.equal((await bff(res.body.session.token).get('/bff/session')).body.customerId, res.body.customer.id);
    const created = await partnerApi().get(`/v2/customers/${res.body.customer.id}`);
    assert.equal(created.status, 200);
  });

  test('an onboarding session creates at most one customer; a retry replays it', async () => {
    const s = await onboardingSession();
    const body = individual();
    const first = await bff(s.token).post('/bff/customers', body);
    const retry = await bff(s.token).post('/bff/customers', body);
    assert.equal(retry.status, 201);
    assert.equal(retry.body.customer.id, first.body.customer.id);
    const second = await bff(s.token).post('/bff/customers', individual());
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'CONFLICT');
  });

  test('a bound session cannot create another customer', async () => {
    const s = await onboardingSession();
    const { body } = await bff(s.token).post('/bff/customers', individual());
    const res = await bff(body.session.token).post('/bff/customers', individual());
    assert.equal(res.status, 409);
  });

  test('a refused body leaves the onboarding session free to try again', async () => {
    const s = await onboardingSession();
    const bad = await bff(s.token).post('/bff/customers', individual({ taxId: '123' }));
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].path, 'taxId');
    const good = await bff(s.token).post('/bff/customers', individual());
    assert.equal(good.status, 201);
  });

  test('problems from the service reach the browser unchanged: a duplicate taxId names the field', async () => {
    const body = individual();
    await partnerApi().post('/v2/customers', body);
    const s = await onboardingSession();
    const res = await bff(s.token).post('/bff/customers', body);
    assert.equal(res.status, 409);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    assert.equal(res.body.errors[0].path, 'taxId');
  });

  test("a session reads its own customer only; another session's customer is out of reach", async () => {
    const { body: mine } = await partnerApi().post('/v2/customers', individual());
    const { body: theirs } = await partnerApi().post('/v2/customers', individual());
    const s = await onboardingSession({ customerId: mine.id });
    const me = await bff(s.token).get('/bff/customer');
    assert.equal(me.body.id, mine.id);
    // The BFF has no route that takes a customer id from the browser: the session decides.
    const probe = await bff(s.token).get(`/bff/customers/${theirs.id}`);
    assert.equal(probe.status, 404);
  });

  test("the partner's private metadata never reaches the browser", async () => {
    const metadata = { internalRef: 'crm-4711', riskNote: 'partner-only' };
    const { body: created } = await partnerApi().post('/v2/customers', individual({ metadata }));
    assert.deepEqual(created.metadata, metadata, 'the partner sees its metadata');
    const s = await onboardingSession({ customerId: created.id });
    const me = await bff(s.token).get('/bff/customer');
    assert.equal(me.status, 200);
    assert.equal(me.body.id, created.id);
    assert.ok(!('metadata' in me.body), me.text);
    assert.ok(!me.text.includes('crm-4711'));
    // Nor is it the browser's to write (issue 32): refused, naming the field.
    const onboarding = await onboardingSession();
    const own = await bff(onboarding.token).post('/bff/customers', individual({ metadata }));
    assert.equal(own.status, 400, own.text);
    assert.equal(own.body.errors[0].path, 'metadata');
  });

  test('an onboarding session has no customer to read yet', async () => {
    const s = await onboardingSession();
    assert.equal((await bff(s.token).get('/bff/customer')).status, 404);
  });

  test('a missing, forged or expired token is a 401', async () => {
    assert.equal((await bff().get('/bff/session')).status, 401);
    assert.equal((await bff('not.a.token').get('/bff/session')).status, 401);
    const forged = await new Tokens('x'.repeat(40)).signWidgetSession({ partnerId: server.deps.partnerId!, customerId: null, allowedOrigins: [], expiresAt: new Date(Date.now() + 60_000) });
    assert.equal((await bff(forged).get('/bff/session')).status, 401);
    const expired = await server.deps.tokens.signWidgetSession({ partnerId: server.deps.partnerId!, customerId: null, allowedOrigins: [], expiresAt: new Date(Date.now() - 1000) });
    assert.equal((await bff(expired).get('/bff/session')).status, 401);
  });

  test("a session of another partner is refused by this instance's BFF", async () => {
    const other = await newPartner(server);
    const s = await other.api.post('/v2/widget-sessions', {});
    assert.equal((await bff(s.body.token).get('/bff/session')).status, 401);
  });

  test('the API key appears in nothing the BFF answers', async () => {
    const s = await onboardingSession({ allowedOrigins: ['https://shop.example.com'] });
    const replies = [
      await bff(s.token).post('/bff/customers', individual(), withOrigin('https://shop.example.com')),
      await bff(s.token).get('/bff/session', withOrigin('https://shop.example.com')),
      await bff('bad').get('/bff/session'),
    ];
    for (const r of replies) {
      assert.ok(!r.text.includes(server.apiKey));
      for (const [, v] of r.headers) assert.ok(!v.includes(server.apiKey));
    }
  });
});

describe('CORS', () => {
  test('an allowed origin gets Access-Control-Allow-Origin, on success and on problems', async () => {
    const s = await onboardingSession({ allowedOrigins: ['https://shop.example.com'] });
    const ok = await bff(s.token).get('/bff/session', withOrigin('https://shop.example.com'));
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://shop.example.com');
    const problem = await bff(s.token).get('/bff/customer', withOrigin('https://shop.example.com'));
    assert.equal(problem.status, 404);
    assert.equal(problem.headers.get('access-control-allow-origin'), 'https://shop.example.com');
  });

  test('another origin is refused with 403 and no CORS grant', async () => {
    const s = await onboardingSession({ allowedOrigins: ['https://shop.example.com'] });
    const res = await bff(s.token).post('/bff/customers', individual(), withOrigin('https://evil.example'));
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal((await partnerApi().get('/v2/customers?size=100')).body.data.filter((c: { name: string }) => c.name === 'evil').length, 0);
  });

  test('without allowedOrigins only the service origin itself may use the session', async () => {
    const s = await onboardingSession();
    assert.equal((await bff(s.token).get('/bff/session', withOrigin('http://ramp.test'))).status, 200);
    assert.equal((await bff(s.token).get('/bff/session', withOrigin('https://other.example'))).status, 403);
  });

  test('a preflight is answered with the methods and headers the components use', async () => {
    const res = await client(server).send('OPTIONS', '/bff/customers', undefined, {
      origin: 'https://shop.example.com',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, idempotency-key',
    });
    assert.equal(res.status, 204);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /idempotency-key/);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
  });
});

describe('the demo session route', () => {
  test('sandbox mints an onboarding session for the calling origin', async () => {
    const res = await client(server).post('/demo/session', undefined, { origin: 'http://ramp.test' });
    assert.equal(res.status, 201);
    assert.equal(res.body.customerId, null);
    assert.ok(!res.text.includes(server.apiKey));
    assert.equal((await bff(res.body.token).get('/bff/session', withOrigin('http://ramp.test'))).status, 200);
    assert.equal((await bff(res.body.token).get('/bff/session', withOrigin('http://localhost:9999'))).status, 403);
  });
});

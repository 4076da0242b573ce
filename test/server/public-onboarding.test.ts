// RAMP_PUBLIC_ONBOARDING: anonymous onboarding sessions for allowlisted origins only, rate-limited, usable only there.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './harness';

const shop = 'https://shop.example';
let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_PUBLIC_ONBOARDING: `${shop}, https://other.example` });
});
after(() => server?.close());

const ask = (origin?: string, init: RequestInit = {}) =>
  server.app.request('/bff/public-session', { method: 'POST', ...init, headers: { accept: 'application/json', ...(origin ? { origin } : {}), ...init.headers } });

describe('POST /bff/public-session', () => {
  test('an allowlisted origin gets an onboarding session, with CORS for credentialed fetches, usable from that origin only', async () => {
    const res = await ask(shop);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('access-control-allow-origin'), shop);
    assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
    const { token } = (await res.json()) as { token: string };
    const session = await server.app.request('/bff/session', { headers: { authorization: `Bearer ${token}`, origin: shop } });
    assert.equal(session.status, 200);
    assert.equal(((await session.json()) as { customerId: string | null }).customerId, null, 'an onboarding session: no customer yet');
    const elsewhere = await server.app.request('/bff/session', { headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example' } });
    assert.notEqual(elsewhere.status, 200, 'the session is bound to the page origin');
  });

  test('another origin, or none, is refused without CORS headers', async () => {
    for (const origin of ['https://evil.example', undefined]) {
      const res = await ask(origin);
      assert.equal(res.status, 403);
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      assert.equal(((await res.json()) as { code: string }).code, 'FORBIDDEN');
    }
  });

  test('the preflight answers the allowlisted origin only', async () => {
    const ok = await server.app.request('/bff/public-session', { method: 'OPTIONS', headers: { origin: shop, 'access-control-request-method': 'POST' } });
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), shop);
    const no = await server.app.request('/bff/public-session', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    assert.equal(no.headers.get('access-control-allow-origin'), null);
  });

  test('more than 10 a minute from one address and origin is RATE_LIMITED with Retry-After', async () => {
    const other = 'https://other.example';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await ask(other)).status);
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(201));
    const limited = await ask(other);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(((await limited.json()) as { code: string }).code, 'RATE_LIMITED');
  });
});

describe('public sessions behind a load balancer', () => {
  let behind: TestServer;
  before(async () => {
    behind = await startTestServer({ RAMP_PUBLIC_ONBOARDING: shop, RAMP_TRUST_PROXY: '1', RAMP_RATE_LIMIT_PUBLIC_SESSION: '2/60', RAMP_RATE_LIMIT_STORE: 'memory' });
  });
  after(() => behind?.close());
  // Every request comes from the balancer's socket; the visitor is the address it appended to X-Forwarded-For.
  const via = (xff: string) =>
    behind.app.request('/bff/public-session', { method: 'POST', headers: { accept: 'application/json', origin: shop, 'x-forwarded-for': xff } }, { incoming: { socket: { remoteAddress: '10.0.0.1' } } });

  test('each visitor has a budget of its own, read as every limit reads the client (RAMP_TRUST_PROXY, IPv6 /64)', async () => {
    assert.equal((await via('1.1.1.1, 203.0.113.7')).status, 201);
    assert.equal((await via('2.2.2.2, 203.0.113.7')).status, 201);
    const limited = await via('203.0.113.7');
    assert.equal(limited.status, 429, 'what the client wrote before the balancer’s entry does not count');
    assert.equal(limited.headers.get('access-control-allow-origin'), shop);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal((await via('203.0.113.8')).status, 201, 'another visitor behind the same balancer is not held back');
    // One IPv6 subscriber (/64) is one visitor, however many addresses it uses.
    assert.equal((await via('2001:db8:1:2::a')).status, 201);
    assert.equal((await via('2001:db8:1:2::b')).status, 201);
    assert.equal((await via('2001:db8:1:2:ffff::c')).status, 429);
    assert.equal((await via('2001:db8:1:3::a')).status, 201);
  });
});

describe('without RAMP_PUBLIC_ONBOARDING', () => {
  test('there is no public session endpoint: no session without one', async () => {
    const plain = await startTestServer();
    try {
      const res = await plain.app.request('/bff/public-session', { method: 'POST', headers: { origin: shop } });
      assert.equal(res.status, 401, 'just another /bff path, which needs a session');
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
    } finally {
      await plain.close();
    }
  });
});

test('RAMP_PUBLIC_ONBOARDING must list origins', async () => {
  const { loadConfig, ConfigError } = await import('../../server/config');
  assert.throws(() => loadConfig({ RAMP_PUBLIC_ONBOARDING: 'shop.example' }), (e: unknown) => e instanceof ConfigError && /RAMP_PUBLIC_ONBOARDING/.test(e.message));
  assert.equal(loadConfig({ RAMP_PUBLIC_ONBOARDING: 'https://a.example, http://localhost:3000' }).RAMP_PUBLIC_ONBOARDING, 'https://a.example, http://localhost:3000');
});

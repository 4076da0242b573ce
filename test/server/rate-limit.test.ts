// Rate limits: per API key, widget session, verification link and client address; 429 with Retry-After and a problem body; memory and PostgreSQL stores.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { generateApiKey } from '../../server/domain/api-keys';
import { addressKey } from '../../server/http/rate-limit';
import { LeasedLimiter } from '../../server/http/rate-limit-lease';
import { openStore, type Store } from '../../server/store/db';
import { createPartner } from '../../server/store/queries/partners';
import { individual, startTestServer, type TestServer } from './harness';

const onPostgres = Boolean(process.env.DATABASE_URL);

const LIMITS = {
  RAMP_RATE_LIMIT_API_KEY: '5/60',
  RAMP_RATE_LIMIT_SESSION: '5/60',
  RAMP_RATE_LIMIT_LINK: '3/60',
  RAMP_RATE_LIMIT_AUTH_FAILURES: '20/60',
  RAMP_RATE_LIMIT_DEMO_SESSION: '2/60',
};

/** A request as it arrives from a socket at `address` (app.request passes the bindings @hono/node-server would). */
async function from(server: TestServer, address: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  const res = await server.app.request(path, { method: init.method ?? 'GET', headers, body }, { incoming: { socket: { remoteAddress: address } } });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body: parsed };
}

let addressCounter = 0;
/** A client address of its own per test, so the per-address budgets do not leak between tests. */
const freshAddress = () => `198.51.100.${++addressCounter}`;

/** A partner created straight in the database, so making it spends no API key's budget. */
async function partnerKey(server: TestServer): Promise<string> {
  const key = generateApiKey('sandbox');
  await createPartner(server.deps.store.db, 'Rate limit partner', key);
  return key;
}

function isRateLimited(res: { status: number; headers: Headers; body: any }) {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(res.body.code, 'RATE_LIMITED');
  assert.equal(res.body.status, 429);
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${res.headers.get('retry-after')}`);
  assert.equal(res.body.retryAfter, retryAfter);
}

for (const store of ['memory', 'postgres'] as const) {
  describe(`rate limits (${store} store)`, () => {
    let server: TestServer;
    const skip = store === 'postgres' && !onPostgres ? 'SKIPPED: the PostgreSQL store needs DATABASE_URL=postgres://… (PGlite runs the memory store only)' : undefined;

    before(async () => {
      if (skip) return;
      server = await startTestServer({ ...LIMITS, RAMP_RATE_LIMIT_STORE: store });
    });
    after(async () => server?.close());

    test('300 wrong API keys at once from one address: 20 are answered 401, the rest 429; a right key from that address goes through', async (t) => {
      if (skip) return t.skip(skip);
      const address = freshAddress();
      const answers = await Promise.all(
        Array.from({ length: 300 }, () => from(server, address, '/v2/customers', { headers: { authorization: `Bearer ${generateApiKey('sandbox')}` } })),
      );
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 401).length, 20);
      assert.equal(statuses.filter((s) => s === 429).length, 280);
      isRateLimited(answers.find((a) => a.status === 429)!);

      // Others' failures never hold back a valid key (a shared office, a carrier NAT): only the refused requests wait.
      const key = await partnerKey(server);
      assert.equal((await from(server, address, '/v2/customers', { headers: { authorization: `Bearer ${key}` } })).status, 200);
      isRateLimited(await from(server, address, '/v2/customers', { headers: { authorization: `Bearer ${generateApiKey('sandbox')}` } }));
    });

    test('a page that makes its visitor load junk links and forged sessions cannot lock the visitor out of the widget, the link or the API', async (t) => {
      if (skip) return t.skip(skip);
      const visitor = freshAddress();
      const auth = { authorization: `Bearer ${server.apiKey}` };
      const customer = await from(server, freshAddress(), '/v2/customers', { method: 'POST', headers: auth, body: individual() });
      assert.equal(customer.status, 201);
      const session = await from(server, freshAddress(), '/v2/widget-sessions', { method: 'POST', headers: auth, body: { customerId: customer.body.id, allowedOrigins: ['https://shop.example'] } });
      const link = new URL(customer.body.verification.link).pathname;
      // Image tags on any site: junk hosted-page links, and forged sessions sent from the widget's origin.
      for (let i = 0; i < 25; i++) await from(server, visitor, `/verify/junk-${i}`);
      const forged = await from(server, visitor, '/bff/session', { headers: { authorization: 'Bearer forged.session.token', origin: 'https://shop.example' } });
      isRateLimited(forged);
      assert.equal(forged.headers.get('access-control-allow-origin'), 'https://shop.example', 'the 429 is readable by the widget, Retry-After included');
      assert.match(forged.headers.get('access-control-expose-headers') ?? '', /retry-after/i);
      // The visitor's own credentials still work.
      assert.equal((await from(server, visitor, '/bff/customer', { headers: { authorization: `Bearer ${session.body.token}`, origin: 'https://shop.example' } })).status, 200);
      assert.equal((await from(server, visitor, link)).status, 200);
      assert.equal((await from(server, visitor, '/verify/api/customer', { headers: { authorization: `Bearer ${link.split('/').pop()}` } })).status, 200);
    });

    test('requests that present no credential spend nothing of the address’s budget', async (t) => {
      if (skip) return t.skip(skip);
      const address = freshAddress();
      for (let i = 0; i < 30; i++) assert.equal((await from(server, address, '/v2/customers')).status, 401);
      for (let i = 0; i < 30; i++) assert.equal((await from(server, address, '/bff/session')).status, 401);
      // Were they counted, this refusal would be a 429.
      assert.equal((await from(server, address, '/v2/customers', { headers: { authorization: `Bearer ${generateApiKey('sandbox')}` } })).status, 401);
    });

    test('an API key over its budget gets 429 with Retry-After; another key is untouched', async (t) => {
      if (skip) return t.skip(skip);
      const [key, other] = [await partnerKey(server), await partnerKey(server)];
      const address = freshAddress();
      for (let i = 0; i < 5; i++) assert.equal((await from(server, address, '/v2/customers', { headers: { authorization: `Bearer ${key}` } })).status, 200);
      isRateLimited(await from(server, address, '/v2/customers', { headers: { authorization: `Bearer ${key}` } }));
      // The budget is the key's, not the address's.
      isRateLimited(await from(server, freshAddress(), '/v2/customers', { headers: { authorization: `Bearer ${key}` } }));
      assert.equal((await from(server, address, '/v2/customers', { headers: { authorization: `Bearer ${other}` } })).status, 200);
    });

    test("a widget session over its budget gets 429 (readable cross-origin); the BFF's own calls do not spend the partner's key", async (t) => {
      if (skip) return t.skip(skip);
      const address = freshAddress();
      // The BFF calls /v2 with the bootstrap key: two of its five points go here.
      const auth = { authorization: `Bearer ${server.apiKey}` };
      const customer = await from(server, address, '/v2/customers', { method: 'POST', headers: auth, body: individual() });
      assert.equal(customer.status, 201);
      const session = await from(server, address, '/v2/widget-sessions', {
        method: 'POST',
        headers: auth,
        body: { customerId: customer.body.id, allowedOrigins: ['https://shop.example'] },
      });
      assert.equal(session.status, 201);
      const widget = { authorization: `Bearer ${session.body.token}`, origin: 'https://shop.example' };
      // Five widget requests, each one a /v2 call with the partner's key: were they counted, the third would fail.
      for (let i = 0; i < 5; i++) {
        const res = await from(server, address, '/bff/customer', { headers: widget });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const over = await from(server, address, '/bff/customer', { headers: widget });
      isRateLimited(over);
      assert.equal(over.headers.get('access-control-allow-origin'), 'https://shop.example');
      // Another session of the same partner has its own budget.
      const second = await from(server, address, '/v2/widget-sessions', { method: 'POST', headers: auth, body: { customerId: customer.body.id } });
      assert.equal(second.status, 201);
      assert.equal((await from(server, address, '/bff/session', { headers: { authorization: `Bearer ${second.body.token}` } })).status, 200);
    });

    test('a verification link over its budget gets 429, its hosted page included; another link is untouched', async (t) => {
      if (skip) return t.skip(skip);
      const key = await partnerKey(server);
      const created = await from(server, freshAddress(), '/v2/customers', { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: individual() });
      assert.equal(created.status, 201);
      const path = new URL(created.body.verification.link).pathname;
      const token = path.split('/').pop()!;
      const address = freshAddress();
      for (let i = 0; i < 3; i++) assert.equal((await from(server, address, '/verify/api/customer', { headers: { authorization: `Bearer ${token}` } })).status, 200);
      isRateLimited(await from(server, freshAddress(), '/verify/api/customer', { headers: { authorization: `Bearer ${token}` } }));

      isRateLimited(await from(server, freshAddress(), path));
      const other = await from(server, freshAddress(), '/v2/customers', { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: individual() });
      assert.equal((await from(server, freshAddress(), new URL(other.body.verification.link).pathname)).status, 200);
    });

    test('wrong widget sessions and wrong verification links count as refused credentials of the address', async (t) => {
      if (skip) return t.skip(skip);
      const address = freshAddress();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await from(server, address, '/bff/session', { headers: { authorization: `Bearer forged.${i}.token` } })).status);
      for (let i = 0; i < 12; i++) statuses.push((await from(server, address, '/verify/api/customer', { headers: { authorization: `Bearer forged.${i}` } })).status);
      assert.deepEqual(statuses, [...Array(20).fill(401), ...Array(4).fill(429)]);
      // Guessing at hosted-page links (404) counts too.
      const guesser = freshAddress();
      const pages: number[] = [];
      for (let i = 0; i < 21; i++) pages.push((await from(server, guesser, `/verify/not-a-link-${i}`)).status);
      assert.deepEqual(pages.slice(0, 3), [404, 404, 404]);
      assert.equal(pages.at(-1), 429);
    });

    test(`the counters live in ${store === 'memory' ? 'process memory' : 'the rate_limits table'}, keyed by hashes, never by a credential`, async (t) => {
      if (skip) return t.skip(skip);
      const key = await partnerKey(server);
      await from(server, freshAddress(), '/v2/customers', { headers: { authorization: `Bearer ${key}` } });
      assert.equal((await from(server, freshAddress(), '/v2/customers', { headers: { authorization: 'Bearer sk_sandbox_wrong' } })).status, 401);
      const rows = (await server.deps.store.db.execute(sql`select key from rate_limits`)) as unknown as { rows: { key: string }[] };
      if (store === 'memory') return assert.equal(rows.rows.length, 0);
      assert.ok(rows.rows.some((r) => r.key.startsWith('apiKey:')));
      assert.ok(rows.rows.some((r) => r.key.startsWith('authFailures:')));
      assert.ok(!rows.rows.some((r) => r.key.includes(key) || r.key.includes('sk_')), 'no API key in the counters table');
    });

    test('/demo/session is limited per client address', async (t) => {
      if (skip) return t.skip(skip);
      const address = freshAddress();
      const mint = () => from(server, address, '/demo/session', { method: 'POST', headers: { origin: 'http://ramp.test' } });
      assert.equal((await mint()).status, 201);
      assert.equal((await mint()).status, 201);
      isRateLimited(await mint());
      assert.equal((await from(server, freshAddress(), '/demo/session', { method: 'POST', headers: { origin: 'http://ramp.test' } })).status, 201);
    });
  });
}

describe('client address', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ ...LIMITS, RAMP_RATE_LIMIT_STORE: 'memory', RAMP_TRUST_PROXY: '1' });
  });
  after(async () => server?.close());

  test('behind one trusted proxy, the address it saw counts, whatever the client wrote before it in X-Forwarded-For', async () => {
    const mint = (xff: string) => from(server, '10.0.0.1', '/demo/session', { method: 'POST', headers: { origin: 'http://ramp.test', 'x-forwarded-for': xff } });
    assert.equal((await mint('1.1.1.1, 203.0.113.7')).status, 201);
    assert.equal((await mint('2.2.2.2, 203.0.113.7')).status, 201);
    isRateLimited(await mint('3.3.3.3, 203.0.113.7'));
    assert.equal((await mint('203.0.113.8')).status, 201, 'another client behind the same proxy has its own budget');
  });

  test('without RAMP_TRUST_PROXY, X-Forwarded-For is ignored: the socket address counts', async () => {
    const direct = await startTestServer({ ...LIMITS, RAMP_RATE_LIMIT_STORE: 'memory' });
    try {
      const mint = (xff: string) => from(direct, '10.0.0.2', '/demo/session', { method: 'POST', headers: { origin: 'http://ramp.test', 'x-forwarded-for': xff } });
      assert.equal((await mint('1.1.1.1')).status, 201);
      assert.equal((await mint('2.2.2.2')).status, 201);
      isRateLimited(await mint('3.3.3.3'));
    } finally {
      await direct.close();
    }
  });

  test('an IPv6 client is one /64; an IPv4-mapped address is its IPv4 address', () => {
    assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressKey('::ffff:192.0.2.9'), '192.0.2.9');
    assert.equal(addressKey('192.0.2.9'), '192.0.2.9');
  });
});

describe('rate limits shared through PostgreSQL', () => {
  test('two app instances on one database share each budget', async (t) => {
    if (!onPostgres) return t.skip('SKIPPED: needs DATABASE_URL=postgres://… (two processes cannot share PGlite)');
    const url = process.env.DATABASE_URL!;
    const schema = `ramp_test_rl_${process.pid}_${randomBytes(4).toString('hex')}`;
    const stores: Store[] = [await openStore({ databaseUrl: url, schema }), await openStore({ databaseUrl: url, schema })];
    const env = { ...LIMITS, RAMP_RATE_LIMIT_API_KEY: '6/60', RAMP_API_KEY: generateApiKey('sandbox'), RAMP_SESSION_SECRET: randomBytes(32).toString('hex') };
    const [a, b] = [await startTestServer(env, { store: stores[0] }), await startTestServer(env, { store: stores[1] })];
    try {
      assert.equal(a.deps.store.kind, 'postgres');
      const key = await partnerKey(a);
      const get = (s: TestServer) => from(s, freshAddress(), '/v2/customers', { headers: { authorization: `Bearer ${key}` } });
      for (const s of [a, b, a, b, a, b]) assert.equal((await get(s)).status, 200);
      isRateLimited(await get(b));
      isRateLimited(await get(a));

      // Refused keys too: ten on each instance spend one budget of twenty.
      const address = freshAddress();
      const wrong = (s: TestServer) => from(s, address, '/v2/customers', { headers: { authorization: `Bearer ${generateApiKey('sandbox')}` } });
      for (let i = 0; i < 10; i++) {
        assert.equal((await wrong(a)).status, 401);
        assert.equal((await wrong(b)).status, 401);
      }
      isRateLimited(await wrong(a));
      isRateLimited(await wrong(b));
    } finally {
      await a.close();
      await b.close();
      for (const s of stores) await s.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});

describe('leases of a shared budget (what each process does in front of PostgreSQL)', () => {
  /** A shared store that counts the calls made to it, standing in for the rate_limits table. */
  const counted = (points: number, seconds = 60) => {
    const store = new RateLimiterMemory({ points, duration: seconds });
    let calls = 0;
    const consume = store.consume.bind(store);
    store.consume = (key, n, opts) => {
      calls++;
      return consume(key, n, opts);
    };
    return { store, calls: () => calls };
  };

  test('a budget of 100 shared by three processes admits exactly 100, taking a lease of 5 per call to the store', async () => {
    const shared = counted(100);
    const processes = [new LeasedLimiter(shared.store), new LeasedLimiter(shared.store), new LeasedLimiter(shared.store)];
    assert.equal(processes[0]!.leaseSize, 5);
    let admitted = 0;
    let refused = 0;
    // Round robin, as a load balancer would: the budget is spent evenly, so no lease is left half used.
    for (let i = 0; i < 150; i++) {
      try {
        await processes[i % 3]!.consume('key');
        admitted++;
      } catch (err) {
        assert.ok(err instanceof RateLimiterRes);
        assert.ok(err.msBeforeNext > 0 && err.msBeforeNext <= 60_000);
        refused++;
      }
    }
    assert.equal(admitted, 100);
    assert.equal(refused, 50);
    assert.ok(shared.calls() <= 100 / 5 + 3, `store calls: ${shared.calls()}`);
  });

  test('concurrent requests with no lease wait on one call to the store; never more than the budget is admitted', async () => {
    const shared = counted(40);
    const a = new LeasedLimiter(shared.store);
    const b = new LeasedLimiter(shared.store);
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).consume('key')));
    const admitted = results.filter((r) => r.status === 'fulfilled').length;
    assert.ok(admitted <= 40 && admitted >= 40 - 2 * (a.leaseSize - 1), `admitted ${admitted}`);
    // 40 points in leases of 2: 20 grants at most, and each process asks again only when its lease is gone.
    assert.ok(shared.calls() <= 22 + 2, `store calls: ${shared.calls()}`);
  });

  test('a budget under twenty points is counted one point per call, exactly as without leases', async () => {
    const shared = counted(6);
    const a = new LeasedLimiter(shared.store);
    const b = new LeasedLimiter(shared.store);
    for (const l of [a, b, a, b, a, b]) await l.consume('key');
    await assert.rejects(a.consume('key'), RateLimiterRes);
    await assert.rejects(b.consume('key'), RateLimiterRes);
    // Six one-point leases; the process that took the last knows the budget is spent and refuses without asking.
    assert.equal(shared.calls(), 7);
  });

  test('a block set by another process is seen within a second; one set here at once', async () => {
    const shared = new RateLimiterMemory({ points: 2, duration: 60 });
    const here = new LeasedLimiter(shared);
    const there = new LeasedLimiter(shared);
    assert.equal(await here.blockedFor('addr'), 0);
    await there.consumeExact('addr');
    await there.consumeExact('addr');
    await assert.rejects(there.consumeExact('addr'), RateLimiterRes);
    assert.ok((await there.blockedFor('addr')) > 0, 'the process that counted the failure knows at once');
    assert.equal(await here.blockedFor('addr'), 0, 'the other still trusts what it read a moment ago');
    await new Promise((r) => setTimeout(r, 1100));
    assert.ok((await here.blockedFor('addr')) > 0, 'and reads the store again within a second');
  });
});

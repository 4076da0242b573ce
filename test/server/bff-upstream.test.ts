// Pure-BFF mode (RAMP_UPSTREAM_URL): a BFF in front of a shared Ramp service accepts only its own partner's widget sessions.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import { serverOptions } from '../../server/http/batched-response';
import { client, individual, newPartner, type TestServer, startTestServer } from './harness';

let upstream: TestServer;
let listening: ServerType;
let upstreamUrl: string;
let bffA: TestServer;

before(async () => {
  upstream = await startTestServer();
  listening = serve({ fetch: upstream.app.fetch, port: 0, hostname: '127.0.0.1', serverOptions });
  await new Promise<void>((resolve) => listening.once('listening', () => resolve()));
  upstreamUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  // Partner A's BFF: holds A's key (the upstream's bootstrap partner) and the upstream's session secret, as the README says.
  bffA = await startTestServer({ RAMP_UPSTREAM_URL: upstreamUrl, RAMP_API_KEY: upstream.apiKey, RAMP_SESSION_SECRET: upstream.deps.config.RAMP_SESSION_SECRET! });
});
after(async () => {
  await bffA?.close();
  await new Promise((resolve) => listening?.close(resolve));
  await upstream?.close();
});

const session = async (apiKey: string, body: Record<string, unknown> = {}) => {
  const res = await client(upstream, apiKey).post('/v2/widget-sessions', body);
  assert.equal(res.status, 201, res.text);
  return res.body.token as string;
};

describe('a pure BFF in front of an upstream shared by two partners', () => {
  test('GET /v2/partner names the partner an API key belongs to', async () => {
    const b = await newPartner(upstream, 'Partner B');
    const me = await b.api.get('/v2/partner');
    assert.equal(me.status, 200, me.text);
    assert.deepEqual({ id: me.body.id, name: me.body.name, environment: me.body.environment }, { id: b.partnerId, name: 'Partner B', environment: 'sandbox' });
    assert.equal((await client(upstream).get('/v2/partner')).status, 401);
  });

  test("partner A's BFF serves A's sessions", async () => {
    const { body: customer } = await client(upstream, upstream.apiKey).post('/v2/customers', individual());
    const bff = client(bffA, await session(upstream.apiKey, { customerId: customer.id }));
    const me = await bff.get('/bff/customer');
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.id, customer.id);
    const onboarding = client(bffA, await session(upstream.apiKey));
    const created = await onboarding.post('/bff/customers', individual());
    assert.equal(created.status, 201, created.text);
  });

  test("partner B's sessions, minted on the same upstream with the same secret, are refused by A's BFF", async () => {
    const b = await newPartner(upstream, 'Partner B');
    const { body: theirs } = await b.api.post('/v2/customers', individual());
    const bound = client(bffA, await session(b.apiKey, { customerId: theirs.id }));
    for (const reply of [await bound.get('/bff/session'), await bound.get('/bff/customer'), await bound.get('/bff/transactions')]) {
      assert.equal(reply.status, 401, reply.text);
      assert.equal(reply.body.code, 'UNAUTHENTICATED');
    }
    const fromOrigin = await client(bffA, await session(b.apiKey, { allowedOrigins: ['https://b.example'] })).get('/bff/session', { origin: 'https://a.example' });
    assert.equal(fromOrigin.status, 401, 'not a session here at all, whatever its origins');
    const aCustomersBefore = (await client(upstream, upstream.apiKey).get('/v2/customers?size=100')).body.data.length;
    const onboarding = client(bffA, await session(b.apiKey));
    const created = await onboarding.post('/bff/customers', individual());
    assert.equal(created.status, 401, `B's onboarding session creates nothing under A: ${created.text}`);
    assert.equal((await client(upstream, upstream.apiKey).get('/v2/customers?size=100')).body.data.length, aCustomersBefore);
    assert.equal((await b.api.get('/v2/customers?size=100')).body.data.length, 1);
  });

  test('a BFF whose upstream cannot be reached answers a problem, not a crash, and asks again once it is back', async () => {
    // A port that was free a moment ago: nothing listens there until the second half of the test.
    const probe = serve({ fetch: upstream.app.fetch, port: 0, hostname: '127.0.0.1', serverOptions });
    await new Promise<void>((resolve) => probe.once('listening', () => resolve()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const bff = await startTestServer({ RAMP_UPSTREAM_URL: `http://127.0.0.1:${port}`, RAMP_API_KEY: upstream.apiKey, RAMP_SESSION_SECRET: upstream.deps.config.RAMP_SESSION_SECRET! });
    let back: ServerType | undefined;
    try {
      const token = await session(upstream.apiKey);
      const res = await client(bff, token).get('/bff/session');
      assert.equal(res.status, 502, res.text);
      assert.equal(res.body.code, 'UPSTREAM_UNAVAILABLE');
      back = serve({ fetch: upstream.app.fetch, port, hostname: '127.0.0.1', serverOptions });
      await new Promise<void>((resolve) => back!.once('listening', () => resolve()));
      assert.equal((await client(bff, token).get('/bff/session')).status, 200, 'the failed ask was not remembered');
    } finally {
      if (back) await new Promise((resolve) => back!.close(resolve));
      await bff.close();
    }
  });
});

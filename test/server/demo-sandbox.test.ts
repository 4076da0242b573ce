// The demo page's sandbox controls: funding the wallet of the customer the widget session is bound to and moving the
// partner's clock, with the demo server's key. A session of no customer, of another partner, or none at all moves nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { balanceOf, client, individual, newPartner, type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

const demo = async (path: string, token: string | undefined, body: unknown) => {
  const res = await server.app.request(path, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

const usdcOnPolygon = (customerId: string) => balanceOf(client(server, server.apiKey), customerId);

test('funds the wallet of the session’s own customer, and only with a session bound to one', async () => {
  const api = client(server, server.apiKey);
  const customerId = await approvedIndividual(server, api, server.apiKey);
  const bound = (await api.post('/v2/widget-sessions', { customerId })).body.token as string;
  const unbound = (await api.post('/v2/widget-sessions', {})).body.token as string;
  const fund = { blockchain: 'POLYGON', stablecoin: 'USDC', amount: '100' };

  assert.equal((await demo('/demo/sandbox/fund', undefined, fund)).status, 401);
  const early = await demo('/demo/sandbox/fund', unbound, fund);
  assert.equal(early.status, 409);
  assert.equal(early.body.code, 'INVALID_STATE');

  const other = await newPartner(server);
  const theirs = (await other.api.post('/v2/widget-sessions', { customerId: (await other.api.post('/v2/customers', individual())).body.id })).body.token as string;
  assert.equal((await demo('/demo/sandbox/fund', theirs, fund)).status, 401, 'another partner’s session is not this demo’s');

  const ok = await demo('/demo/sandbox/fund', bound, fund);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.balance, '100.000000');
  assert.equal(await usdcOnPolygon(customerId), '100.000000');

  for (const [body, field] of [
    [{ ...fund, amount: '-5' }, 'amount'],
    [{ ...fund, customerId: '00000000-0000-4000-8000-000000000000' }, 'customerId'],
    [{ ...fund, blockchain: 'NOT_A_CHAIN' }, 'blockchain'],
  ] as const) {
    const bad = await demo('/demo/sandbox/fund', bound, body);
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.ok(bad.body.errors.some((e: { path: string }) => e.path === field), JSON.stringify(bad.body));
  }
  assert.equal((await demo('/demo/sandbox/fund', bound, '{"blockchain":')).status, 400);
  assert.equal(await usdcOnPolygon(customerId), '100.000000', 'nothing more was credited');
});

test('moves the partner’s clock forward by what was asked, and refuses nonsense', async () => {
  const api = client(server, server.apiKey);
  const customerId = (await api.post('/v2/customers', individual())).body.id as string;
  const bound = (await api.post('/v2/widget-sessions', { customerId })).body.token as string;
  const before = Date.now();
  const moved = await demo('/demo/sandbox/clock', bound, { seconds: 86_400 });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  assert.ok(Date.parse(moved.body.now) - before >= 86_400_000, moved.body.now);
  for (const seconds of [0, -1, 1.5, '60', 10 ** 12]) assert.equal((await demo('/demo/sandbox/clock', bound, { seconds })).status, 400, String(seconds));
});

// The routes the widget and the demo page added (a withdrawal, the sandbox controls), and a keyed /v2 write, against what
// a hostile or broken client sends: a body cut off mid-way, control characters, JSON nested past any sane depth, an
// expired session, a replayed key with another body. Each is a clear 4xx or nothing at all, never a 5xx, and moves no money.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import Decimal from 'decimal.js';
import { balanceOf, client, individual, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { approvedIndividual } from './kyc-helpers';
import { eventually, listen } from './uploads-helpers';

let server: TestServer;
let http: Awaited<ReturnType<typeof listen>>;
let customerId: string;
let token: string;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000', RAMP_SANDBOX_STEP_MS: '1000' });
  http = await listen(server);
  const api = client(server, server.apiKey);
  customerId = await approvedIndividual(server, api, server.apiKey);
  const funded = await api.post('/v2/sandbox/wallets/fund', { customerId, blockchain: 'BASE', stablecoin: 'USDC', amount: '20' });
  assert.equal(funded.status, 200, funded.text);
  token = (await api.post('/v2/widget-sessions', { customerId })).body.token;
});
after(async () => {
  await http.close();
  await server.close();
});

const outside = '0x52908400098527886E0F7030069857D2E4169EE7';
const withdrawal = { currency: 'USDC', blockchain: 'BASE', to: outside, amount: '1' };
const routes = [
  { path: '/bff/transactions/transfer', body: withdrawal, keyed: true },
  { path: '/demo/sandbox/fund', body: { blockchain: 'BASE', stablecoin: 'USDC', amount: '1' }, keyed: false },
  { path: '/demo/sandbox/clock', body: { seconds: 60 }, keyed: false },
];

const post = (path: string, body: string, headers: Record<string, string> = {}, bearer = token) => client(server, bearer).post(path, body, headers);

const key = () => ({ 'idempotency-key': `hostile-${Math.random().toString(36).slice(2)}` });

const usdcOnBase = () => balanceOf(client(server, server.apiKey), customerId, 'BASE');

const transfers = async () => (await client(server, token).get('/bff/transactions')).body.data.length as number;

/** Sends the head and part of a body that announces more, then drops the connection. */
function cutOff(path: string, body: string, cut: number, headers: Record<string, string> = { authorization: `Bearer ${token}`, ...key() }): Promise<void> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port: http.port,
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.slice(0, cut));
    setTimeout(() => req.destroy(), 50);
  });
}

describe('the widget routes against hostile bodies', () => {
  test('a body cut off mid-way moves nothing, and the server goes on answering', async () => {
    const before = { balance: await usdcOnBase(), transfers: await transfers() };
    for (const r of routes) {
      const text = JSON.stringify(r.body);
      await cutOff(r.path, text, Math.floor(text.length / 2));
    }
    // The cut requests may still be winding down: what they did (nothing) is read once they are gone.
    await eventually(() => usdcOnBase(), (b) => b === before.balance, 'the balance after cut bodies');
    assert.equal(await transfers(), before.transfers, 'no withdrawal from a cut body');
    const res = await fetch(`${http.base}/bff/session`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, 'the server still answers');
  });

  test('a /v2 body with an Idempotency-Key cut off mid-way leaves no claim and no row: the same key then runs once', async () => {
    const api = client(server, server.apiKey);
    const body = JSON.stringify(individual({ taxId: taxIdEndingIn('cpf', 3), email: 'cut@example.com' }));
    const headers = { authorization: `Bearer ${server.apiKey}`, 'idempotency-key': `cut-${Math.random().toString(36).slice(2)}` };
    await cutOff('/v2/customers', body, Math.floor(body.length / 2), headers);
    const listed = async () => (await api.get('/v2/customers?email=cut@example.com')).body.data.length as number;
    assert.equal(await listed(), 0, 'no customer from a cut body');
    const created = await api.post('/v2/customers', body, { 'idempotency-key': headers['idempotency-key'] });
    assert.equal(created.status, 201, created.text);
    const replayed = await api.post('/v2/customers', body, { 'idempotency-key': headers['idempotency-key'] });
    assert.equal(replayed.headers.get('idempotency-replayed'), 'true');
    assert.equal(replayed.body.id, created.body.id);
    assert.equal(await listed(), 1);
  });

  test('control characters and JSON nested ten thousand deep are 400s naming the field (or the body), never a 5xx', async () => {
    for (const r of routes) {
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const nested = await post(r.path, `{"amount":${deep}}`, key());
      assert.equal(nested.status, 400, `${r.path} deep: ${nested.text}`);
      assert.equal(nested.body.code, 'VALIDATION_FAILED');
      const nul = await post(r.path, JSON.stringify({ ...r.body, amount: '1\u0000', to: `${outside}\u0007`, seconds: '6\u00000' }), key());
      assert.equal(nul.status, 400, `${r.path} control characters: ${nul.text}`);
      assert.ok(nul.body.errors.length > 0, nul.text);
      for (const e of nul.body.errors) assert.ok(e.code && e.pointer !== undefined, `${r.path}: ${JSON.stringify(e)}`);
      const notJson = await post(r.path, '{"amount": "1",', key());
      assert.equal(notJson.status, 400, `${r.path} broken JSON: ${notJson.text}`);
    }
    const withdrawalErrors = (await post('/bff/transactions/transfer', JSON.stringify({ ...withdrawal, to: `${outside}\u0000` }), key())).body.errors;
    assert.deepEqual(withdrawalErrors.map((e: { path: string }) => e.path), ['to']);
  });

  test('an expired or forged session is a 401 on every route, and moves nothing', async () => {
    const before = await usdcOnBase();
    const expired = await server.deps.tokens.signWidgetSession({ partnerId: server.deps.partnerId!, customerId, allowedOrigins: [], expiresAt: new Date(Date.now() - 1000) });
    for (const r of routes) {
      for (const bearer of [expired, `${token.slice(0, -4)}AAAA`, '']) {
        const res = await post(r.path, JSON.stringify(r.body), key(), bearer);
        assert.equal(res.status, 401, `${r.path} with ${bearer === expired ? 'an expired' : bearer ? 'a forged' : 'no'} session: ${res.text}`);
      }
    }
    assert.equal(await usdcOnBase(), before);
  });

  test('a withdrawal key replayed with another body is a 409, and the first withdrawal stands alone', async () => {
    const before = await usdcOnBase();
    const headers = key();
    const first = await post('/bff/transactions/transfer', JSON.stringify(withdrawal), headers);
    assert.equal(first.status, 201, first.text);
    const other = await post('/bff/transactions/transfer', JSON.stringify({ ...withdrawal, amount: '2' }), headers);
    assert.equal(other.status, 409, other.text);
    assert.equal(other.body.code, 'IDEMPOTENCY_KEY_REUSED');
    const replay = await post('/bff/transactions/transfer', JSON.stringify(withdrawal), headers);
    assert.equal(replay.body.id, first.body.id);
    const spent = new Decimal(before).minus(await usdcOnBase()).toFixed(6);
    assert.equal(spent, '1.000000', 'one withdrawal of 1');
  });
});

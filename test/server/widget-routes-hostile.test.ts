// The routes the widget and the demo page added (a withdrawal, the sandbox controls) against what a hostile or broken
// client sends: a body cut off mid-way, control characters, JSON nested past any sane depth, an expired session, a
// replayed key with another body. Each is a clear 4xx or nothing at all, never a 5xx, and moves no money.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import Decimal from 'decimal.js';
import { client, type TestServer, startTestServer } from './harness';
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

async function post(path: string, body: string, headers: Record<string, string> = {}, bearer = token) {
  const res = await server.app.request(path, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  return { status: res.status, text, body: text ? (JSON.parse(text) as any) : undefined };
}

const key = () => ({ 'idempotency-key': `hostile-${Math.random().toString(36).slice(2)}` });

async function usdcOnBase(): Promise<string> {
  const { body } = await client(server, server.apiKey).get(`/v2/customers/${customerId}?includeBalances=true`);
  return body.wallets.find((w: any) => w.blockchain === 'BASE').balances.find((b: any) => b.stablecoin === 'USDC').balance;
}

const transfers = async () => (await client(server, token).get('/bff/transactions')).body.data.length as number;

/** Sends the head and part of a body that announces more, then drops the connection. */
function cutOff(path: string, body: string, cut: number): Promise<void> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port: http.port,
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...key() },
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

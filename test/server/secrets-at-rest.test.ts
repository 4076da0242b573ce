// Issue 32 item 7: working secrets are not kept in clear. Stored idempotent answers (API keys, widget tokens, webhook
// secrets, verification links) and webhook signing secrets are AES-256-GCM under keys derived from RAMP_SESSION_SECRET,
// bound to their row; replays and signatures are as before, and rows written in clear before this still work.
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { rowsOf } from '../../server/store/queries/idempotency';
import { SEALED_PREFIX } from '../../server/tokens';
import { webhookDispatcher } from '../../server/workers/webhooks';
import { client, individual, newPartner, type TestServer, startTestServer } from './harness';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_WEBHOOK_SCHEDULE: '0.02,0.02', RAMP_WEBHOOK_TIMEOUT_MS: '2000' });
});
after(() => server.close());

const db = () => server.deps.store.db;
/** Every column of the partner's stored answers and webhook endpoints, as text. */
async function rowText(partnerIds: string[]): Promise<string> {
  const ids = sql.join(partnerIds.map((p) => sql`${p}::uuid`), sql`, `);
  const keys = rowsOf<{ t: string }>(await db().execute(sql`SELECT row_to_json(k)::text AS t FROM idempotency_keys k WHERE partner_id IN (${ids})`));
  const hooks = rowsOf<{ t: string }>(await db().execute(sql`SELECT row_to_json(w)::text AS t FROM webhook_endpoints w WHERE partner_id IN (${ids})`));
  assert.ok(keys.length > 0);
  return [...keys, ...hooks].map((r) => r.t).join('\n');
}
const storedBody = async (partnerId: string, key: string) =>
  rowsOf<{ b: string }>(await db().execute(sql`SELECT response_body AS b FROM idempotency_keys WHERE partner_id = ${partnerId}::uuid AND key = ${key}`))[0]?.b;
const hashOf = (path: string, body: unknown) => createHash('sha256').update(`POST ${path}\n${JSON.stringify(body)}`).digest('hex');

async function receiver() {
  const got: { headers: IncomingMessage['headers']; body: string }[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { got, url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, close: () => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r()))) };
}

describe('stored answers and webhook secrets at rest', () => {
  test('no secret a request answered appears in its rows; each replay answers the same bytes', async () => {
    const boot = client(server, server.apiKey);
    const partner = await boot.post('/v2/sandbox/partners', { name: 'Keyed' }, { 'idempotency-key': 'partner-1' });
    assert.equal(partner.status, 201, partner.text);
    const bootPartnerId = server.deps.partnerId!;
    const { partnerId, apiKey } = partner.body as { partnerId: string; apiKey: string };
    const api = client(server, apiKey);

    const calls: { path: string; body: unknown; key: string; secret: (b: any) => string }[] = [
      { path: '/v2/webhook-endpoints', body: { url: 'http://127.0.0.1:9/hook' }, key: 'hook-1', secret: (b) => b.secret },
      { path: '/v2/widget-sessions', body: { allowedOrigins: ['https://partner.example'] }, key: 'session-1', secret: (b) => b.token },
      { path: '/v2/customers', body: individual(), key: 'customer-1', secret: (b) => b.verification.link.split('/verify/')[1] },
    ];
    const secrets = [apiKey];
    const answers = [partner.text];
    for (const c of calls) {
      const res = await api.post(c.path, c.body, { 'idempotency-key': c.key });
      assert.equal(res.status, 201, res.text);
      secrets.push(c.secret(res.body));
      answers.push(res.text);
    }
    const rotated = await api.post(`/v2/webhook-endpoints/${JSON.parse(answers[1]!).id}/rotate-secret`, { gracePeriodSeconds: 60 }, { 'idempotency-key': 'rotate-1' });
    assert.equal(rotated.status, 200, rotated.text);
    secrets.push(rotated.body.secret);
    for (const s of secrets) assert.ok(typeof s === 'string' && s.length >= 20, s);

    const text = await rowText([partnerId, bootPartnerId]);
    for (const s of secrets) assert.ok(!text.includes(s), `a secret is stored in clear: ${s.slice(0, 12)}…`);
    // Nor any part of a secret's text that a JSON escape would leave whole (the whsec_ base64, the key's random part).
    for (const s of secrets) assert.ok(!text.includes(s.slice(-16)), `part of a secret is stored in clear: …${s.slice(-16)}`);
    assert.ok((await storedBody(partnerId, 'hook-1'))!.startsWith(SEALED_PREFIX));

    // Replays: the same bytes, marked replayed.
    const again = await boot.post('/v2/sandbox/partners', { name: 'Keyed' }, { 'idempotency-key': 'partner-1' });
    assert.equal(again.headers.get('idempotency-replayed'), 'true');
    assert.equal(again.text, answers[0]);
    for (const [i, c] of calls.entries()) {
      const res = await api.post(c.path, c.body, { 'idempotency-key': c.key });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers.get('idempotency-replayed'), 'true');
      assert.equal(res.text, answers[i + 1]);
    }
    assert.equal((await api.get('/v2/webhook-endpoints')).body.data.length, 1, 'the replay created nothing');
  });

  test('an answer moved to another key or partner does not open: 409 IDEMPOTENCY_KEY_REUSED, and the request does not run again', async () => {
    const a = await newPartner(server);
    const b = await newPartner(server);
    const body = { url: 'http://127.0.0.1:9/hook' };
    assert.equal((await a.api.post('/v2/webhook-endpoints', body, { 'idempotency-key': 'k1' })).status, 201);

    await db().execute(sql`UPDATE idempotency_keys SET key = 'k2' WHERE partner_id = ${a.partnerId}::uuid AND key = 'k1'`);
    const moved = await a.api.post('/v2/webhook-endpoints', body, { 'idempotency-key': 'k2' });
    assert.equal(moved.status, 409, moved.text);
    assert.equal(moved.body.code, 'IDEMPOTENCY_KEY_REUSED');

    await db().execute(sql`INSERT INTO idempotency_keys SELECT ${b.partnerId}::uuid, key, request_hash, state, response_status, response_headers, response_body, created_at, locked_at
      FROM idempotency_keys WHERE partner_id = ${a.partnerId}::uuid AND key = 'k2'`);
    const copied = await b.api.post('/v2/webhook-endpoints', body, { 'idempotency-key': 'k2' });
    assert.equal(copied.status, 409, copied.text);
    assert.equal(copied.body.code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal((await a.api.get('/v2/webhook-endpoints')).body.data.length, 1);
    assert.equal((await b.api.get('/v2/webhook-endpoints')).body.data.length, 0);
  });

  test('a row stored in clear before this change still replays, byte for byte', async () => {
    const p = await newPartner(server);
    const body = { url: 'http://127.0.0.1:9/legacy' };
    const stored = '{"id":"00000000-0000-4000-8000-000000000001","secret":"whsec_legacy","note":"as stored before"}';
    await db().execute(sql`INSERT INTO idempotency_keys (partner_id, key, request_hash, state, response_status, response_headers, response_body)
      VALUES (${p.partnerId}::uuid, 'old', ${hashOf('/v2/webhook-endpoints', body)}, 'COMPLETE', 201, ${JSON.stringify({ 'content-type': 'application/json' })}::jsonb, ${stored})`);
    // Asked of the app directly: the harness's contract check would refuse this made-up body.
    const raw = await server.app.request('/v2/webhook-endpoints', {
      method: 'POST',
      headers: { authorization: `Bearer ${p.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'old' },
      body: JSON.stringify(body),
    });
    assert.equal(raw.status, 201);
    assert.equal(raw.headers.get('idempotency-replayed'), 'true');
    assert.equal(await raw.text(), stored);
    assert.equal((await p.api.get('/v2/webhook-endpoints')).body.data.length, 0);
  });

  test('deliveries are signed with the secret the endpoint was given, sealed or in clear; a secret that does not open signs nothing', async () => {
    const r = await receiver();
    after(() => r.close());
    const dispatcher = webhookDispatcher(server.deps);
    const { api } = await newPartner(server);
    const ep = await api.post('/v2/webhook-endpoints', { url: r.url });
    const secret = ep.body.secret as string;
    const verify = (i: number, s: string) => new Webhook(s).verify(r.got[i]!.body, r.got[i]!.headers as Record<string, string>);

    assert.equal((await api.post(`/v2/webhook-endpoints/${ep.body.id}/test`)).status, 202);
    await dispatcher.runDue();
    assert.equal(r.got.length, 1);
    verify(0, secret);
    assert.equal(r.got[0]!.headers['x-hub-signature'], `sha256=${createHmac('sha256', secret).update(r.got[0]!.body).digest('hex')}`);

    // An endpoint stored before encryption: its plain secret signs as it always did, and a rotation keeps it for the grace period.
    await db().execute(sql`UPDATE webhook_endpoints SET secret = ${secret} WHERE id = ${ep.body.id}::uuid`);
    const rotated = await api.post(`/v2/webhook-endpoints/${ep.body.id}/rotate-secret`, { gracePeriodSeconds: 60 });
    assert.equal((await api.post(`/v2/webhook-endpoints/${ep.body.id}/test`)).status, 202);
    await dispatcher.runDue();
    assert.equal(r.got.length, 2);
    verify(1, secret);
    verify(1, rotated.body.secret);

    // A sealed secret copied from another endpoint does not open: nothing is sent, the attempt fails and says why.
    const other = await api.post('/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/other' });
    assert.equal(other.status, 201, other.text);
    await db().execute(sql`UPDATE webhook_endpoints SET secret = (SELECT secret FROM webhook_endpoints WHERE id = ${other.body.id}::uuid), previous_secret = NULL WHERE id = ${ep.body.id}::uuid`);
    assert.equal((await api.post(`/v2/webhook-endpoints/${ep.body.id}/test`)).status, 202);
    await dispatcher.runDue();
    assert.equal(r.got.length, 2);
    const log = await api.get(`/v2/webhook-endpoints/${ep.body.id}/deliveries`);
    assert.match(log.body.data[0].error, /secret cannot be read/);
    await dispatcher.stop();
  });
});

// Webhook address safety as production runs it (RAMP_ENV=production): private addresses are refused at creation and never delivered to.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { generateSecret } from '../../server/domain/webhooks';
import { newId } from '../../server/ids';
import { insertEndpoint } from '../../server/store/queries/webhooks';
import { webhookDispatcher } from '../../server/workers/webhooks';
import { client, individual, type TestServer, startTestServer } from './harness';
import { stubSettlement } from './settlement-stub';
import { productionEnv } from './support/production-env';

const production = productionEnv();

/** Private, loopback, link-local and unspecified addresses, literal and by name, in the spellings a URL parser accepts. */
const PRIVATE_URLS = [
  'https://127.0.0.1/hook',
  'https://127.0.0.1:8443/hook',
  'https://2130706433/hook',
  'https://localhost/hook',
  'http://localhost/hook',
  'https://10.0.0.1/hook',
  'https://172.16.0.1/hook',
  'https://192.168.1.1/hook',
  'https://100.64.0.1/hook',
  'https://169.254.169.254/latest/meta-data/',
  'https://0.0.0.0/hook',
  'https://[::1]/hook',
  'https://[::]/hook',
  'https://[fe80::1]/hook',
  'https://[fc00::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:169.254.169.254]/hook',
  // Issue 32 item 10: forms a blocklist of prefixes missed.
  'https://[::127.0.0.1]/hook',
  'https://[::ffff:0:7f00:1]/hook',
  'https://[2002:7f00:1::]/hook',
  'https://[fec0::1]/hook',
  'https://[64:ff9b::a9fe:a9fe]/hook',
  'https://[2001::1]/hook',
];

let server: TestServer;
before(async () => {
  server = await startTestServer(production, { settlement: stubSettlement() });
});
after(() => server.close());

const api = () => client(server, production.RAMP_API_KEY);

/** A receiver on 127.0.0.1 that counts every TCP connection, so that even a refused TLS handshake would show. */
async function receiver() {
  const got: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const http: Server = createServer((req, res) => {
    got.push(`${req.method} ${req.url}`);
    res.writeHead(200).end('ok');
  });
  http.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    got,
    connections: () => connections,
    port: (http.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        http.close(() => resolve());
      }),
  };
}

describe('production webhook endpoints', () => {
  test('the server under test runs as production does', () => {
    assert.equal(server.deps.config.sandbox, false);
    assert.equal(server.deps.config.RAMP_ENV, 'production');
  });

  test('an endpoint at a private, loopback or link-local address (or plain http) is refused with a 400 naming url, and nothing is stored', async () => {
    try {
      for (const url of PRIVATE_URLS) {
        const res = await api().post('/v2/webhook-endpoints', { url });
        assert.equal(res.status, 400, `${url}: ${res.text}`);
        assert.equal(res.body.code, 'VALIDATION_FAILED', url);
        assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path), ['url'], `${url}: ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      }
      assert.deepEqual((await api().get('/v2/webhook-endpoints')).body.data, [], 'no endpoint was stored');
    } finally {
      // Whatever a failure let through goes, so that the delivery test below starts from no endpoint.
      for (const e of (await api().get('/v2/webhook-endpoints?size=100')).body.data) await api().send('DELETE', `/v2/webhook-endpoints/${e.id}`);
    }
  });

  test('a public https address is accepted (the check refuses addresses, not every URL), and cannot be moved to a private one', async () => {
    // An address literal: no DNS lookup, and the endpoint is removed before anything could be delivered to it.
    const created = await api().post('/v2/webhook-endpoints', { url: 'https://8.8.8.8/hook', events: ['customer.approved'] });
    assert.equal(created.status, 201, created.text);
    try {
      for (const url of ['https://127.0.0.1/hook', 'https://[::1]/hook', 'https://169.254.169.254/', 'http://8.8.8.8/hook']) {
        const moved = await api().patch(`/v2/webhook-endpoints/${created.body.id}`, { url });
        assert.equal(moved.status, 400, `${url}: ${moved.text}`);
        assert.deepEqual(moved.body.errors.map((e: { path: string }) => e.path), ['url']);
      }
      assert.equal((await api().get(`/v2/webhook-endpoints/${created.body.id}`)).body.url, 'https://8.8.8.8/hook', 'the address did not change');
    } finally {
      assert.equal((await api().send('DELETE', `/v2/webhook-endpoints/${created.body.id}`)).status, 204);
    }
  });
});

describe('production webhook delivery', () => {
  test('an endpoint stored at a private address is never delivered to: no connection reaches the receiver and the log shows the refusal', async () => {
    const r = await receiver();
    try {
      const { db } = server.deps.store;
      const partnerId = server.deps.partnerId!;
      // Rows as an older release (or a hand edit) might have left them: written straight to the store, past the creation check.
      const urls = [`http://127.0.0.1:${r.port}/hook`, `http://localhost:${r.port}/hook`, `https://127.0.0.1:${r.port}/hook`, `https://localhost:${r.port}/hook`, `https://[::ffff:127.0.0.1]:${r.port}/hook`];
      const now = new Date();
      const endpoints = [];
      for (const url of urls) endpoints.push(await insertEndpoint(db, { id: newId(), partnerId, url, events: ['customer.created'], description: null, secret: generateSecret(), createdAt: now, updatedAt: now }));
      assert.deepEqual((await api().get('/v2/webhook-endpoints')).body.data.map((e: { url: string }) => e.url).sort(), [...urls].sort(), 'only these endpoints exist');

      const customer = await api().post('/v2/customers', individual());
      assert.equal(customer.status, 201, customer.text);
      // The dispatcher as main.ts builds it, from the production config.
      const ran = await webhookDispatcher(server.deps).runDue();
      assert.equal(ran, urls.length, 'one attempt per endpoint was made');

      assert.equal(r.connections(), 0, `the receiver was reached: ${r.got.join(', ')}`);
      assert.deepEqual(r.got, []);
      for (const e of endpoints) {
        const log = await api().get(`/v2/webhook-endpoints/${e.id}/deliveries`);
        assert.equal(log.status, 200, log.text);
        assert.equal(log.body.data.length, 1, `${e.url}: one attempt logged`);
        const [attempt] = log.body.data;
        assert.equal(attempt.succeeded, false, e.url);
        assert.equal(attempt.statusCode, null, e.url);
        assert.match(attempt.error ?? '', /^refused: /, `${e.url}: ${attempt.error}`);
      }
    } finally {
      await r.close();
    }
  });
});

// The demo page's built-in webhook receiver: real deliveries over HTTP back to this server, verified with the
// standardwebhooks library; the log shows a session only its own customer's events, and a forged delivery as unverified.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { serve } from '@hono/node-server';
import { serverOptions } from '../../server/http/batched-response';
import { webhookDispatcher } from '../../server/workers/webhooks';
import { client, individual, type TestServer, startTestServer } from './harness';

let server: TestServer;
let base: string;
let close: () => void;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startTestServer({ RAMP_PUBLIC_URL: base, RAMP_WEBHOOK_SCHEDULE: '0.02,0.02', RAMP_WEBHOOK_TIMEOUT_MS: '2000' });
  const listening = serve({ fetch: server.app.fetch, port, hostname: '127.0.0.1', serverOptions });
  close = () => listening.close();
});
after(async () => {
  close();
  await server.close();
});

const log = async (token: string) => {
  const res = await fetch(`${base}/demo/webhooks`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { eventType: string; verified: boolean; webhookId: string }[] }).data;
};

test('a session sees its own customer’s deliveries, verified, and no other customer’s; a forged one shows as not verified', async () => {
  const api = client(server, server.apiKey);
  const sessionOf = async () => {
    const id = (await api.post('/v2/customers', individual())).body.id as string;
    return (await api.post('/v2/widget-sessions', { customerId: id })).body.token as string;
  };
  const [mine, theirs] = [await sessionOf(), await sessionOf()];
  // The first read registers the receiver; events not yet fanned out go to it too.
  assert.deepEqual(await log(mine), []);
  await webhookDispatcher(server.deps).runDue();
  const [a, b] = [await log(mine), await log(theirs)];
  assert.deepEqual(a.map((e) => [e.eventType, e.verified]), [['customer.created', true]]);
  assert.deepEqual(b.map((e) => [e.eventType, e.verified]), [['customer.created', true]]);
  assert.notEqual(a[0]!.webhookId, b[0]!.webhookId);

  const forged = await fetch(`${base}/demo/webhooks/receive`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
    body: JSON.stringify({ eventType: 'customer.approved', data: { id: JSON.parse(atob(mine.split('.')[1]!)).cid } }),
  });
  assert.equal(forged.status, 204);
  assert.deepEqual((await log(mine)).map((e) => [e.webhookId, e.eventType, e.verified])[0], ['msg_forged', 'customer.approved', false]);
  assert.equal((await log(theirs)).length, 1);

  assert.equal((await fetch(`${base}/demo/webhooks`)).status, 401);
});

// An endpoint subscribes to event types that exist: a name or prefix the service never sends is refused, naming the entry;
// and every type the service emits is in the published list.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EVENT_TYPES } from '../../src/contract/webhooks';
import { eventType, failureStatus, initialStatus, nextStatus, type TxStatus, type TxType } from '../../server/domain/transactions';
import { client, type TestServer, startTestServer } from './harness';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('an event type the service does not send, or a prefix of none, is refused with 400 naming events[n]; nothing is stored', async () => {
  const api = client(server, server.apiKey);
  const before = (await api.get('/v2/webhook-endpoints')).body.data.length;
  for (const [events, bad] of [
    [['onramp.completed'], 0],
    [['customer.', 'payment.'], 1],
    [['customer.approved', 'customer.approve'], 1],
  ] as const) {
    const res = await api.post('/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      [`events.${bad}`],
      res.text,
    );
  }
  assert.equal((await api.get('/v2/webhook-endpoints')).body.data.length, before);
  const ok = await api.post('/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['customer.', 'onramp.success', 'bank_account.approved'] });
  assert.equal(ok.status, 201, ok.text);
  const patched = await api.patch(`/v2/webhook-endpoints/${ok.body.id}`, { events: ['offramp.completed'] });
  assert.equal(patched.status, 400, patched.text);
  assert.equal(patched.body.errors[0].path, 'events.0');
});

test('every status a transaction can reach has its event type in the published list', () => {
  for (const type of ['ON_RAMP', 'OFF_RAMP', 'TRANSFER'] as TxType[]) {
    const reached = new Set<TxStatus>();
    for (let s: TxStatus | undefined = initialStatus(type); s; s = nextStatus(type, s)) reached.add(s);
    for (let s: TxStatus | undefined = failureStatus(type); s; s = nextStatus(type, s)) reached.add(s);
    for (const s of reached) assert.ok((EVENT_TYPES as readonly string[]).includes(eventType(type, s)), `${eventType(type, s)} is not listed`);
  }
});

// Issue 33 item 1: one slow, hanging or dead webhook receiver does not hold up the others. New events are fanned out and a
// healthy endpoint served while another hangs; a dead endpoint backs off on its own instead of being tried once per queued
// delivery; claims are fair across partners; an endpoint failing RAMP_WEBHOOK_PAUSE_AFTER times in a row is paused with an
// event, keeps its pending deliveries, and PATCH enabled: true resumes it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { newId } from '../../server/ids';
import { insertEvent } from '../../server/store/queries/events';
import { claimDueAttempts, fanOutEvents, insertEndpoint } from '../../server/store/queries/webhooks';
import { webhookDeliveries } from '../../server/store/schema/index';
import { webhookDispatcher } from '../../server/workers/webhooks';
import { NON_PUBLIC_FAILURE } from '../../server/workers/webhook-sender';
import { scaledMs } from '../support/server-child';
import { individual, newPartner, startTestServer, type TestServer } from './harness';
import { fillerEvent } from './support/event-payloads';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A receiver on 127.0.0.1:0: `hang` keeps the request open until close, a number answers with that status. */
async function receiver(answer: () => number | 'hang' = () => 200) {
  const got: { at: number; body: string }[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ at: Date.now(), body });
      const a = answer();
      if (a === 'hang') hanging.push(res);
      else res.writeHead(a).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    got,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    ids: () => got.map((g) => JSON.parse(g.body).data.id as string),
    close: () =>
      new Promise<void>((resolve) => {
        for (const h of hanging) h.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(what: string, cond: () => boolean | Promise<boolean>, ms: number, step: () => Promise<unknown> = async () => {}) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await step();
    await sleep(20);
  }
}

let server: TestServer;
/** Leaves nothing of a test due for the next test's dispatchers. */
const cancelPending = (...partnerIds: string[]) =>
  server.deps.store.db
    .update(webhookDeliveries)
    .set({ status: 'cancelled' })
    .where(and(eq(webhookDeliveries.status, 'pending'), sql`${webhookDeliveries.partnerId} IN (${sql.join(partnerIds.map((id) => sql`${id}::uuid`), sql`, `)})`));
before(async () => {
  // A hanging receiver holds an attempt for the whole timeout: 10 s, as in production.
  server = await startTestServer({ RAMP_WEBHOOK_TIMEOUT_MS: '10000', RAMP_WEBHOOK_SCHEDULE: '0.05,0.05,0.05,0.05,0.05' });
});
after(() => server.close());

test('while one partner’s receiver hangs, another partner’s events are fanned out and delivered within seconds of their creation', { timeout: 60_000 }, async (t) => {
  const dead = await receiver(() => 'hang');
  const healthy = await receiver(() => 200);
  const slow = await newPartner(server);
  const fine = await newPartner(server);
  assert.equal((await slow.api.post('/v2/webhook-endpoints', { url: dead.url, events: ['customer.created'] })).status, 201);
  assert.equal((await fine.api.post('/v2/webhook-endpoints', { url: healthy.url, events: ['customer.created'] })).status, 201);
  for (let i = 0; i < 12; i++) assert.equal((await slow.api.post('/v2/customers', individual())).status, 201);
  const dispatcher = webhookDispatcher({ ...server.deps, config: { ...server.deps.config, RAMP_WEBHOOK_POLL_MS: 50 } });
  t.after(async () => {
    await dead.close();
    await healthy.close();
    await dispatcher.stop();
    await cancelPending(slow.partnerId, fine.partnerId);
  });
  dispatcher.start();
  await until('the hanging receiver to hold attempts', () => dead.got.length >= 1, scaledMs(10_000));

  // Each of the healthy partner's events, created while attempts hang (10 s each), arrives well before any of them ends.
  const bound = scaledMs(3000);
  for (let i = 0; i < 5; i++) {
    const created = Date.now();
    const id = (await fine.api.post('/v2/customers', individual())).body.id as string;
    await until(`event ${i + 1} of the healthy partner (within ${bound} ms while the other receiver hangs)`, () => healthy.ids().includes(id), bound);
    t.diagnostic(`event ${i + 1}: ${Date.now() - created} ms from creation to the healthy receiver`);
  }
  // The hanging endpoint holds at most its per-endpoint share of slots: two attempts at a time.
  assert.ok(dead.got.length <= 2, `attempts open at the hanging receiver: ${dead.got.length}`);
});

test('a dead endpoint with many queued deliveries backs off on its own: a pass tries it a couple of times, not once per delivery', async (t) => {
  // Refuses connections: a port that was open and is closed.
  const probe = await receiver();
  const url = probe.url;
  await probe.close();
  const { api, partnerId } = await newPartner(server);
  const ep = await api.post('/v2/webhook-endpoints', { url, events: ['customer.created'] });
  assert.equal(ep.status, 201);
  for (let i = 0; i < 15; i++) assert.equal((await api.post('/v2/customers', individual())).status, 201);
  // Each failed delivery waits 60 s for its own retry; the endpoint waits as long before any attempt.
  const dispatcher = webhookDispatcher({ ...server.deps, config: { ...server.deps.config, webhookSchedule: [60, 60] } });
  t.after(async () => {
    await dispatcher.stop();
    await cancelPending(partnerId);
  });
  await dispatcher.runDue();
  await dispatcher.runDue();
  const log = await api.get(`/v2/webhook-endpoints/${ep.body.id}/deliveries?size=100`);
  assert.equal(log.body.data.length, 2, 'two attempts (the per-endpoint cap), then the endpoint waits for its backoff');
  assert.ok(log.body.data.every((a: { succeeded: boolean; error: string }) => !a.succeeded && a.error === NON_PUBLIC_FAILURE), log.text);
});

test('claims are fair: with hundreds of deliveries due to one partner’s endpoints, another partner’s first delivery is in the next claim', async () => {
  const { db } = server.deps.store;
  const busy = (await newPartner(server)).partnerId;
  const late = (await newPartner(server)).partnerId;
  const endpoint = (partnerId: string) => insertEndpoint(db, { id: newId(), partnerId, url: 'http://127.0.0.1:9/hook', events: null, secret: `whsec_${randomBytes(32).toString('base64')}` });
  const busyEndpoints = [await endpoint(busy), await endpoint(busy), await endpoint(busy)];
  for (let i = 0; i < 200; i++) await insertEvent(db, fillerEvent(busy, i), new Date());
  while ((await fanOutEvents(db, new Date())) > 0);
  // Older than anything the new partner will have: an oldest-first claim would take these first.
  await db.update(webhookDeliveries).set({ nextAttemptAt: new Date(Date.now() - 3_600_000) }).where(eq(webhookDeliveries.partnerId, busy));
  const lateEndpoint = await endpoint(late);
  await insertEvent(db, fillerEvent(late), new Date());
  while ((await fanOutEvents(db, new Date())) > 0);

  const claimed = await claimDueAttempts(db, new Date(), 60_000, 5, { perEndpoint: 2 });
  assert.equal(claimed.length, 5);
  assert.ok(claimed.some((c) => c.endpoint.id === lateEndpoint.id), 'the new partner’s delivery was claimed');
  const perEndpoint = new Map<string, number>();
  for (const c of claimed) perEndpoint.set(c.endpoint.id, (perEndpoint.get(c.endpoint.id) ?? 0) + 1);
  assert.ok([...perEndpoint.values()].every((n) => n <= 2), 'at most two per endpoint');
  // Deliveries in flight count against the cap: an endpoint with two in flight gets none.
  const inFlight = new Map(busyEndpoints.map((e) => [e.id, 2]));
  const next = await claimDueAttempts(db, new Date(), 60_000, 5, { perEndpoint: 2, inFlight });
  assert.deepEqual(next.filter((c) => busyEndpoints.some((e) => e.id === c.endpoint.id)), []);
  await cancelPending(busy, late);
});

test('an endpoint failing RAMP_WEBHOOK_PAUSE_AFTER times in a row is paused with an event; its deliveries wait; PATCH enabled: true resumes it', async (t) => {
  let status = 500;
  const failing = await receiver(() => status);
  const watcher = await receiver(() => 200);
  t.after(async () => {
    await failing.close();
    await watcher.close();
  });
  const { api } = await newPartner(server);
  const ep = await api.post('/v2/webhook-endpoints', { url: failing.url, events: ['customer.created'] });
  const other = await api.post('/v2/webhook-endpoints', { url: watcher.url, events: ['webhook_endpoint.'] });
  assert.equal(other.status, 201, other.text);
  const customers: string[] = [];
  for (let i = 0; i < 3; i++) customers.push((await api.post('/v2/customers', individual())).body.id);
  const dispatcher = webhookDispatcher({ ...server.deps, config: { ...server.deps.config, webhookSchedule: Array(10).fill(0.02), RAMP_WEBHOOK_PAUSE_AFTER: 4 } });
  t.after(() => dispatcher.stop());
  await until('the endpoint to be paused', async () => (await api.get(`/v2/webhook-endpoints/${ep.body.id}`)).body.enabled === false, scaledMs(10_000), () => dispatcher.runDue());
  const paused = (await api.get(`/v2/webhook-endpoints/${ep.body.id}`)).body;
  assert.match(paused.disabledReason, /^4 attempts in a row failed$/);
  assert.ok(paused.disabledAt);
  const attemptsWhenPaused = failing.got.length;
  assert.ok(attemptsWhenPaused >= 4 && attemptsWhenPaused <= 5, `attempts before the pause: ${attemptsWhenPaused}`);

  // The event says so, on GET /v2/events and to the partner's other endpoint.
  const events = await api.get('/v2/events?eventType=webhook_endpoint.paused');
  assert.equal(events.status, 200, events.text);
  assert.equal(events.body.data.length, 1);
  assert.equal(events.body.data[0].data.id, ep.body.id);
  assert.equal(events.body.data[0].data.disabledReason, paused.disabledReason);
  await until('the paused event at the other endpoint', () => watcher.got.length === 1, scaledMs(5000), () => dispatcher.runDue());
  assert.equal(JSON.parse(watcher.got[0]!.body).eventType, 'webhook_endpoint.paused');

  // Paused: nothing more is sent, new events skip it, its pending deliveries wait.
  const later = (await api.post('/v2/customers', individual())).body.id as string;
  await dispatcher.runDue();
  await sleep(100);
  await dispatcher.runDue();
  assert.equal(failing.got.length, attemptsWhenPaused, 'no attempt to a paused endpoint');
  const pending = await server.deps.store.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.endpointId, ep.body.id), eq(webhookDeliveries.status, 'pending')));
  assert.equal(pending.length, 3, 'its three deliveries wait');

  // Resumed: its pending deliveries go out at once.
  status = 200;
  const resumed = await api.patch(`/v2/webhook-endpoints/${ep.body.id}`, { enabled: true });
  assert.equal(resumed.status, 200, resumed.text);
  assert.equal(resumed.body.enabled, true);
  assert.equal(resumed.body.disabledReason, null);
  await until('every waiting event after the resume', () => customers.every((id) => failing.ids().includes(id)), scaledMs(5000), () => dispatcher.runDue());
  assert.ok(!failing.ids().includes(later), 'an event written while it was paused was not queued to it');
  assert.equal(watcher.got.length, 1, 'one paused event');
});

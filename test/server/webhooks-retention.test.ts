// Issue 33 item 7: a webhook attempt cut off by a kill is closed in the deliveries log when its delivery is tried again,
// and events and attempts have a retention (cleaned in batches): an event outlives every retry and redelivery it needs.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { eq, inArray, sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../../server/config';
import { newId } from '../../server/ids';
import { createLogger } from '../../server/logger';
import type { Store } from '../../server/store/db';
import { insertEvent } from '../../server/store/queries/events';
import { claimDueAttempts, fanOutEvents, finishAttempt, INTERRUPTED, insertEndpoint } from '../../server/store/queries/webhooks';
import { events, webhookAttempts, webhookDeliveries } from '../../server/store/schema/index';
import { JobRunner } from '../../server/workers/runner';
import { client, openTestStore, startTestServer, type TestServer } from './harness';
import { fillerEvent } from './support/event-payloads';

let opened: Awaited<ReturnType<typeof openTestStore>>;
let store: Store;
let server: TestServer;
let partnerId: string;
const logger = createLogger('info', new Writable({ write: (_c, _e, cb) => cb() }));
const clock = { now: () => new Date(), within: <T>(_offsetMs: number, fn: () => Promise<T>) => fn() };
const DAY = 86_400_000;

before(async () => {
  opened = await openTestStore();
  store = opened.store;
  server = await startTestServer({}, { store });
  partnerId = server.deps.partnerId!;
});
after(async () => {
  await server.close();
  await opened.drop();
});

const endpoint = () => insertEndpoint(store.db, { id: newId(), partnerId, url: 'https://hooks.example/x', events: null, secret: `whsec_${randomBytes(24).toString('base64')}` });
const event = () => insertEvent(store.db, fillerEvent(partnerId), new Date());

test('an attempt whose sender died is closed as interrupted when its delivery is tried again, and the log shows it', async () => {
  const ep = await endpoint();
  await event();
  await fanOutEvents(store.db, new Date());
  // The first sender claims the attempt with a short lease and dies before the receiver answers.
  const [first] = (await claimDueAttempts(store.db, new Date(), 10)).filter((a) => a.endpoint.id === ep.id);
  assert.ok(first);
  await new Promise((r) => setTimeout(r, 30));
  const [second] = (await claimDueAttempts(store.db, new Date(), 60_000)).filter((a) => a.endpoint.id === ep.id);
  assert.equal(second?.attempt, 2);
  const [closed] = await store.db.select().from(webhookAttempts).where(eq(webhookAttempts.id, first.attemptId));
  assert.ok(closed!.finishedAt, 'no longer in flight');
  assert.equal(closed!.succeeded, false);
  assert.equal(closed!.error, INTERRUPTED);
  await finishAttempt(store.db, { attemptId: second.attemptId, deliveryId: second.deliveryId, attempt: 2, statusCode: 200, durationMs: 5, error: null, succeeded: true, at: new Date() });
  const log = await client(server, server.apiKey).get(`/v2/webhook-endpoints/${ep.id}/deliveries`);
  assert.equal(log.status, 200, log.text);
  assert.ok(log.body.data.every((a: { finishedAt: string | null }) => a.finishedAt), JSON.stringify(log.body.data));
});

test('cleanup deletes old events once their webhooks are done with them (deliveries and attempts too), and old attempts, in batches', async () => {
  const ep = await endpoint();
  const [done, pending, unsent, recent] = [await event(), await event(), await event(), await event()];
  await fanOutEvents(store.db, new Date());
  // Every delivery of `done` succeeded; `pending` still has one due.
  for (const a of await claimDueAttempts(store.db, new Date(), 60_000, 100)) {
    if (a.event.id === done || a.event.id === recent) await finishAttempt(store.db, { attemptId: a.attemptId, deliveryId: a.deliveryId, attempt: a.attempt, statusCode: 200, durationMs: 1, error: null, succeeded: true, at: new Date() });
  }
  const longAgo = new Date(Date.now() - 100 * DAY);
  await store.db.update(events).set({ createdAt: longAgo }).where(inArray(events.id, [done, pending, unsent]));
  await store.db.update(events).set({ fannedOutAt: null }).where(eq(events.id, unsent));
  // 150 old attempts of another event, in the log only.
  const other = await event();
  await store.db.insert(webhookAttempts).values(
    Array.from({ length: 150 }, (_, i) => ({ id: newId(), partnerId, deliveryId: other, endpointId: ep.id, eventId: other, eventType: 'webhook.test', attempt: i + 1, startedAt: new Date(Date.now() - 40 * DAY), finishedAt: new Date(Date.now() - 40 * DAY) })),
  );
  const r = new JobRunner(store.db, clock, logger, {}, { cleanupBatch: 50, eventRetentionMs: 90 * DAY, attemptRetentionMs: 30 * DAY });
  const out = await r.cleanup();
  assert.equal(out.events, 1, 'only the old event whose deliveries are all done');
  assert.ok(out.webhookAttempts >= 150, `${out.webhookAttempts} attempts`);
  const left = (await store.db.select({ id: events.id }).from(events).where(inArray(events.id, [done, pending, unsent, recent]))).map((e) => e.id);
  assert.deepEqual(left.sort(), [pending, unsent, recent].sort(), 'a pending delivery or one not yet fanned out keeps its event; a recent one stays');
  assert.equal((await store.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, done))).length, 0);
  assert.equal((await store.db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, done))).length, 0);
  assert.equal((await store.db.execute(sql`select 1 from webhook_attempts where event_id = ${other}`) as unknown as { rows: unknown[] }).rows.length, 0);
  assert.deepEqual(await r.cleanup(), { idempotencyKeys: 0, jobs: 0, events: 0, webhookAttempts: 0, sessionUploads: 0 });
});

test('an event retention shorter than a delivery’s whole schedule (plus a day) is refused at start', () => {
  assert.throws(() => loadConfig({ RAMP_ENV: 'sandbox', RAMP_WEBHOOK_SCHEDULE: '60,3600,86400', RAMP_EVENT_RETENTION_MS: String(DAY) }), (e: Error) => e instanceof ConfigError && /^RAMP_EVENT_RETENTION_MS: /.test(e.message));
  assert.equal(loadConfig({}).RAMP_EVENT_RETENTION_MS, 90 * DAY);
  assert.equal(loadConfig({}).RAMP_WEBHOOK_ATTEMPT_RETENTION_MS, 30 * DAY);
});

// Webhook endpoints and manual deliveries: creation with a secret shown once, edits, rotation with a grace period, redelivery, test events.
import { AppError, invalid, notFound } from '../domain/errors';
import { generateSecret } from '../domain/webhooks';
import type { Deps } from '../http/deps';
import { newId } from '../ids';
import type { Db } from '../store/db';
import { insertEvent } from '../store/queries/events';
import { createDeliveries, deleteEndpoint, getEndpoint, getEvent, insertEndpoint, updateEndpoint, type WebhookEndpointRow } from '../store/queries/webhooks';
import { assertPublicUrl, UnsafeAddressError } from '../workers/webhook-sender';
import { events } from '../store/schema/index';
import { eq } from 'drizzle-orm';

type FlowDeps = Pick<Deps, 'config' | 'clock'>;

/** Production: https only, and the host must resolve to public addresses only (checked again at every delivery). */
async function checkUrl(deps: FlowDeps, url: string): Promise<void> {
  if (deps.config.sandbox) return;
  try {
    await assertPublicUrl(url);
  } catch (err) {
    if (err instanceof UnsafeAddressError) throw invalid([{ path: 'url', message: err.message }]);
    throw err;
  }
}

export async function createEndpoint(db: Db, deps: FlowDeps, partnerId: string, input: { url: string; events?: string[]; description?: string }) {
  await checkUrl(deps, input.url);
  const now = deps.clock.now();
  return insertEndpoint(db, { id: newId(), partnerId, url: input.url, events: input.events ?? null, description: input.description ?? null, secret: generateSecret(), createdAt: now, updatedAt: now });
}

export async function findEndpoint(db: Db, partnerId: string, id: string): Promise<WebhookEndpointRow> {
  const row = await getEndpoint(db, partnerId, id);
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

export async function editEndpoint(db: Db, deps: FlowDeps, partnerId: string, id: string, patch: { url?: string; events?: string[] | null; description?: string | null; enabled?: boolean }) {
  const row = await findEndpoint(db, partnerId, id);
  if (patch.url !== undefined) await checkUrl(deps, patch.url);
  return updateEndpoint(db, row.id, { ...patch, updatedAt: deps.clock.now() });
}

export async function removeEndpoint(db: Db, partnerId: string, id: string): Promise<void> {
  const row = await findEndpoint(db, partnerId, id);
  await db.transaction((tx) => deleteEndpoint(tx as unknown as Db, row.id));
}

/** A new secret; the old one keeps signing (a second `v1,` entry) for `graceSeconds`. */
export async function rotateSecret(db: Db, deps: FlowDeps, partnerId: string, id: string, graceSeconds: number) {
  const row = await findEndpoint(db, partnerId, id);
  const now = new Date();
  return updateEndpoint(db, row.id, {
    secret: generateSecret(),
    previousSecret: graceSeconds > 0 ? row.secret : null,
    previousSecretExpiresAt: graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null,
    updatedAt: deps.clock.now(),
  });
}

/** New deliveries of an event to every enabled endpoint subscribed to its type (attempts start over at 1). */
export async function redeliver(db: Db, partnerId: string, eventId: string) {
  const event = await getEvent(db, partnerId, eventId);
  if (!event) throw notFound('Event');
  const deliveries = await createDeliveries(db, event, new Date());
  if (!deliveries.length) throw new AppError('INVALID_STATE', 'no enabled webhook endpoint subscribes to this event type');
  return { eventId: event.id, deliveries };
}

/** A `webhook.test` event delivered to this endpoint only (whatever its filter), signed like any other. */
export async function sendTestEvent(db: Db, deps: FlowDeps, partnerId: string, id: string) {
  const endpoint = await findEndpoint(db, partnerId, id);
  if (!endpoint.enabled) throw new AppError('INVALID_STATE', 'the endpoint is disabled: enable it first');
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const at = deps.clock.now();
    const eventId = await insertEvent(t, { partnerId, eventType: 'webhook.test', data: { endpointId: endpoint.id, message: 'A test event from Ramp' } }, at);
    await t.update(events).set({ fannedOutAt: at }).where(eq(events.id, eventId));
    const [event] = await t.select().from(events).where(eq(events.id, eventId));
    const deliveries = await createDeliveries(t, event!, new Date(), [{ ...endpoint, events: null }]);
    return { eventId, deliveries };
  });
}

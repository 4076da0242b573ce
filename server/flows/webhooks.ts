// Webhook endpoints and manual deliveries: creation with a secret shown once, edits, rotation with a grace period, redelivery, test events.
import { AppError, invalid, notFound } from '../domain/errors';
import { generateSecret } from '../domain/webhooks';
import type { Deps } from '../deps';
import { newId } from '../ids';
import { type Db, inTransaction } from '../store/db';
import { insertEvent } from '../store/queries/events';
import { presentWebhookEndpoint } from '../presenters';
import { createDeliveries, deleteEndpoint, getEndpoint, getEvent, insertEndpoint, listAttempts, listEndpoints, pauseEndpoint, resumeEndpoint, updateEndpoint, type WebhookEndpointRow } from '../store/queries/webhooks';
import { assertPublicUrl, UnsafeAddressError } from '../providers/public-address';
import { events } from '../store/schema/index';
import { eq } from 'drizzle-orm';

type FlowDeps = Pick<Deps, 'config' | 'clock' | 'tokens'>;

/** What an endpoint's stored secret is bound to: a secret copied to another endpoint's row does not open. */
export const secretContext = (row: { partnerId: string; id: string }) => JSON.stringify([row.partnerId, row.id]);

/** Production: https only, and the host must resolve to public addresses only (checked again at every delivery). */
async function checkUrl(deps: FlowDeps, url: string): Promise<void> {
  if (deps.config.sandbox) return;
  try {
    await assertPublicUrl(url);
  } catch (err) {
    if (err instanceof UnsafeAddressError) throw invalid([{ path: 'url', message: err.message, code: 'INVALID_ADDRESS' }]);
    throw err;
  }
}

/** The new endpoint, with its secret in clear (shown once); the row keeps it encrypted. */
export async function createEndpoint(db: Db, deps: FlowDeps, partnerId: string, input: { url: string; events?: string[]; description?: string }) {
  await checkUrl(deps, input.url);
  const now = deps.clock.now();
  const id = newId();
  const secret = generateSecret();
  const sealed = deps.tokens.webhookSecrets.seal(secret, secretContext({ partnerId, id }));
  const row = await insertEndpoint(db, { id, partnerId, url: input.url, events: input.events ?? null, description: input.description ?? null, secret: sealed, createdAt: now, updatedAt: now });
  return { ...row, secret };
}

export async function findEndpoint(db: Db, partnerId: string, id: string): Promise<WebhookEndpointRow> {
  const row = await getEndpoint(db, partnerId, id);
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

export async function editEndpoint(db: Db, deps: FlowDeps, partnerId: string, id: string, patch: { url?: string; events?: string[] | null; description?: string | null; enabled?: boolean }) {
  const row = await findEndpoint(db, partnerId, id);
  if (patch.url !== undefined) await checkUrl(deps, patch.url);
  const now = deps.clock.now();
  return inTransaction(db, async (tx) => {
    const t = tx as unknown as Db;
    // `enabled: true` on a disabled endpoint resumes it: a paused one's waiting deliveries go out again from now.
    if (patch.enabled === true && !row.enabled) await resumeEndpoint(t, row.id, now);
    // Disabled by the partner: no reason of the service's, and its pending deliveries are cancelled.
    const reason = patch.enabled === false ? { disabledReason: null, disabledAt: now } : {};
    return updateEndpoint(t, row.id, { ...patch, ...reason, updatedAt: now });
  });
}

/**
 * Pauses an endpoint whose last `failures` attempts in a row failed, and writes `webhook_endpoint.paused` (to the partner's
 * other endpoints, and GET /v2/events), once. Resumed with PATCH `enabled: true`.
 */
export async function pauseFailingEndpoint(db: Db, endpointId: string, failures: number, at: Date): Promise<WebhookEndpointRow | undefined> {
  return inTransaction(db, async (tx) => {
    const t = tx as unknown as Db;
    const row = await pauseEndpoint(t, endpointId, `${failures} attempts in a row failed`, at);
    if (row) await insertEvent(t, { partnerId: row.partnerId, eventType: 'webhook_endpoint.paused', data: presentWebhookEndpoint(row) }, at);
    return row;
  });
}

export async function removeEndpoint(db: Db, partnerId: string, id: string): Promise<void> {
  const row = await findEndpoint(db, partnerId, id);
  await inTransaction(db, (tx) => deleteEndpoint(tx as unknown as Db, row.id));
}

/** A new secret, answered in clear (shown once); the old one keeps signing (a second `v1,` entry) for `graceSeconds`. */
export async function rotateSecret(db: Db, deps: FlowDeps, partnerId: string, id: string, graceSeconds: number) {
  const row = await findEndpoint(db, partnerId, id);
  const now = new Date();
  const secret = generateSecret();
  const updated = await updateEndpoint(db, row.id, {
    secret: deps.tokens.webhookSecrets.seal(secret, secretContext(row)),
    // Kept as stored (sealed for this endpoint, or plain from before encryption): the dispatcher opens either.
    previousSecret: graceSeconds > 0 ? row.secret : null,
    previousSecretExpiresAt: graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null,
    updatedAt: deps.clock.now(),
  });
  return { ...updated, secret };
}

/** New deliveries of an event to every enabled endpoint subscribed to its type (attempts start over at 1). */
/** A page of the partner's endpoints. */
export const listPartnerEndpoints = (db: Db, partnerId: string, pageQuery: Parameters<typeof listEndpoints>[2]) => listEndpoints(db, partnerId, pageQuery);

/** A page of the delivery log of the partner's endpoint (404 for another partner's). */
export async function listEndpointDeliveries(db: Db, partnerId: string, endpointId: string, pageQuery: Parameters<typeof listAttempts>[2]) {
  const endpoint = await findEndpoint(db, partnerId, endpointId);
  return listAttempts(db, endpoint.id, pageQuery);
}

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
  return inTransaction(db, async (tx) => {
    const t = tx as unknown as Db;
    const at = deps.clock.now();
    const eventId = await insertEvent(t, { partnerId, eventType: 'webhook.test', data: { endpointId: endpoint.id, message: 'A test event from Ramp' } }, at);
    await t.update(events).set({ fannedOutAt: at }).where(eq(events.id, eventId));
    const [event] = await t.select().from(events).where(eq(events.id, eventId));
    const deliveries = await createDeliveries(t, event!, new Date(), [{ ...endpoint, events: null }]);
    return { eventId, deliveries };
  });
}

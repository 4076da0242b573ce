// The demo page's built-in webhook receiver (sandbox, in process): an endpoint of the demo partner's that points back at
// this server, whose deliveries are verified with the `standardwebhooks` library exactly as a partner's receiver would,
// and a log the demo page reads with its widget session — only the events about that session's customer, so visitors
// of one demo server never see each other's.
import { type MiddlewareHandler, Hono } from 'hono';
import { Webhook } from 'standardwebhooks';
import type { BffEnv } from '../bff/session';
import { AppError } from '../domain/errors';
import { createEndpoint, rotateSecret } from '../flows/webhooks';
import type { Deps } from '../deps';
import { getEndpointByUrl } from '../store/queries/webhooks';

export interface ReceivedWebhook {
  webhookId: string;
  eventType: string;
  receivedAt: string;
  /** The signature checked out with the endpoint's secret (and the timestamp is within five minutes). */
  verified: boolean;
  customerId: string | undefined;
}

/** What one process keeps: enough for a demo session, bounded whatever arrives. */
const KEPT = 500;
const MAX_BODY_BYTES = 256 * 1024;

/** The customer an event is about: the customer itself, or the owner of a transaction or bank account. */
function customerOf(eventType: string, data: unknown): string | undefined {
  const d = (data ?? {}) as { id?: unknown; customerId?: unknown };
  const id = eventType.startsWith('customer.') ? d.id : d.customerId;
  return typeof id === 'string' ? id : undefined;
}

export function demoWebhooksApp(deps: Deps, opts: { publicUrl: string; auth: MiddlewareHandler<BffEnv> }) {
  const receiverUrl = new URL('/demo/webhooks/receive', opts.publicUrl).href;
  const received: ReceivedWebhook[] = [];
  let secret: Promise<string> | undefined;

  /** This process's secret for the receiver's endpoint: created once, or taken over (a new secret) after a restart. */
  const ensureEndpoint = (partnerId: string) =>
    (secret ??= (async () => {
      const db = deps.store.db;
      const existing = await getEndpointByUrl(db, partnerId, receiverUrl);
      const row = existing ? await rotateSecret(db, deps, partnerId, existing.id, 0) : await createEndpoint(db, deps, partnerId, { url: receiverUrl, description: 'The demo page’s built-in receiver' });
      return row.secret;
    })().catch((err) => {
      secret = undefined;
      throw err;
    }));

  const app = new Hono<BffEnv>();
  app.post('/demo/webhooks/receive', async (c) => {
    if (Number(c.req.header('content-length') ?? 0) > MAX_BODY_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'A webhook body is at most 256 kB here.');
    const raw = await c.req.text();
    const headers = Object.fromEntries(c.req.raw.headers);
    let verified = false;
    if (secret) {
      try {
        new Webhook(await secret).verify(raw, headers);
        verified = true;
      } catch {
        // Recorded as not verified: the log shows what a receiver that checks would refuse.
      }
    }
    let event: { eventType?: unknown; data?: unknown } = {};
    try {
      event = JSON.parse(raw) as typeof event;
    } catch {
      // Not JSON: logged with an unknown type.
    }
    const eventType = typeof event.eventType === 'string' ? event.eventType.slice(0, 100) : 'unknown';
    received.unshift({ webhookId: String(headers['webhook-id'] ?? '').slice(0, 100), eventType, receivedAt: new Date().toISOString(), verified, customerId: customerOf(eventType, event.data) });
    received.length = Math.min(received.length, KEPT);
    return c.body(null, 204);
  });
  app.use('/demo/webhooks', opts.auth);
  app.get('/demo/webhooks', async (c) => {
    const session = c.get('session');
    await ensureEndpoint(session.partnerId);
    const customerId = session.customerId;
    const data = customerId ? received.filter((r) => r.customerId === customerId).map(({ customerId: _, ...r }) => r) : [];
    return c.json({ endpointUrl: receiverUrl, data }, 200, { 'cache-control': 'no-store' });
  });
  return app;
}

// The event check: every event a server test's database holds, and every event GET /v2/events answers, is parsed with
// the documented schema of its type (src/contract/webhook-events.ts, the OpenAPI `webhooks` section). A missing or
// wrong field, an undocumented type, or a field the schema does not name is a violation.
import { eventEnvelope, eventTypeDoc } from '../../../src/contract/webhook-events';
import { presentEvent } from '../../../server/presenters';
import { newId } from '../../../server/ids';
import type { Db } from '../../../server/store/db';
import type { NewEvent } from '../../../server/store/queries/events';
import { events } from '../../../server/store/schema/index';

const envelopes = new Map<string, ReturnType<typeof eventEnvelope>>();

/** The violations of one event (as GET /v2/events/{id} shows it); empty when it is what the document says. */
export function eventViolations(e: { eventId?: unknown; eventType?: unknown }): string[] {
  const where = `event ${String(e.eventId)} (${String(e.eventType)})`;
  const doc = typeof e.eventType === 'string' ? eventTypeDoc(e.eventType) : undefined;
  if (!doc) return [`${where}: not a documented event type`];
  let envelope = envelopes.get(doc.name);
  if (!envelope) envelopes.set(doc.name, (envelope = eventEnvelope(doc)));
  const parsed = envelope.safeParse(e);
  if (!parsed.success) return parsed.error.issues.slice(0, 5).map((i) => `${where}: ${i.path.join('.') || '(root)'} ${i.message}`);
  // zod drops keys its objects do not name: whatever was dropped is undocumented.
  return strays(e, parsed.data, '').map((p) => `${where}: ${p} is not in the documented schema`);
}

function strays(input: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(input) && Array.isArray(parsed)) return input.flatMap((v, i) => strays(v, parsed[i], `${path}[${i}]`));
  if (!input || typeof input !== 'object' || !parsed || typeof parsed !== 'object') return [];
  const out = parsed as Record<string, unknown>;
  return Object.entries(input).flatMap(([k, v]) => (k in out ? strays(v, out[k], path ? `${path}.${k}` : k) : [path ? `${path}.${k}` : k]));
}

/** Throws naming every violation of `list`. */
export function assertEventsDocumented(list: { eventId?: unknown; eventType?: unknown }[], source: string): void {
  const violations = list.flatMap(eventViolations);
  if (violations.length) throw new Error(`event payload violation (${source}; see the webhooks section of /openapi.json):\n${violations.slice(0, 20).join('\n')}`);
}

/** Checks every event row in the database. */
export async function checkStoredEvents(db: Db): Promise<number> {
  const rows = await db.select().from(events);
  assertEventsDocumented(rows.map(presentEvent), 'stored events');
  return rows.length;
}

/** A stand-in event for tests of the outbox's machinery: a documented `webhook.test`, where the payload does not matter. */
export const fillerEvent = (partnerId: string, i = 0): NewEvent => ({ partnerId, eventType: 'webhook.test', data: { endpointId: newId(), message: `filler ${i}` } });

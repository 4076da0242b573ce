// The partner's event log as `GET /v2/events` reads it: a filtered page, newest first, or one event (another partner's is 404).
import { notFound } from '../domain/errors';
import type { Db } from '../store/db';
import { type EventRow, listEvents } from '../store/queries/event-list';
import { getEvent } from '../store/queries/webhooks';

export const listPartnerEvents = (db: Db, partnerId: string, filter: Parameters<typeof listEvents>[2], pageQuery: Parameters<typeof listEvents>[3]) =>
  listEvents(db, partnerId, filter, pageQuery);

export async function readEvent(db: Db, partnerId: string, id: string): Promise<EventRow> {
  const row = await getEvent(db, partnerId, id);
  if (!row) throw notFound('Event');
  return row;
}

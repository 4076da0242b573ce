// Event rows: written inside the transaction of the change they describe; the outbox that webhooks and SSE read.
import { newId } from '../../ids';
import type { Db } from '../db';
import type { Rider } from '../reusable';
import { events } from '../schema/index';

export interface NewEvent {
  partnerId: string;
  customerId?: string | null;
  eventType: string;
  data: Record<string, unknown>;
}

const eventValues = (e: NewEvent, at: Date) => ({ id: newId(), partnerId: e.partnerId, customerId: e.customerId ?? null, eventType: e.eventType, data: e.data, createdAt: at });

/** Inserts the event. */
export async function insertEvent(tx: Db, e: NewEvent, at: Date): Promise<string> {
  const values = eventValues(e, at);
  await tx.insert(events).values(values);
  return values.id;
}

/** The event's insert as a statement to send along another (a rider of insertTransaction). */
export function eventInsert(e: NewEvent, at: Date): Rider {
  return { table: events, rows: [eventValues(e, at)] };
}

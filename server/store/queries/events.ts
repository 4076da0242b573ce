// Event rows: written inside the transaction of the change they describe; the outbox that webhooks and SSE read.
import type { SQL } from 'drizzle-orm';
import { newId } from '../../ids';
import type { Db } from '../db';
import { events } from '../schema/index';

export interface NewEvent {
  partnerId: string;
  customerId?: string | null;
  eventType: string;
  data: Record<string, unknown>;
}

const eventValues = (e: NewEvent, at: Date) => ({ id: newId(), partnerId: e.partnerId, customerId: e.customerId ?? null, eventType: e.eventType, data: e.data, createdAt: at });

/** Inserts the event; `riders` are other inserts of the same change (its jobs) sent in the same statement (see insertTransaction). */
export async function insertEvent(tx: Db, e: NewEvent, at: Date, riders: SQL[] = []): Promise<string> {
  const values = eventValues(e, at);
  const base = riders.length ? tx.with(...riders.map((q, i) => tx.$with(`rider${i}`, {}).as(q))) : tx;
  await base.insert(events).values(values);
  return values.id;
}

/** The event's insert as a statement to send along another (a rider of insertTransaction). */
export function eventInsert(tx: Db, e: NewEvent, at: Date): SQL {
  return tx.insert(events).values(eventValues(e, at)).getSQL();
}

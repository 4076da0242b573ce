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

/** Inserts the event; `riders` are other inserts of the same change (its jobs) sent in the same statement (see insertTransaction). */
export async function insertEvent(tx: Db, e: NewEvent, at: Date, riders: SQL[] = []): Promise<string> {
  const id = newId();
  const base = riders.length ? tx.with(...riders.map((q, i) => tx.$with(`rider${i}`, {}).as(q))) : tx;
  await base.insert(events).values({ id, partnerId: e.partnerId, customerId: e.customerId ?? null, eventType: e.eventType, data: e.data, createdAt: at });
  return id;
}

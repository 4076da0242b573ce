// Event rows: written inside the transaction of the change they describe; the outbox that webhooks and SSE read.
import { newId } from '../../ids';
import type { Db } from '../db';
import { events } from '../schema/index';

export interface NewEvent {
  partnerId: string;
  customerId?: string | null;
  eventType: string;
  data: Record<string, unknown>;
}

export async function insertEvent(tx: Db, e: NewEvent, at: Date): Promise<string> {
  const id = newId();
  await tx.insert(events).values({ id, partnerId: e.partnerId, customerId: e.customerId ?? null, eventType: e.eventType, data: e.data, createdAt: at });
  return id;
}

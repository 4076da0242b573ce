// Reading the event rows back: newest first, by customer and by type or type prefix.
import { and, eq, gte, like, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { events } from '../schema/index';
import { paginate } from './paginate';

export type EventRow = typeof events.$inferSelect;

export function listEvents(db: Db, partnerId: string, f: { customerId?: string; eventType?: string; since?: string; until?: string }, page: { size: number; cursor?: string }) {
  const type: SQL | undefined = f.eventType
    ? f.eventType.endsWith('.')
      ? like(events.eventType, `${f.eventType.replace(/[%_\\]/g, '\\$&')}%`)
      : eq(events.eventType, f.eventType)
    : undefined;
  return paginate<EventRow>(db, events, and(eq(events.partnerId, partnerId), f.customerId ? eq(events.customerId, f.customerId) : undefined, type, f.since ? gte(events.createdAt, new Date(f.since)) : undefined, f.until ? lt(events.createdAt, new Date(f.until)) : undefined), page);
}

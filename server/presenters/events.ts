// An event as the API shows it and as every webhook delivery carries it.
import type { RampEvent } from '../../src/contract/events';

export const presentEvent = (e: { id: string; customerId: string | null; eventType: string; createdAt: Date; data: Record<string, unknown> }): RampEvent => ({
  eventId: e.id,
  eventType: e.eventType,
  customerId: e.customerId,
  createdAt: e.createdAt.toISOString(),
  data: e.data,
});

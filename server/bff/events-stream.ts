// GET /bff/events: the session customer's events as Server-Sent Events, resumable with Last-Event-ID, read through /v2/events.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { RampEvent } from '../../src/contract/events';
import { AppError } from '../domain/errors';
import { isUuid } from '../ids';
import type { BffEnv } from './session';
import type { Upstream } from './upstream';

export interface EventsStreamOptions {
  upstream: Upstream;
  /** How often an open stream asks for new events (default 1 s). */
  pollMs?: number;
  /** A comment line after this much silence keeps proxies from closing the connection (default 15 s). */
  heartbeatMs?: number;
}

/** Event ids are UUIDv7, so they sort by time; a commit may land a little after a later id, hence the look-back. */
const LOOK_BACK_MS = 10_000;
const MAX_PAGES = 10;
const idTime = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
const idFloor = (ms: number) => {
  const h = Math.max(0, ms).toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8)}-0000-0000-000000000000`;
};

/** What the browser may see of an event: the partner's `metadata` stays on its side, as on every /bff answer. */
function forBrowser(e: RampEvent): RampEvent {
  const { metadata: _partnerOnly, ...data } = e.data as Record<string, unknown>;
  return { ...e, data };
}

export function eventsStream(opts: EventsStreamOptions) {
  const pollMs = opts.pollMs ?? 1000;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  return async (c: Context<BffEnv>) => {
    const session = c.get('session');
    const customerId = session.customerId;
    if (!customerId) throw new AppError('NOT_FOUND', 'This onboarding session has not created its customer yet.');
    const resume = c.req.header('last-event-id')?.trim().toLowerCase();
    if (resume && !isUuid(resume)) throw new AppError('VALIDATION_FAILED', 'Last-Event-ID is not an event id.', { errors: [{ path: 'Last-Event-ID', message: 'must be an event id' }] });
    const requestId = c.get('requestId');

    /** The customer's events with an id above `floor`, oldest first (newest-first pages, followed down to the floor). */
    const eventsAbove = async (floor: string): Promise<RampEvent[]> => {
      const found: RampEvent[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < MAX_PAGES; i++) {
        const page = await opts.upstream.listEvents({ customerId, size: '100', cursor }, { requestId });
        const newer = page.data.filter((e) => e.eventId > floor);
        found.push(...newer);
        if (newer.length < page.data.length || !page.pagination.hasNextPage || !page.pagination.nextCursor) break;
        cursor = page.pagination.nextCursor;
      }
      return found.reverse();
    };

    // Without Last-Event-ID the stream starts now: the component has just read the current state.
    let after = resume ?? (await eventsAbove(idFloor(Date.now() - LOOK_BACK_MS))).at(-1)?.eventId ?? idFloor(Date.now());
    const base = after;
    const sent = new Set<string>();
    c.header('cache-control', 'no-store');
    c.header('x-accel-buffering', 'no');
    return streamSSE(c, async (stream) => {
      let closed = false;
      stream.onAbort(() => {
        closed = true;
      });
      // The client went away (its request was aborted) even if the response body was never cancelled: stop polling.
      const gone = c.req.raw.signal;
      if (gone.aborted) closed = true;
      gone.addEventListener('abort', () => (closed = true), { once: true });
      let lastWrite = Date.now();
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ customerId, expiresAt: session.expiresAt.toISOString() }), retry: 3000 });
      while (!closed) {
        const left = session.expiresAt.getTime() - Date.now();
        if (left <= 0) {
          await stream.writeSSE({ event: 'session_expired', data: '{}' });
          break;
        }
        // Re-read a short window below the last id sent, skipping what was sent, so a late commit is not lost.
        const floor = sent.size ? [after, idFloor(idTime(after) - LOOK_BACK_MS)].sort()[0]! : after;
        const floorOrResume = base > floor ? base : floor;
        let fresh: RampEvent[] = [];
        try {
          fresh = (await eventsAbove(floorOrResume)).filter((e) => !sent.has(e.eventId));
        } catch {
          // The upstream is unavailable for a moment: the stream stays open and tries again on the next tick.
        }
        for (const e of fresh) {
          if (closed) break;
          await stream.writeSSE({ id: e.eventId, event: e.eventType, data: JSON.stringify(forBrowser(e)) });
          sent.add(e.eventId);
          if (e.eventId > after) after = e.eventId;
          lastWrite = Date.now();
        }
        const horizon = idFloor(idTime(after) - LOOK_BACK_MS);
        for (const id of sent) if (id < horizon) sent.delete(id);
        if (Date.now() - lastWrite >= heartbeatMs) {
          await stream.write(': keep-alive\n\n');
          lastWrite = Date.now();
        }
        await stream.sleep(Math.min(pollMs, Math.max(0, session.expiresAt.getTime() - Date.now()) + 1));
      }
    });
  };
}

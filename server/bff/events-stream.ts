// GET /bff/events: the session customer's events as Server-Sent Events, resumable with Last-Event-ID, read through /v2/events.
// The open streams of a process share one poll of the partner's events (an EventHub), so a hundred streams cost the
// database what one does; a session may hold at most MAX_STREAMS_PER_SESSION of them at once.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { RampEvent } from '../../src/contract/events';
import { AppError } from '../domain/errors';
import { isUuid } from '../ids';
import type { BffEnv } from './session';
import type { Upstream } from './upstream';

export interface EventsStreamOptions {
  upstream: Upstream;
  /** How often the shared poll asks for new events, and how often a stream sends what it got (default 1 s). */
  pollMs?: number;
  /** A comment line after this much silence keeps proxies from closing the connection (default 15 s). */
  heartbeatMs?: number;
}

/** Streams one widget session may hold open at once in a process (a page with a few components, not a flood). */
export const MAX_STREAMS_PER_SESSION = 5;

/** Event ids are UUIDv7, so they sort by time; a commit may land a little after a later id, hence the look-back. */
const LOOK_BACK_MS = 10_000;
const MAX_PAGES = 10;
const idTime = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
const idFloor = (ms: number) => {
  const h = Math.max(0, ms).toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8)}-0000-0000-000000000000`;
};
/** Where to read from so that a late commit below `after` is still found: a short window below it. */
const lookBackFrom = (after: string) => [after, idFloor(idTime(after) - LOOK_BACK_MS)].sort()[0]!;

/** What the browser may see of an event: the partner's `metadata` and `externalUserId` stay on its side, as on every /bff answer. */
function forBrowser(e: RampEvent): RampEvent {
  const { metadata: _partnerOnly, externalUserId: _partnersId, ...data } = e.data as Record<string, unknown>;
  return { ...e, data };
}

/** Events with an id above `floor`, oldest first (newest-first pages followed down to the floor), of one customer or all. */
async function eventsAbove(upstream: Upstream, floor: string, requestId: string, customerId?: string): Promise<RampEvent[]> {
  const found: RampEvent[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await upstream.listEvents({ customerId, size: '100', cursor }, { requestId });
    const newer = page.data.filter((e) => e.eventId > floor);
    found.push(...newer);
    if (newer.length < page.data.length || !page.pagination.hasNextPage || !page.pagination.nextCursor) break;
    cursor = page.pagination.nextCursor;
  }
  return found.reverse();
}

/**
 * One poll of the partner's events for every stream of this process: while any stream listens, every `pollMs` it reads
 * what is new (re-reading a short window below the newest id for late commits) and hands each event once to the
 * listeners of its customer.
 */
export class EventHub {
  private readonly listeners = new Map<string, Set<(e: RampEvent) => void>>();
  private after: string | undefined;
  private readonly seen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  /** Polls made (tests count them: one per tick, however many streams). */
  polls = 0;

  constructor(
    private readonly upstream: Upstream,
    private readonly pollMs: number,
  ) {}

  subscribe(customerId: string, listener: (e: RampEvent) => void): () => void {
    const set = this.listeners.get(customerId) ?? new Set();
    set.add(listener);
    this.listeners.set(customerId, set);
    this.timer ??= setTimeout(() => this.tick(), 0);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(customerId);
      if (this.listeners.size === 0) this.stop();
    };
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // A later first listener starts afresh: nothing from before it is owed to anyone.
    this.after = undefined;
    this.seen.clear();
  }

  private tick(): void {
    this.polling = this.poll().finally(() => {
      this.polling = undefined;
      if (this.listeners.size > 0) this.timer = setTimeout(() => this.tick(), this.pollMs);
    });
  }

  private async poll(): Promise<void> {
    this.polls++;
    const floor = this.after ? lookBackFrom(this.after) : idFloor(Date.now() - LOOK_BACK_MS);
    let fresh: RampEvent[];
    try {
      fresh = await eventsAbove(this.upstream, floor, 'req_event_hub');
    } catch {
      return; // the upstream is away for a moment: the streams stay open and the next tick tries again
    }
    for (const e of fresh) {
      if (this.seen.has(e.eventId)) continue;
      this.seen.add(e.eventId);
      if (!this.after || e.eventId > this.after) this.after = e.eventId;
      if (e.customerId) for (const listener of this.listeners.get(e.customerId) ?? []) listener(e);
    }
    if (this.after) {
      const horizon = idFloor(idTime(this.after) - LOOK_BACK_MS);
      for (const id of this.seen) if (id < horizon) this.seen.delete(id);
    }
  }
}

/** Ids a cursor names at most besides its last (a customer's events within the look-back window are a handful). */
const MAX_CURSOR_IDS = 50;

/**
 * The SSE id of an event: `<its id>;<floor>;<ids sent from the floor up to it>`, the floor being the look-back window
 * below it but never below where the stream began (what the client read before it opened). A resume re-reads from the
 * floor and sends only what the client lacks. Opaque to the client, which hands it back as Last-Event-ID.
 */
function cursorOf(eventId: string, sent: Set<string>, start: string): string {
  const window = idFloor(idTime(eventId) - LOOK_BACK_MS);
  const floor = window > start ? window : start;
  const below = [...sent].filter((id) => id < eventId && id > floor).sort().slice(-MAX_CURSOR_IDS);
  return `${eventId};${floor};${below.join(',')}`;
}

/** Last-Event-ID: a cursor of this stream (read on from its floor, its ids already sent), or a bare event id (after it). */
function parseResume(header: string | undefined): { after: string; seen: string[] } | undefined {
  const value = header?.trim().toLowerCase();
  if (!value) return undefined;
  const [last = '', floor, rest] = value.split(';', 3);
  const below = rest ? rest.split(',') : [];
  const cursor = floor !== undefined;
  if (!isUuid(last) || (cursor && (!isUuid(floor) || floor > last || rest === undefined)) || below.length > MAX_CURSOR_IDS || !below.every(isUuid)) {
    throw new AppError('VALIDATION_FAILED', 'Last-Event-ID is not an event id or a cursor of this stream.', { errors: [{ path: 'Last-Event-ID', message: 'must be an event id, or the id: of a frame of this stream', code: 'INVALID_FORMAT' }] });
  }
  return cursor ? { after: floor, seen: [last, ...below] } : { after: last, seen: [] };
}

export function eventsStream(opts: EventsStreamOptions) {
  const pollMs = opts.pollMs ?? 1000;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const hub = new EventHub(opts.upstream, pollMs);
  const open = new Map<string, number>();
  const handler = async (c: Context<BffEnv>) => {
    const session = c.get('session');
    const customerId = session.customerId;
    if (!customerId) throw new AppError('NOT_FOUND', 'This onboarding session has not created its customer yet.');
    const resume = parseResume(c.req.header('last-event-id'));
    const held = open.get(session.sessionId) ?? 0;
    if (held >= MAX_STREAMS_PER_SESSION) {
      throw new AppError('RATE_LIMITED', `This widget session already has ${MAX_STREAMS_PER_SESSION} event streams open. Close one first.`, { extra: { retryAfter: 5 } });
    }
    open.set(session.sessionId, held + 1);
    const release = () => {
      const n = (open.get(session.sessionId) ?? 1) - 1;
      if (n > 0) open.set(session.sessionId, n);
      else open.delete(session.sessionId);
    };
    // Listening before the first read: what the hub hands over meanwhile waits in the queue, nothing falls in between.
    const queue: RampEvent[] = [];
    const unsubscribe = hub.subscribe(customerId, (e) => queue.push(e));
    const requestId = c.get('requestId');
    let base: string;
    let backlog: RampEvent[] = [];
    // What the client already has: the ids its cursor names (the last one and those just below it).
    const sent = new Set<string>(resume?.seen);
    try {
      if (!resume) {
        // Without Last-Event-ID the stream starts now: the component has just read the current state.
        base = (await eventsAbove(opts.upstream, idFloor(Date.now() - LOOK_BACK_MS), requestId, customerId)).at(-1)?.eventId ?? idFloor(Date.now());
      } else {
        // A cursor of this stream re-reads from its floor, below its last id (a commit may land below an id already
        // sent); a bare event id (from /v2/events) means strictly after it.
        base = resume.after;
        backlog = await eventsAbove(opts.upstream, base, requestId, customerId);
      }
    } catch (err) {
      unsubscribe();
      release();
      throw err;
    }
    c.header('cache-control', 'no-store');
    c.header('x-accel-buffering', 'no');
    return streamSSE(c, async (stream) => {
      let closed = false;
      stream.onAbort(() => {
        closed = true;
      });
      // The client went away (its request was aborted) even if the response body was never cancelled: stop.
      const gone = c.req.raw.signal;
      if (gone.aborted) closed = true;
      gone.addEventListener('abort', () => (closed = true), { once: true });
      try {
        let lastWrite = Date.now();
        await stream.writeSSE({ event: 'ready', data: JSON.stringify({ customerId, expiresAt: session.expiresAt.toISOString() }), retry: 3000 });
        while (!closed) {
          if (session.expiresAt.getTime() <= Date.now()) {
            await stream.writeSSE({ event: 'session_expired', data: '{}' });
            break;
          }
          const fresh = [...backlog, ...queue.splice(0)].filter((e) => e.eventId > base && !sent.has(e.eventId)).sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
          backlog = [];
          for (const e of fresh) {
            if (closed) break;
            sent.add(e.eventId);
            await stream.writeSSE({ id: cursorOf(e.eventId, sent, base), event: e.eventType, data: JSON.stringify(forBrowser(e)) });
            lastWrite = Date.now();
          }
          const newest = [...sent].sort().at(-1);
          if (newest) for (const id of sent) if (id < idFloor(idTime(newest) - 2 * LOOK_BACK_MS)) sent.delete(id);
          if (Date.now() - lastWrite >= heartbeatMs) {
            await stream.write(': keep-alive\n\n');
            lastWrite = Date.now();
          }
          await stream.sleep(Math.min(pollMs, Math.max(0, session.expiresAt.getTime() - Date.now()) + 1));
        }
      } finally {
        unsubscribe();
        release();
      }
    });
  };
  return Object.assign(handler, { hub });
}

// Live updates over `/bff/events` (Server-Sent Events read with fetch, so the session goes in the Authorization header and
// never in a URL), with polling as the fallback whenever the stream is down.
import type { Feed, FeedSubscription } from './feed';

export interface SseFrame {
  id?: string;
  event: string;
  data: string;
}

/** Opens the stream; `lastEventId` resumes after the last event seen. */
export type OpenEvents = (options: { signal: AbortSignal; lastEventId?: string }) => Promise<Response>;

/** Opens `<apiBase>/events` with the session in the Authorization header (never in the URL, where logs would keep it). */
export function eventsOpener(o: { apiBase: string; session: () => string | undefined; fetch?: typeof globalThis.fetch }): OpenEvents {
  return ({ signal, lastEventId }) => {
    const token = o.session();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const base = new URL(o.apiBase.replace(/\/*$/, '/'), globalThis.document?.baseURI ?? globalThis.location?.href);
    return (o.fetch ?? globalThis.fetch)(new URL('events', base).href, { headers, signal, cache: 'no-store' });
  };
}

/** The frames of an SSE body as they arrive (comments skipped). */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const frame: SseFrame = { event: 'message', data: '' };
        const data: string[] = [];
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          if (colon === 0) continue;
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') frame.event = value;
          else if (field === 'id') frame.id = value;
          else if (field === 'data') data.push(value);
        }
        frame.data = data.join('\n');
        if (data.length || frame.id) yield frame;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export interface LiveFeedOptions<T> {
  open: OpenEvents;
  /** Reads the resource once (after each (re)connection, so nothing that happened while away is missed). */
  load: (signal: AbortSignal) => Promise<T>;
  /** The value an event carries for this feed, or undefined when the event is about something else. */
  pick: (frame: SseFrame) => T | undefined;
  /** Used while the stream is down. */
  fallback: Feed<T>;
  /** First wait before reconnecting (doubles up to a minute). */
  retryMs?: number;
}

/** The stream when it works, `fallback` while it does not, and a new connection attempt every little while. */
export function liveFeed<T>(o: LiveFeedOptions<T>): Feed<T> {
  return (listener) => {
    const stopped = new AbortController();
    let polling: FeedSubscription | undefined;
    let lastEventId: string | undefined;
    let wait = o.retryMs ?? 3_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const readOnce = () =>
      o.load(stopped.signal).then(
        (v) => !stopped.signal.aborted && listener.next(v),
        (e) => !stopped.signal.aborted && listener.error(e),
      );
    const fallBack = () => {
      if (stopped.signal.aborted) return;
      // From the stream to polling: read at once (the cut may have lost news); polling already running keeps its pace.
      if (!polling) {
        polling = o.fallback(listener);
        polling.refresh();
      }
      clearTimeout(timer);
      timer = setTimeout(connect, wait);
      wait = Math.min(wait * 2, 60_000);
    };
    const connect = async () => {
      if (stopped.signal.aborted) return;
      try {
        const res = await o.open({ signal: stopped.signal, lastEventId });
        if (!res.ok || !res.body || !/^text\/event-stream/i.test(res.headers.get('content-type') ?? '')) throw new Error(`events: ${res.status}`);
        for await (const frame of readSse(res.body)) {
          if (frame.id) lastEventId = frame.id;
          if (frame.event === 'ready') {
            polling?.stop();
            polling = undefined;
            wait = o.retryMs ?? 3_000;
            void readOnce();
            continue;
          }
          const value = o.pick(frame);
          if (value !== undefined && !stopped.signal.aborted) listener.next(value);
        }
      } catch {
        // Cut, refused or not there at all: polling takes over below.
      }
      fallBack();
    };
    // Polling serves from the start (as it always did) and stops once the stream says it is ready.
    polling = o.fallback(listener);
    void connect();
    return {
      stop: () => {
        stopped.abort();
        clearTimeout(timer);
        polling?.stop();
      },
      refresh: () => (polling ? polling.refresh() : void readOnce()),
    };
  };
}

// Where live updates (a customer under review, a transaction in flight) come from: polling, or the SSE stream
// (`/bff/events`, src/client/event-stream.ts) behind the same `Feed`, with polling while the stream is down.

export interface FeedListener<T> {
  next(value: T): void;
  /** A failed read; the feed keeps going (the next read may well succeed). */
  error(error: unknown): void;
}

/** A running feed: `stop()` ends it; `refresh()` asks for news now (a poll reads at once; a stream may ignore it). */
export interface FeedSubscription {
  stop(): void;
  refresh(): void;
}

/** Starts delivering updates to `listener`. */
export type Feed<T> = (listener: FeedListener<T>) => FeedSubscription;

export interface PollOptions {
  /** Milliseconds between the end of one read and the start of the next (no overlapping reads on a slow network). */
  intervalMs?: number;
  /** Read at once instead of waiting one interval first. */
  immediate?: boolean;
}

/**
 * Reads `load` every `intervalMs` while started. A hidden tab skips its reads (nobody is looking, and a phone keeps its
 * battery) and reads at once when it is shown again, so the screen is right the moment the user comes back.
 */
export function pollingFeed<T>(load: (signal: AbortSignal) => Promise<T>, options: PollOptions = {}): Feed<T> {
  const interval = options.intervalMs ?? 2_000;
  return (listener) => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reading = false;
    /** A refresh asked for while a read was under way: read again as soon as it ends. */
    let again = false;
    const schedule = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(tick, ms);
    };
    const tick = async () => {
      if (controller.signal.aborted || reading) return;
      if (typeof document !== 'undefined' && document.hidden) return;
      reading = true;
      try {
        const value = await load(controller.signal);
        if (!controller.signal.aborted) listener.next(value);
      } catch (error) {
        if (!controller.signal.aborted) listener.error(error);
      } finally {
        reading = false;
      }
      if (!controller.signal.aborted) schedule(again ? 0 : interval);
      again = false;
    };
    const refresh = () => {
      // A read under way is never cancelled: its answer may be the very news we wait for. Read again right after it.
      if (reading) again = true;
      else schedule(0);
    };
    const onVisible = () => {
      if (typeof document !== 'undefined' && !document.hidden) refresh();
    };
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
    schedule(options.immediate ? 0 : interval);
    return {
      stop: () => {
        controller.abort();
        clearTimeout(timer);
        if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
      },
      refresh,
    };
  };
}

// Where live customer updates come from. Today: polling `GET customer`; the SSE stream (`/bff/events`) will be a second
// implementation of the same `CustomerFeed`, so the components that follow a review do not change when it lands.
import type { Customer } from '../contract/customers';

export interface CustomerFeedListener {
  next(customer: Customer): void;
  /** A failed read; the feed keeps going (the next read may well succeed). */
  error(error: unknown): void;
}

/** Starts delivering updates to `listener`; the returned function stops it. */
export type CustomerFeed = (listener: CustomerFeedListener) => () => void;

export interface PollingOptions {
  /** Milliseconds between the end of one read and the start of the next (no overlapping reads on a slow network). */
  intervalMs?: number;
  /** Read at once instead of waiting one interval first. */
  immediate?: boolean;
}

/** Reads the customer every `intervalMs` while started; skips reads while the page is hidden, a backgrounded tab needs none. */
export function pollingFeed(load: (signal: AbortSignal) => Promise<Customer>, options: PollingOptions = {}): CustomerFeed {
  const interval = options.intervalMs ?? 2_000;
  return (listener) => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (ms: number) => {
      timer = setTimeout(tick, ms);
    };
    const tick = async () => {
      if (controller.signal.aborted) return;
      if (typeof document !== 'undefined' && document.hidden) return schedule(interval);
      try {
        const customer = await load(controller.signal);
        if (!controller.signal.aborted) listener.next(customer);
      } catch (error) {
        if (!controller.signal.aborted) listener.error(error);
      }
      if (!controller.signal.aborted) schedule(interval);
    };
    schedule(options.immediate ? 0 : interval);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  };
}

// A Lit controller that runs a live feed (polling today, SSE later) while the host wants it AND is connected, so a removed element leaves no timer behind.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Feed, FeedSubscription } from '../client/feed';

export interface FeedControllerOptions<T> {
  next: (value: T) => void;
  error?: (error: unknown) => void;
}

/**
 * `start(makeFeed)` / `stop()` say what the host wants followed; the feed runs only while that is so and the host is in
 * the document. A re-attached element picks up again; `restart()` asks for news at once (after the user did something
 * that will change what the feed says, such as paying in sandbox).
 */
export class FeedController<T> implements ReactiveController {
  #make: ((immediate: boolean) => Feed<T>) | undefined;
  #connected = false;
  #subscription: FeedSubscription | undefined;

  constructor(
    host: ReactiveControllerHost,
    private readonly options: FeedControllerOptions<T>,
  ) {
    host.addController(this);
  }

  /** Whether a feed is wanted (and flowing while connected). */
  get active(): boolean {
    return this.#make !== undefined;
  }

  /** `make(immediate)` builds the feed; `immediate` asks for a read at once rather than after one interval. */
  start(make: (immediate: boolean) => Feed<T>): void {
    this.#halt();
    this.#make = make;
    this.#sync(false);
  }

  stop(): void {
    this.#make = undefined;
    this.#halt();
  }

  /** Ask for news now (a poll reads at once, after any read under way), then carry on at the usual pace. */
  restart(): void {
    this.#subscription?.refresh();
  }

  hostConnected(): void {
    this.#connected = true;
    // Back in the document after a while: what we show may be stale, so read at once.
    this.#sync(true);
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#halt();
  }

  #sync(immediate: boolean): void {
    if (!this.#make || !this.#connected || this.#subscription) return;
    this.#subscription = this.#make(immediate)({
      next: (value) => this.options.next(value),
      error: (error) => this.options.error?.(error),
    });
  }

  #halt(): void {
    this.#subscription?.stop();
    this.#subscription = undefined;
  }
}

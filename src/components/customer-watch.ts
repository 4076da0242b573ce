// A Lit controller that follows a customer live while asked to (review in progress, waiting for liveness), and stops with the element.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Customer } from '../contract/customers';
import type { Feed, FeedSubscription } from '../client/feed';

export interface CustomerWatchOptions {
  /** Made at each start, so it reads the host's current api-base and session. */
  feed: () => Feed<Customer>;
  onCustomer: (customer: Customer) => void;
  onError?: (error: unknown) => void;
}

/**
 * `start()` / `stop()` say whether the host wants updates; the feed runs only while that is so AND the host is
 * connected, so a removed element leaves no timer or stream behind, and a re-attached one picks up again.
 */
export class CustomerWatch implements ReactiveController {
  #wanted = false;
  #connected = false;
  #subscription: FeedSubscription | undefined;

  constructor(
    host: ReactiveControllerHost,
    private readonly options: CustomerWatchOptions,
  ) {
    host.addController(this);
  }

  /** Whether updates are wanted (and flowing while connected). */
  get active(): boolean {
    return this.#wanted;
  }

  start(): void {
    this.#wanted = true;
    this.#sync();
  }

  stop(): void {
    this.#wanted = false;
    this.#sync();
  }

  hostConnected(): void {
    this.#connected = true;
    this.#sync();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#sync();
  }

  #sync(): void {
    const run = this.#wanted && this.#connected;
    if (run && !this.#subscription) {
      this.#subscription = this.options.feed()({
        next: (customer) => this.options.onCustomer(customer),
        error: (error) => this.options.onError?.(error),
      });
    } else if (!run && this.#subscription) {
      this.#subscription.stop();
      this.#subscription = undefined;
    }
  }
}

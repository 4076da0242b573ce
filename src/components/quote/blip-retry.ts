// A Lit reactive controller for <ramp-quote>'s network blips: after a floating quote got no answer, ask again by itself, backing off.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Clock, TimerHandle } from './clock';

/** After a floating quote got no answer, the panel asks again by itself: 1 s, 2 s, 4 s … never more than 30 s apart. */
export const BLIP_RETRY_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000] as const;

export class BlipRetry implements ReactiveController {
  /** Network failures in a row, and the retry planned after the last one. */
  #blips = 0;
  #timer: TimerHandle | undefined;

  constructor(
    host: ReactiveControllerHost,
    /** Read at each use, so a host can swap clocks (tests pass a fake one). */
    private readonly clock: () => Clock,
    private readonly retry: () => void,
    /** The device is back online (the `online` event). */
    private readonly online: () => void,
  ) {
    host.addController(this);
  }

  /** One more failure in a row: the retry comes after the next delay. */
  schedule(): void {
    this.clock().clearTimeout(this.#timer);
    const ms = BLIP_RETRY_MS[Math.min(this.#blips++, BLIP_RETRY_MS.length - 1)]!;
    this.#timer = this.clock().setTimeout(() => {
      this.#timer = undefined;
      this.retry();
    }, ms);
  }

  /** An answer came (or the device is back online): no retry planned, the next blip starts from the first delay. */
  end(): void {
    this.#blips = 0;
    if (this.#timer !== undefined) this.clock().clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  hostConnected(): void {
    window.addEventListener('online', this.online);
  }

  hostDisconnected(): void {
    window.removeEventListener('online', this.online);
    this.end();
  }
}

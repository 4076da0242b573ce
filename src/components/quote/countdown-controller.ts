// A Lit reactive controller counting down to a deadline: re-renders its host on each whole second, reports spoken thresholds and expiry once.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { systemClock, type Clock, type TimerHandle } from './clock';
import { crossedThreshold, secondsLeft } from './countdown';

export interface CountdownOptions {
  /** Read at every tick, so a host can swap clocks (tests pass a fake one). Default: the system clock. */
  clock?: () => Clock;
  /** Seconds left at which `onThreshold` is called, e.g. `[30, 10]`. */
  thresholds?: readonly number[];
  onThreshold?: (secondsLeft: number) => void;
  /** Called once per `start`, when the deadline passes (or, if the host was disconnected then, when it is back). */
  onExpire?: () => void;
}

/**
 * Ticks on the second boundaries of the deadline (not every 1000 ms from an arbitrary start), so the display turns
 * from 0:01 to expired exactly at the deadline and a slow tick cannot drift. Stops while the host is disconnected;
 * on reconnect it catches up, expiring at once if the deadline passed meanwhile.
 */
export class CountdownController implements ReactiveController {
  private deadline: number | undefined;
  private timer: TimerHandle | undefined;
  private lastSeconds = 0;
  private hasExpired = false;
  private connected = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: CountdownOptions = {},
  ) {
    host.addController(this);
  }

  private get clock(): Clock {
    return this.options.clock?.() ?? systemClock;
  }

  /** Counts down to `deadline` (epoch ms on this controller's clock); replaces any running countdown. */
  start(deadline: number): void {
    this.clear();
    this.deadline = deadline;
    this.hasExpired = false;
    this.lastSeconds = secondsLeft(deadline - this.clock.now());
    if (this.connected) this.tick();
  }

  /** Stops without expiring: nothing more is reported for this deadline. */
  stop(): void {
    this.clear();
    this.deadline = undefined;
    this.hasExpired = false;
  }

  /** Whether a countdown is under way (started, not stopped, not yet expired). */
  get running(): boolean {
    return this.deadline !== undefined && !this.hasExpired;
  }

  get expired(): boolean {
    return this.hasExpired;
  }

  get remainingMs(): number {
    return this.deadline === undefined ? 0 : Math.max(0, this.deadline - this.clock.now());
  }

  /** Whole seconds left, rounded up (what the display shows). */
  get seconds(): number {
    return secondsLeft(this.remainingMs);
  }

  hostConnected(): void {
    this.connected = true;
    if (this.running) this.tick();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.clear();
  }

  private clear(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick = (): void => {
    this.clear();
    if (this.deadline === undefined || this.hasExpired) return;
    const remaining = this.deadline - this.clock.now();
    const seconds = secondsLeft(remaining);
    const threshold = crossedThreshold(this.lastSeconds, seconds, this.options.thresholds ?? []);
    this.lastSeconds = seconds;
    this.host.requestUpdate();
    if (remaining <= 0) {
      this.hasExpired = true;
      this.options.onExpire?.();
      return;
    }
    if (threshold !== undefined) this.options.onThreshold?.(threshold);
    // Wake at the next whole second before the deadline, so `seconds` changes exactly then.
    const untilNextSecond = remaining % 1000 || 1000;
    this.timer = this.clock.setTimeout(this.tick, untilNextSecond);
  };
}

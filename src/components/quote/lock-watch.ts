// The countdown of a locked quote, shared by the panel that locked it and the elements that pay with it (checkout, off-ramp).
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Quote } from '../../contract/exchange-rates';
import { systemClock, type Clock } from './clock';
import { CountdownController } from './countdown-controller';

/**
 * Local deadlines (epoch ms on the system clock) of the locks made on this page, by exchangeRateId: the panel writes
 * the deadline it counts down to, so the checkout and the off-ramp end at the same instant as the panel does.
 */
const deadlines = new Map<string, number>();

export function rememberLockDeadline(exchangeRateId: string, deadline: number): void {
  deadlines.set(exchangeRateId, deadline);
}

/**
 * Where a locked quote ends on this device's clock: the panel's deadline when it was locked here; else the server's
 * `expiresAt`, but never later than a full lock from now (a device clock running behind must not outlive the lock).
 */
export function lockDeadline(quote: Pick<Quote, 'id' | 'expiresAt' | 'createdAt'>, now: number): number | undefined {
  const known = quote.id ? deadlines.get(quote.id) : undefined;
  if (known !== undefined) return known;
  if (!quote.expiresAt) return undefined;
  const expiresAt = Date.parse(quote.expiresAt);
  if (!Number.isFinite(expiresAt)) return undefined;
  const duration = expiresAt - Date.parse(quote.createdAt);
  return Number.isFinite(duration) && duration > 0 ? Math.min(expiresAt, now + duration) : expiresAt;
}

/**
 * Locks that an element paying with them (checkout, off-ramp) follows on this page, with how many follow each: the
 * panel that made the lock then leaves the spoken countdown and expiry to them, so one voice speaks, not two.
 */
const followers = new Map<string, number>();

export function lockFollowed(exchangeRateId: string | undefined): boolean {
  return Boolean(exchangeRateId && (followers.get(exchangeRateId) ?? 0) > 0);
}

function follow(exchangeRateId: string, by: number): void {
  const n = (followers.get(exchangeRateId) ?? 0) + by;
  if (n > 0) followers.set(exchangeRateId, n);
  else followers.delete(exchangeRateId);
}

/** Seconds left at which a lock is spoken by the elements that pay with it. */
export const LOCK_THRESHOLDS = [30, 10] as const;

export interface LockWatchOptions {
  clock?: () => Clock;
  onThreshold?: (secondsLeft: number) => void;
  onExpire?: () => void;
}

/** Follows the lock of the quote an element pays with; `expired` turns true at the deadline and stays until `watch` sees another quote. */
export class LockWatch implements ReactiveController {
  private readonly countdown: CountdownController;
  private watched: string | undefined;
  /** The lock this element follows (counted in `followers` while it is on the page). */
  private followed: string | undefined;
  private connected = false;

  constructor(host: ReactiveControllerHost, private readonly options: LockWatchOptions = {}) {
    host.addController(this);
    this.countdown = new CountdownController(host, {
      clock: options.clock,
      thresholds: LOCK_THRESHOLDS,
      onThreshold: (s) => options.onThreshold?.(s),
      onExpire: () => options.onExpire?.(),
    });
  }

  hostConnected(): void {
    this.connected = true;
    if (this.followed) follow(this.followed, 1);
  }

  hostDisconnected(): void {
    this.connected = false;
    if (this.followed) follow(this.followed, -1);
  }

  #follow(id: string | undefined): void {
    if (id === this.followed) return;
    if (this.followed && this.connected) follow(this.followed, -1);
    this.followed = id;
    if (id && this.connected) follow(id, 1);
  }

  /** Starts (or keeps) the countdown of this quote's lock; no quote, or a quote without a lock, stops it. */
  watch(quote: Quote | undefined): void {
    const key = quote?.id && quote.expiresAt ? `${quote.id}@${quote.expiresAt}` : undefined;
    if (key === this.watched) return;
    this.watched = key;
    this.#follow(key ? quote!.id : undefined);
    const now = (this.options.clock?.() ?? systemClock).now();
    const deadline = quote && key ? lockDeadline(quote, now) : undefined;
    if (deadline === undefined) this.countdown.stop();
    else this.countdown.start(deadline);
  }

  /** Stops without expiring (the payment exists: the lock was used). */
  stop(): void {
    this.watched = undefined;
    this.#follow(undefined);
    this.countdown.stop();
  }

  get active(): boolean {
    return this.countdown.running;
  }

  get expired(): boolean {
    return this.countdown.expired;
  }

  get seconds(): number {
    return this.countdown.seconds;
  }
}

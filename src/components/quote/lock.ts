// <ramp-quote>'s lock: one locked quote per attempt (a retry reuses its idempotency key), its window counted down on the server's measure, then expiry or release.
import type { ReactiveControllerHost } from 'lit';
import { Task, TaskStatus } from '@lit/task';
import type { BffQuoteRequest, Quote } from '../../contract/exchange-rates';
import type { Transaction } from '../../contract/transactions';
import { ProblemError, type BffClient } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { RampQuoteExpiredEvent } from '../../events/quote-expired';
import { RampQuoteLockedEvent } from '../../events/quote-locked';
import type { Clock } from './clock';
import { CountdownController } from './countdown-controller';
import { rememberLockDeadline } from './lock-watch';
import { lockDurationMs, timeLockSeconds, type TimeLock } from './model';

/**
 * What the panel shows: floating quotes, a lock counting down, a lock that ran out, or a lock a payment now holds (its
 * payment window governs from then on, so the panel's own countdown stops).
 */
export type Phase = 'floating' | 'locked' | 'expired' | 'held';

/** Seconds left at which the countdown is spoken (besides the lock itself and expiry). */
const SPOKEN_THRESHOLDS = [30, 10] as const;

/** The element that locks: the events go out from it; its clock is read at every tick. */
export type QuoteLockHost = ReactiveControllerHost & HTMLElement & { readonly clock: Clock };

export interface QuoteLockOptions {
  client: () => BffClient;
  /** The window chosen in the form, for a lock the server answered without naming its own. */
  timeLock: () => TimeLock;
  /** The countdown crossed a spoken threshold. */
  threshold: (seconds: number) => void;
  /** The lock is on and `ramp-quote-locked` went out; `timeLock` is the window it holds. */
  locked: (quote: Quote, timeLock: TimeLock) => void;
  /** The window ran out and `ramp-quote-expired` went out; `focusInside`: focus was in the host when it did. */
  expired: (focusInside: boolean) => void;
  failed: (error: unknown) => void;
  /** A payment (a checkout or off-ramp anywhere on the page) was created with this lock: it holds the rate now. */
  held?: () => void;
}

/**
 * `lock(body, from)` asks for a locked quote; once it comes, the countdown runs to the end of its window, measured on
 * the server's clock (`expiresAt − createdAt`) from when the request left, so it can end a little early, never late.
 * `ramp-quote-locked` goes out once per lock, `ramp-quote-expired` once when it times out or is released.
 */
export class QuoteLock {
  #phase: Phase = 'floating';
  #quote: Quote | undefined;
  #from: Quote | undefined;
  #sentAt = 0;
  readonly #keys = new IdempotencyKeys();
  readonly #countdown: CountdownController;
  readonly #task: Task<[BffQuoteRequest, string], Quote>;

  constructor(
    private readonly host: QuoteLockHost,
    private readonly options: QuoteLockOptions,
  ) {
    this.#countdown = new CountdownController(host, {
      clock: () => host.clock,
      thresholds: SPOKEN_THRESHOLDS,
      onThreshold: options.threshold,
      onExpire: () => this.#expire(),
    });
    this.#task = new Task<[BffQuoteRequest, string], Quote>(host, {
      autoRun: false,
      task: ([body, idempotencyKey], { signal }) => options.client().createQuote(body, { idempotencyKey, signal }),
      onComplete: (quote) => this.#adopt(quote),
      onError: options.failed,
    });
    host.addController({
      hostConnected: () => document.addEventListener('ramp-transaction-created', this.#onTransactionCreated),
      hostDisconnected: () => document.removeEventListener('ramp-transaction-created', this.#onTransactionCreated),
    });
  }

  get phase(): Phase {
    return this.#phase;
  }

  /** The locked quote while its countdown runs or after it expired. */
  get quote(): Quote | undefined {
    return this.#quote;
  }

  /** The floating quote on screen when the user locked, for the premium. */
  get from(): Quote | undefined {
    return this.#from;
  }

  /** A lock is on its way. */
  get pending(): boolean {
    return this.#task.status === TaskStatus.PENDING;
  }

  /** Whole seconds left on the lock. */
  get seconds(): number {
    return this.#countdown.seconds;
  }

  /** Asks for a locked quote; the same body as a failed attempt (a retry) sends the same key, so the server keeps at most one lock for it. */
  async lock(body: BffQuoteRequest, from: Quote | undefined): Promise<void> {
    const key = this.#keys.keyFor(body);
    this.#from = from;
    this.#sentAt = this.host.clock.now();
    await this.#task.run([body, key]);
  }

  /** The user gives the lock up to change something: the partner hears that this id is no longer on offer. */
  release(): void {
    const id = this.#quote?.id;
    this.#countdown.stop();
    if (this.#phase === 'locked' && id) this.host.dispatchEvent(new RampQuoteExpiredEvent({ exchangeRateId: id, reason: 'released' }));
  }

  /** A payment was created with this lock: the payment's window governs now; no countdown here, no expiry. */
  hold(): void {
    if (this.#phase !== 'locked') return;
    this.#countdown.stop();
    this.#phase = 'held';
    this.host.requestUpdate();
  }

  /** Back to floating quotes: no lock, no countdown. */
  clear(): void {
    this.#countdown.stop();
    this.#phase = 'floating';
    this.#quote = undefined;
    this.#from = undefined;
    this.host.requestUpdate();
  }

  #adopt(quote: Quote): void {
    if (!quote.id || !quote.expiresAt) {
      this.options.failed(new ProblemError(502, { code: 'INVALID_RESPONSE', detail: 'The locked quote came without id or expiresAt.' }));
      return;
    }
    this.#keys.reset();
    this.#quote = quote;
    this.#phase = 'locked';
    this.host.requestUpdate();
    const lock = quote.timeLock ?? this.options.timeLock();
    const deadline = this.#sentAt + (lockDurationMs(quote) ?? timeLockSeconds[lock] * 1000);
    this.#countdown.start(deadline);
    // The checkout and the off-ramp paying with this lock count down to the same instant (on the system clock).
    rememberLockDeadline(quote.id, Date.now() + (deadline - this.host.clock.now()));
    this.host.dispatchEvent(new RampQuoteLockedEvent({ exchangeRateId: quote.id, expiresAt: quote.expiresAt, quote }));
    this.options.locked(quote, lock);
  }

  /** Once a payment exists with this lock, its window governs: the panel stops counting and says the rate is held for it. */
  readonly #onTransactionCreated = (event: Event): void => {
    const tx = (event as CustomEvent<Transaction>).detail;
    const id = this.#quote?.id;
    if (!id || this.#phase !== 'locked' || (tx.request.exchangeRateId !== id && tx.quote?.id !== id)) return;
    this.hold();
    this.options.held?.();
  };

  #expire(): void {
    const quote = this.#quote;
    if (this.#phase !== 'locked' || !quote?.id) return;
    const focusInside = Boolean(this.host.shadowRoot?.activeElement);
    this.#phase = 'expired';
    this.host.requestUpdate();
    this.host.dispatchEvent(new RampQuoteExpiredEvent({ exchangeRateId: quote.id, reason: 'timeout' }));
    this.options.expired(focusInside);
  }
}

// <ramp-quote>'s floating quote: asked for only while the panel is on screen, once typing settles and once a period, a newer request aborting the one in flight.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { Task, TaskStatus } from '@lit/task';
import type { Quote } from '../../contract/exchange-rates';
import { ProblemError, type BffClient } from '../../client/bff-client';
import type { AmountError, ParsedAmount } from './amount';
import type { Clock, TimerHandle } from './clock';
import { estimateSource, floatingRequest, type Driver, type Pair } from './model';
import { isAbort } from './problems';

/** Typing settles for this long before a quote is asked for: one request per pause, not one per keystroke. */
export const DEBOUNCE_MS = 300;
/** Default refresh period of a floating quote while the panel is visible. */
export const DEFAULT_REFRESH_MS = 10_000;
/** Below this a refresh period is a mistake that would hammer the server. */
const MIN_REFRESH_MS = 100;
/**
 * While the user drives "you receive", the source is solved from a quote's terms; with no quote for the pair yet, one
 * for this amount of the source currency gives them (rates, fee rates, flat fees do not depend on the size).
 */
const REFERENCE_SOURCE_AMOUNT = '1000';

interface FloatingArgs {
  pair: Pair;
  driver: Driver;
  /** The driver's amount, a decimal string. */
  amount: string;
  /** Target mode: a quote for this pair whose terms solve the source (the current one, when there is one). */
  terms: Quote | undefined;
}

/** Target mode: the source solved for `target` and asked for. */
export type Estimate = { target: string; source: string };

interface FloatingResult {
  quote: Quote;
  estimate?: Estimate;
}

/** The element the quote shows in: watched for visibility; its clock and period are read at each scheduling. */
export type FloatingQuoteHost = ReactiveControllerHost & Element & { readonly clock: Clock; readonly refreshInterval: number };

export interface FloatingQuoteOptions {
  client: () => BffClient;
  /** Besides being seen: the host shows floating quotes (no lock on or being made) and has a session to ask with. */
  allowed: () => boolean;
  /** A failure waits for the user (an alert, a refused amount): no period runs until they act. */
  held: () => boolean;
  /** What to price now: the pair, which amount drives, and that amount as read from its input. */
  wanted: () => { pair: Pair; driver: Driver; amount: ParsedAmount };
  /** The typed amount cannot be priced (the figures were cleared). */
  invalid: (error: AmountError) => void;
  /** An answer came: whether it still counts (a lock started meanwhile: its answer is the one that counts). */
  accepts: () => boolean;
  /** An answer is on screen. */
  landed: () => void;
  /** A request failed (not an abort); its figures were cleared. */
  failed: (error: unknown) => void;
}

/**
 * Plans floating quotes: after a debounce when the user types, at once when the inputs changed, otherwise one period
 * after the last answer. Nothing is asked while the host is off screen, the page hidden or the host disconnected;
 * coming back refreshes at once when the quote on screen is old. In target mode the source is solved from a quote's
 * terms (fetched first if there is none for the pair) and asked for.
 */
export class FloatingQuoteController implements ReactiveController {
  #quote: Quote | undefined;
  #estimate: Estimate | undefined;
  #stale = true;
  #timer: TimerHandle | undefined;
  #lastQuotedAt = Number.NEGATIVE_INFINITY;
  #intersecting = false;
  #observer: IntersectionObserver | undefined;

  readonly #task: Task<[FloatingArgs], FloatingResult>;

  constructor(
    private readonly host: FloatingQuoteHost,
    private readonly options: FloatingQuoteOptions,
  ) {
    host.addController(this);
    this.#task = new Task<[FloatingArgs], FloatingResult>(host, {
      autoRun: false,
      task: ([args], { signal }) => this.#fetch(args, signal),
      onComplete: (result) => this.#land(result),
      onError: (error) => {
        if (isAbort(error)) return;
        this.#show(undefined, undefined);
        options.failed(error);
      },
    });
  }

  /** The floating quote on screen, if any. */
  get quote(): Quote | undefined {
    return this.#quote;
  }

  /** Target mode: the source asked for with the quote on screen; forgotten when the amount that drives changes hands. */
  get estimate(): Estimate | undefined {
    return this.#estimate;
  }

  set estimate(value: undefined) {
    this.#show(this.#quote, value);
  }

  /** Inputs changed since the quote on screen was asked for. */
  get stale(): boolean {
    return this.#stale;
  }

  set stale(value: boolean) {
    if (value === this.#stale) return;
    this.#stale = value;
    this.host.requestUpdate();
  }

  get pending(): boolean {
    return this.#task.status === TaskStatus.PENDING;
  }

  /** Whether the host is on screen, as the IntersectionObserver last said. */
  get intersecting(): boolean {
    return this.#intersecting;
  }

  hostConnected(): void {
    if (typeof IntersectionObserver === 'function') {
      this.#observer = new IntersectionObserver((entries) => {
        this.#intersecting = entries.at(-1)?.isIntersecting ?? false;
        this.schedule();
      });
      this.#observer.observe(this.host);
    } else {
      this.#intersecting = true;
    }
    document.addEventListener('visibilitychange', this.#onVisibilityChange);
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#intersecting = false;
    document.removeEventListener('visibilitychange', this.#onVisibilityChange);
    this.stop();
  }

  /**
   * Plans the next quote: after `delayMs` when given (typing), at once when the inputs changed, otherwise one period
   * after the last answer. A failure the user must act on stops the timer until they do.
   */
  schedule(delayMs?: number): void {
    this.cancel();
    if (!this.#canRefresh()) return;
    if (delayMs === undefined && this.options.held()) return;
    const due = delayMs ?? (this.#stale ? 0 : Math.max(0, this.#lastQuotedAt + this.#refreshMs() - this.host.clock.now()));
    this.#timer = this.host.clock.setTimeout(() => {
      this.#timer = undefined;
      void this.#refresh();
    }, due);
  }

  /** No quote planned until the next `schedule`. */
  cancel(): void {
    if (this.#timer !== undefined) this.host.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Nothing planned and nothing in flight (a lock is being made, or the host left). */
  stop(): void {
    this.cancel();
    this.#task.abort();
  }

  /** The figures on screen no longer answer the inputs (another pair, no amount): gone, and a late answer never lands. */
  clear(): void {
    this.#task.abort();
    this.#show(undefined, undefined);
  }

  /** Quotes are asked for only while someone can see them. */
  #canRefresh(): boolean {
    return this.host.isConnected && this.#intersecting && document.visibilityState === 'visible' && this.options.allowed();
  }

  #refreshMs(): number {
    const ms = Number(this.host.refreshInterval);
    return Number.isFinite(ms) && ms > 0 ? Math.max(MIN_REFRESH_MS, ms) : DEFAULT_REFRESH_MS;
  }

  #onVisibilityChange = (): void => this.schedule();

  async #refresh(): Promise<void> {
    if (!this.#canRefresh()) return;
    const { pair, driver, amount } = this.options.wanted();
    if (!amount.ok) {
      // Nothing to quote: the old figures would describe another amount.
      this.clear();
      if (amount.error !== 'empty') this.options.invalid(amount.error);
      return;
    }
    this.stale = false;
    await this.#task.run([{ pair, driver, amount: amount.value, terms: driver === 'target' ? this.#quote : undefined }]);
  }

  async #fetch({ pair, driver, amount, terms }: FloatingArgs, signal: AbortSignal): Promise<FloatingResult> {
    const client = this.options.client();
    if (driver === 'source') return { quote: await client.createQuote(floatingRequest(pair, amount), { signal }) };
    const reference = terms ?? (await client.createQuote(floatingRequest(pair, REFERENCE_SOURCE_AMOUNT), { signal }));
    const source = estimateSource(reference, amount);
    if (!source) throw new ProblemError(400, { code: 'VALIDATION_FAILED', errors: [{ path: 'targetAmount', message: 'amount too small to cover fees', code: 'BELOW_MINIMUM' }] });
    const chain = pair.blockchain ?? reference.blockchain;
    const quote = await client.createQuote(floatingRequest({ ...pair, blockchain: chain }, source), { signal });
    return { quote, estimate: { target: amount, source } };
  }

  #land({ quote, estimate }: FloatingResult): void {
    if (!this.options.accepts()) return;
    this.#show(quote, estimate);
    this.#lastQuotedAt = this.host.clock.now();
    this.options.landed();
    // A debounce already waiting (the user typed while this was on its way) keeps its turn.
    if (this.#timer === undefined) this.schedule();
  }

  #show(quote: Quote | undefined, estimate: Estimate | undefined): void {
    if (quote === this.#quote && estimate === this.#estimate) return;
    this.#quote = quote;
    this.#estimate = estimate;
    this.host.requestUpdate();
  }
}

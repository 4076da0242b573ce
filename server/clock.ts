// The one clock the service reads time from. In sandbox each partner has a clock of its own (moved forward by
// `/v2/sandbox/clock/advance`, kept in the database); a request or job runs with its partner's offset in scope, so every
// flow reading `now()` gets that partner's time without passing it around. Outside any scope: wall time.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Clock {
  /** Now, for the partner whose offset is in scope (wall time outside any scope). */
  now(): Date;
  /** Runs `fn` with time read `offsetMs` ahead of wall time. */
  within<T>(offsetMs: number, fn: () => Promise<T>): Promise<T>;
}

export class PartnerClock implements Clock {
  private readonly scope = new AsyncLocalStorage<number>();

  now(): Date {
    return new Date(Date.now() + (this.scope.getStore() ?? 0));
  }

  /**
   * A scope only when it changes the time: most partners never move their clock, and an AsyncLocalStorage that has
   * run once keeps a promise hook on every promise of the process for good (its cost: docs/performance.md).
   */
  within<T>(offsetMs: number, fn: () => Promise<T>): Promise<T> {
    if (offsetMs === (this.scope.getStore() ?? 0)) return fn();
    return this.scope.run(offsetMs, fn);
  }
}

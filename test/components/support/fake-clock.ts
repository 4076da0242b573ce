// A clock the test moves by hand: `now()` stands still until `advance(ms)` runs every timer that falls due, in order.
import type { Clock, TimerHandle } from '../../../src/components/quote/clock';

interface Timer {
  at: number;
  seq: number;
  callback: () => void;
}

export class FakeClock implements Clock {
  private time: number;
  private seq = 0;
  private readonly timers = new Map<number, Timer>();

  constructor(start = Date.UTC(2026, 0, 15, 12, 0, 0)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const seq = ++this.seq;
    this.timers.set(seq, { at: this.time + Math.max(0, ms), seq, callback });
    return seq;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as number);
  }

  /** Timers waiting, for asserting that nothing is scheduled. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward, firing each timer at its own moment (a timer set by a timer fires too, if it falls due). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.timers.values()) if (t.at <= end && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      if (!next) break;
      this.timers.delete(next.seq);
      this.time = next.at;
      next.callback();
    }
    this.time = end;
  }
}

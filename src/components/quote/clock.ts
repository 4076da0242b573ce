// The clock every timer of the quote panel runs on (countdown, refresh, debounce): the real one, or a fake a test advances by hand.

export type TimerHandle = unknown;

export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

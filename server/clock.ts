// The one clock the service reads time from; sandbox can move it forward so expiry is testable without sleeping.
export interface Clock {
  now(): Date;
}

/** Wall time plus an offset that only ever grows (sandbox `clock/advance`). */
export class AdjustableClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(seconds: number): Date {
    this.offsetMs += seconds * 1000;
    return this.now();
  }
}

// Countdown arithmetic and text for a locked quote: whole seconds left, `m:ss` on screen, and which spoken thresholds were crossed.

/** Whole seconds left, rounded up: the display reads 0:01 until the very last millisecond, and 0:00 only once expired. */
export function secondsLeft(remainingMs: number): number {
  return remainingMs <= 0 ? 0 : Math.ceil(remainingMs / 1000);
}

/** `m:ss` in the locale's digits (`4:59`, `0:07`): a timer, not a duration sentence, so screen readers get the announcements instead. */
export function formatCountdown(seconds: number, locale: string): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  const nf = new Intl.NumberFormat(locale, { minimumIntegerDigits: 1, useGrouping: false });
  const two = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2, useGrouping: false });
  return `${nf.format(minutes)}:${two.format(rest)}`;
}

/**
 * The threshold to announce when the seconds left went from `before` to `now`: the smallest one crossed, so a tab that
 * slept through 30 s and 10 s says only "10 seconds". A threshold equal to where the countdown started is not crossed:
 * a 30 s lock does not announce "30 seconds left" on top of "locked for 30 seconds".
 */
export function crossedThreshold(before: number, now: number, thresholds: readonly number[]): number | undefined {
  const crossed = thresholds.filter((t) => before > t && now <= t && now > 0);
  return crossed.length ? Math.min(...crossed) : undefined;
}

const clockTimes = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time of an instant, to the second (`2:31:05 PM`, `14:31:05`): a lock lasts minutes, so the date is noise. */
export function formatClockTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = clockTimes.get(locale);
  if (!format) clockTimes.set(locale, (format = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' })));
  return format.format(date);
}

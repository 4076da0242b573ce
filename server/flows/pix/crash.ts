// Test hook of the PIX flows, inert unless a sandbox process runs with RAMP_PIX_CRASH_AT naming a point: the process then
// dies at once, as a SIGKILL would end it, between the PSP's answer and our record of it, so a test can prove that the
// charge or payout is found again and never paid or credited twice (test/server/pix-crash.test.ts).
import type { Deps } from '../../deps';

export type CrashPoint = 'after-payout-sent' | 'after-pix-read' | 'after-charge-created' | 'after-refund-asked';

export function crashPoint(deps: Pick<Deps, 'config'>, point: CrashPoint): void {
  if (deps.config.sandbox && process.env.RAMP_PIX_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
}

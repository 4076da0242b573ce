// A test hook, inert unless a sandbox process runs with RAMP_CHAIN_CRASH_AT naming the point it reaches: the process then
// dies at once, as a SIGKILL would end it, so a test can prove that nothing is lost or moved twice across a crash there.
import type { ChainTransferKind } from '../../domain/chain/payout';
import type { Deps } from '../../deps';

/**
 * after-record: a transfer signed and recorded, not yet sent. after-broadcast: sent, the node's answer not yet recorded.
 * deposits-read: a deposit scan's logs read from the node, nothing of them recorded yet.
 */
export type CrashPoint = 'after-record' | 'after-broadcast' | 'deposits-read';

/**
 * Dies when RAMP_CHAIN_CRASH_AT is `point`, or `point:KIND` and this is a transfer of that kind (`after-broadcast:GAS`
 * lets the treasury's gas transfer die while the off-ramp's own transfer runs on).
 */
export function crashPoint(deps: Pick<Deps, 'config'>, point: CrashPoint, kind?: ChainTransferKind): void {
  if (!deps.config.sandbox) return;
  const at = process.env.RAMP_CHAIN_CRASH_AT;
  if (at === point || (kind !== undefined && at === `${point}:${kind}`)) process.kill(process.pid, 'SIGKILL');
}

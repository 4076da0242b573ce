// The PIX monitor: registers the PSP webhook (and again until it worked), claims the open charges due for a check (FOR
// UPDATE SKIP LOCKED, with a lease; each one's pause grows with its checks) and checks each, and asks for and follows the
// refunds of money that could not pay its on-ramp. Callbacks get lost: this finds a payment without one. Safe on N processes.
import type { PixPsp } from '../domain/pix/pix-psp';
import { checkCharge, followRefunds } from '../flows/pix/charges';
import { registerWebhook } from '../flows/pix/webhook';
import type { Deps } from '../deps';
import { claimDueCharges, claimDuePayouts } from '../store/queries/pix';
import { checkPayout } from '../flows/pix/payouts';
import { PollLoop } from './poll-loop';
import { reasonOf } from './runner';

const BATCH = 20;

export class PixMonitor {
  private readonly loop: PollLoop;
  private registered = false;

  constructor(
    private readonly deps: Deps & { pix: PixPsp },
    /** Longer than a check's PSP calls can take (each bounded by RAMP_PIX_TIMEOUT_MS). */
    private readonly leaseMs: number,
  ) {
    this.loop = new PollLoop(() => this.runDue(), deps.config.pix?.pollMs ?? 5000, (err) => deps.logger.warn({ reason: reasonOf(err) }, 'PIX monitor pass failed; the next one retries'));
  }

  /** One pass; answers how many charges and payouts were checked. Tests call it directly. */
  async runDue(): Promise<number> {
    if (!this.registered) {
      try {
        await registerWebhook(this.deps);
        this.registered = true;
      } catch (err) {
        this.deps.logger.warn({ reason: reasonOf(err) }, 'PSP webhook not registered yet; retried on the next pass (payments are still found by polling)');
      }
    }
    const claimed = await claimDueCharges(this.deps.store.db, new Date(), this.leaseMs, BATCH);
    for (const row of claimed) await checkCharge(this.deps, row);
    const payouts = await claimDuePayouts(this.deps.store.db, new Date(), this.leaseMs, BATCH);
    for (const row of payouts) await checkPayout(this.deps, row);
    await followRefunds(this.deps);
    return claimed.length + payouts.length;
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}

export function pixMonitor(deps: Deps): PixMonitor | undefined {
  if (!deps.pix || !deps.config.pix) return undefined;
  return new PixMonitor({ ...deps, pix: deps.pix }, 4 * deps.config.pix.timeoutMs + deps.config.pix.pollMs);
}

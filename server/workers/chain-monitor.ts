// The chain monitor: claims due chain transfers (FOR UPDATE SKIP LOCKED, with a lease) and checks each one, and watches
// each chain for deposits (one process per chain at a time, by a lease on its cursor); safe on N processes.
import type { Deps } from '../deps';
import { scanDeposits, stopWatching, watcherName } from '../flows/chain/deposits';
import { checkTransfer, type MonitorTiming } from '../flows/chain/monitor';
import { claimDueTransfers } from '../store/queries/chain-transfers';
import { reasonOf } from './runner';
import { PollLoop } from './poll-loop';

/** Transfers claimed at once; the rows of one chain are checked in order (nonces go out in the order they were taken). */
const BATCH = 20;
/** Claim rounds per pass: a transfer due again at once (a reorg seen) is checked again, but a pass always ends. */
const ROUNDS = 5;

export class ChainMonitor {
  private readonly loop: PollLoop;
  /** Set by `stop`: a pass in progress claims no more. */
  private stopping = false;

  /** This process as a deposit watcher (leases name it). */
  readonly watcher = watcherName();

  constructor(
    private readonly deps: Deps,
    readonly timing: MonitorTiming,
  ) {
    this.loop = new PollLoop(
      () => Promise.all([this.runDue(), this.scanDeposits()]),
      timing.pollMs,
      (err) => this.deps.logger.warn({ reason: reasonOf(err) }, 'chain monitor pass failed; the next one retries'),
    );
  }

  /**
   * One deposit pass over every chain: each chain this process leads (or may now lead) is scanned up to its confirmed
   * height, a bounded range at a time. Answers the deposits credited. A chain whose node fails is left to the next pass.
   */
  async scanDeposits(): Promise<number> {
    let credited = 0;
    for (const chain of this.deps.chains.list()) {
      if (this.stopping) break;
      try {
        const pass = await scanDeposits(this.deps, chain, this.watcher, this.timing.leaseMs);
        credited += pass.credited;
        // Only the process that leads a chain knows how far behind its watch is.
        if (pass.behind !== undefined) this.deps.metrics?.chainBlocksBehind.set({ blockchain: chain.settings.blockchain }, Number(pass.behind));
      } catch (err) {
        this.deps.logger.warn({ blockchain: chain.settings.blockchain, reason: reasonOf(err) }, 'deposit scan failed; the next pass retries');
      }
    }
    return credited;
  }

  /** One pass: claims and checks every transfer due now. Answers how many were checked. Tests call it directly. */
  async runDue(): Promise<number> {
    const chains = this.deps.chains.names();
    let checked = 0;
    for (let round = 0; round < ROUNDS && !this.stopping; round++) {
      const claimed = await claimDueTransfers(this.deps.store.db, chains, new Date(), this.timing.leaseMs, BATCH);
      if (claimed.length === 0) break;
      const byChain = new Map<string, typeof claimed>();
      for (const t of claimed) byChain.set(t.blockchain, [...(byChain.get(t.blockchain) ?? []), t]);
      await Promise.all(
        [...byChain.values()].map(async (rows) => {
          for (const row of rows) await checkTransfer(this.deps, this.timing, row);
        }),
      );
      checked += claimed.length;
    }
    return checked;
  }

  start(): void {
    if (this.deps.chains.names().length === 0) return;
    this.stopping = false;
    this.loop.start();
  }

  /** Starts no new pass and waits for the one running (each node call is bounded by RAMP_CHAIN_RPC_TIMEOUT_MS). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    await Promise.all(this.deps.chains.list().map((c) => stopWatching(this.deps, c, this.watcher).catch(() => undefined)));
  }
}

export function chainMonitor(deps: Deps): ChainMonitor {
  const c = deps.config;
  return new ChainMonitor(deps, {
    pollMs: c.RAMP_CHAIN_POLL_MS,
    retryMaxMs: c.RAMP_CHAIN_RETRY_MAX_MS,
    replaceAfterMs: c.RAMP_CHAIN_REPLACE_AFTER_MS,
    // Long enough for the slowest check (a few node calls, each bounded by the timeout) to finish before another process may take it.
    leaseMs: 3 * c.RAMP_CHAIN_RPC_TIMEOUT_MS + c.RAMP_CHAIN_POLL_MS,
  });
}

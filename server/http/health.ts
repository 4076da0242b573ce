// /healthz (the process answers) and /readyz (the database answers too; its detail lists parked and stuck jobs, and each chain's payouts that wait).
import { Hono } from 'hono';
import type { Clock } from '../clock';
import type { Chains } from '../flows/chain/chains';
import { chainWaits } from '../store/queries/chain-transfers';
import type { Store } from '../store/db';
import type { FileStore } from '../store/file-store';
import { type JobSummary, troubledJobs } from '../store/queries/jobs';

/** A job due this long without running (or that failed and waits for a retry) is reported as stuck. */
export const STUCK_AFTER_MS = 5 * 60 * 1000;

const summary = (j: JobSummary) => ({
  id: j.id,
  kind: j.kind,
  attempts: j.attempts,
  runAt: j.runAt.toISOString(),
  ...(j.parkedAt ? { parkedAt: j.parkedAt.toISOString() } : {}),
  ...(j.lastError ? { reason: j.lastError.slice(0, 300) } : {}),
});

/**
 * Per configured chain: its treasury, the payouts in flight by status, and those held back with the reason (the node
 * down, the treasury short of token or gas, a refusal). A chain in trouble does not make the instance unready: every
 * other chain, the fiat side and the API still serve; `status: "waiting"` says which chain needs a person.
 */
async function chainReport(store: Store, chains: Chains) {
  const waits = await chainWaits(store.db);
  return Object.fromEntries(
    chains.list().map((c) => {
      const w = waits.find((x) => x.blockchain === c.settings.blockchain);
      const waiting = w?.waiting ?? [];
      return [c.settings.blockchain, { status: waiting.length ? 'waiting' : 'ok', treasury: c.treasury.address, confirmations: c.settings.confirmations, inFlight: w?.open ?? {}, ...(waiting.length ? { waiting } : {}) }];
    }),
  );
}

export function healthApp(store: Store, opts: { clock?: Clock; chains?: Chains; files?: FileStore } = {}) {
  return new Hono()
    .get('/healthz', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => {
      if (!(await store.ping())) return c.json({ status: 'unavailable', database: store.kind }, 503);
      // Troubled jobs do not make the instance unready (it still serves); they are for whoever watches it.
      const jobs = await troubledJobs(store.db, opts.clock?.now() ?? new Date(), STUCK_AFTER_MS).then(
        (t) => ({ parked: t.parked.map(summary), stuck: t.stuck.map(summary) }),
        () => undefined,
      );
      const chains = opts.chains?.list().length ? await chainReport(store, opts.chains).catch(() => undefined) : undefined;
      // A full disk refuses uploads (507) and nothing else: reported for whoever watches, the instance stays ready.
      const full = opts.files?.fullSince?.();
      const files = full ? { files: { status: 'full', since: full.toISOString() } } : {};
      return c.json({ status: 'ready', database: store.kind, ...(jobs ? { jobs } : {}), ...(chains ? { chains } : {}), ...files });
    });
}

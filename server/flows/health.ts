// What /readyz reports beside the database's answer: parked and stuck jobs, each chain's payouts that wait, and the PSP's
// charges and payouts that wait. None of them makes the instance unready; they are for whoever watches it.
import type { Chains } from './chain/chains';
import type { Db } from '../store/db';
import { chainWaits } from '../store/queries/chain-transfers';
import { type JobSummary, troubledJobs } from '../store/queries/jobs';
import { pixWaits } from '../store/queries/pix';

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

/** Parked and stuck jobs; undefined when the database would not say. */
export const jobsReport = (db: Db, now: Date) =>
  troubledJobs(db, now, STUCK_AFTER_MS).then(
    (t) => ({ parked: t.parked.map(summary), stuck: t.stuck.map(summary) }),
    () => undefined,
  );

/**
 * Per configured chain: its treasury, the payouts in flight by status, and those held back with the reason (the node
 * down, the treasury short of token or gas, a refusal). A chain in trouble does not make the instance unready: every
 * other chain, the fiat side and the API still serve; `status: "waiting"` says which chain needs a person.
 */
export async function chainReport(db: Db, chains: Chains) {
  const waits = await chainWaits(db);
  return Object.fromEntries(
    chains.list().map((c) => {
      const w = waits.find((x) => x.blockchain === c.settings.blockchain);
      const waiting = w?.waiting ?? [];
      return [c.settings.blockchain, { status: waiting.length ? 'waiting' : 'ok', treasury: c.treasury.address, confirmations: c.settings.confirmations, inFlight: w?.open ?? {}, ...(waiting.length ? { waiting } : {}) }];
    }),
  );
}

/** The PSP (PIX): what is open and what waits for it, with the reason; nothing when the database would not say. */
export const pixReport = (db: Db, psp: string) =>
  pixWaits(db).then(
    ({ waiting, ...counts }) => ({ pix: { status: waiting.length ? 'waiting' : 'ok', psp, ...counts, ...(waiting.length ? { waiting } : {}) } }),
    () => ({}),
  );

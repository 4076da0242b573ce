// /healthz (the process answers) and /readyz (the database answers too; its detail lists parked and stuck jobs).
import { Hono } from 'hono';
import type { Clock } from '../clock';
import type { Store } from '../store/db';
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

export function healthApp(store: Store, opts: { clock?: Clock } = {}) {
  return new Hono()
    .get('/healthz', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => {
      if (!(await store.ping())) return c.json({ status: 'unavailable', database: store.kind }, 503);
      // Troubled jobs do not make the instance unready (it still serves); they are for whoever watches it.
      const jobs = await troubledJobs(store.db, opts.clock?.now() ?? new Date(), STUCK_AFTER_MS).then(
        (t) => ({ parked: t.parked.map(summary), stuck: t.stuck.map(summary) }),
        () => undefined,
      );
      return c.json({ status: 'ready', database: store.kind, ...(jobs ? { jobs } : {}) });
    });
}

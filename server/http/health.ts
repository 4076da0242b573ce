// /healthz (the process answers) and /readyz (the database answers too; its detail lists parked and stuck jobs, each chain's payouts that wait, and the PSP's charges and payouts that wait).
import { Hono } from 'hono';
import type { Clock } from '../clock';
import type { Chains } from '../flows/chain/chains';
import type { Deps } from '../deps';
import { chainReport, jobsReport, pixReport } from '../flows/health';

export function healthApp(store: Deps['store'], opts: { clock?: Clock; chains?: Chains; files?: Deps['files']; pix?: { name: string } } = {}) {
  return new Hono()
    .get('/healthz', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => {
      if (!(await store.ping())) return c.json({ status: 'unavailable', database: store.kind }, 503);
      // Troubled jobs do not make the instance unready (it still serves); they are for whoever watches it.
      const jobs = await jobsReport(store.db, opts.clock?.now() ?? new Date());
      const chains = opts.chains?.list().length ? await chainReport(store.db, opts.chains).catch(() => undefined) : undefined;
      // The PSP (PIX): what is open and what waits for it, with the reason. Like a chain's, a PSP in trouble leaves the instance ready.
      const pix = opts.pix ? await pixReport(store.db, opts.pix.name) : {};
      // A full disk refuses uploads (507) and nothing else: reported for whoever watches, the instance stays ready.
      const full = opts.files?.fullSince?.();
      const files = full ? { files: { status: 'full', since: full.toISOString() } } : {};
      return c.json({ status: 'ready', database: store.kind, ...(jobs ? { jobs } : {}), ...(chains ? { chains } : {}), ...pix, ...files });
    });
}

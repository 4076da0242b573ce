// Prometheus metrics (prom-client): the series this process reports, the gauges read at scrape time, and the listener of
// their own that serves them at /metrics (RAMP_METRICS_PORT), never on the public port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type pg from 'pg';
import type { ChainClient } from './domain/chain/chain-client';
import { type PixPsp, PspRefusedError, PspUnavailableError } from './domain/pix/pix-psp';
import type { Chains } from './flows/chain/chains';
import type { LimitName } from './http/rate-limit';
import type { Logger } from './logger';
import type { Store } from './store/db';
import { RequestHistogram } from './request-histogram';
import { chainWaits } from './store/queries/chain-transfers';
import { queueGauges } from './store/queries/gauges';

/** OpenTelemetry's advice for `http.server.request.duration`, in seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** A scrape reuses what the database said this recently: N scrapers (or N processes under RAMP_WORKERS) cost one read per interval. */
const GAUGE_TTL_MS = 5_000;
/** A scrape waits this long for the database at most, then answers with the last values it has. */
const GAUGE_WAIT_MS = 2_000;

export type WebhookOutcome = 'delivered' | 'retrying' | 'exhausted';
const OUTCOMES: WebhookOutcome[] = ['delivered', 'retrying', 'exhausted'];
const BUDGETS: LimitName[] = ['apiKey', 'session', 'link', 'authFailures', 'publicSession', 'demoSession', 'conflicts'];

export interface Metrics {
  registry: Registry;
  httpDuration: RequestHistogram;
  /** Confirmed blocks the deposit watch of a chain has still to scan, set by the process that leads it. */
  chainBlocksBehind: Gauge<'blockchain'>;
  /** The PSP client, its calls counted by operation and outcome and its last success stamped. */
  watchPsp(psp: PixPsp): PixPsp;
  /** One per webhook attempt that finished, by what became of its delivery. */
  webhookDeliveries: Counter<'outcome'>;
  /** One per request refused with 429, by the budget it was over. */
  rateLimited: Counter<'budget'>;
  /** One per job run, by kind and outcome (done, retry, parked): the rails' and reviews' health shows here. */
  jobRuns: Counter<'kind' | 'outcome'>;
  /** Wraps a chain's node client so that each answered call stamps `ramp_chain_rpc_last_success_timestamp_seconds`. */
  watchChainClient(blockchain: string, client: ChainClient): ChainClient;
}

/**
 * A value read from the database for scrapes: fresh for GAUGE_TTL_MS, one read at a time, and a scrape never waits on it
 * longer than GAUGE_WAIT_MS (a slow or absent database leaves the last values in place and is logged once per read).
 */
function scrapeCache<T>(read: () => Promise<T>, logger: Logger, what: string): () => Promise<T | undefined> {
  let value: T | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  return async () => {
    if (performance.now() - readAt < GAUGE_TTL_MS) return value;
    reading ??= read()
      .then(
        (v) => {
          value = v;
          readAt = performance.now();
        },
        (err: Error & { code?: string }) => logger.warn({ what, code: err.code, reason: err.name }, 'metrics: a gauge could not be read; the last value stays'),
      )
      .finally(() => {
        reading = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reading, new Promise<void>((resolve) => (timer = setTimeout(resolve, GAUGE_WAIT_MS)))]);
    clearTimeout(timer);
    return value;
  };
}

export function createMetrics(deps: { store: Store; chains?: Chains; logger: Logger }, opts: { processMetrics?: boolean } = {}): Metrics {
  const { store, logger } = deps;
  const registry = new Registry();
  const registers = [registry];
  // Process and runtime series (CPU, memory, event-loop delay, GC), as every Node service exports them.
  // (`processMetrics: false` leaves them out: bench/metrics-ab.ts weighs them apart.)
  if (opts.processMetrics !== false) collectDefaultMetrics({ register: registry });

  const httpDuration = new RequestHistogram({
    name: 'http_server_request_duration_seconds',
    help: 'Time from a request reaching the app until its answer (status and headers) is ready, by route template.',
    buckets: HTTP_BUCKETS,
    registers,
  });
  const webhookDeliveries = new Counter({
    name: 'ramp_webhook_deliveries_total',
    help: 'Webhook attempts finished: delivered (2xx), retrying (failed, another attempt is scheduled), exhausted (failed, no attempt left).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const rateLimited = new Counter({
    name: 'ramp_rate_limited_total',
    help: 'Requests answered 429, by the budget they were over (RAMP_RATE_LIMIT_*).',
    labelNames: ['budget'] as const,
    registers,
  });
  const jobRuns = new Counter({
    name: 'ramp_job_runs_total',
    help: 'Job runs by kind (transaction.step, transaction.pay, verification.review, …) and outcome: done, retry (failed, runs again later), parked (failed for good).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  // Every label value from the start: a series that appears only on its first event hides the first rise from rate().
  for (const outcome of OUTCOMES) webhookDeliveries.inc({ outcome }, 0);
  for (const budget of BUDGETS) rateLimited.inc({ budget }, 0);

  // The same for every process on one database: under RAMP_WORKERS the supervisor reports the largest, not the sum.
  const maxGauge = <L extends string>(name: string, help: string, labelNames: readonly L[], collect?: (g: Gauge<L>) => Promise<void>) =>
    new Gauge<L>({ name, help, labelNames, registers, aggregator: 'max', ...(collect && { collect() { return collect(this); } }) });
  const queues = scrapeCache(() => queueGauges(store.db, new Date()), logger, 'queues');
  maxGauge('ramp_webhook_queue_depth', 'Webhook deliveries pending (due, waiting for a retry, or in flight); counted up to 100,000. Read from the database, at most every 5 s.', [], async (g) => {
    const q = await queues();
    if (q) g.set(q.webhookQueueDepth);
  });
  maxGauge('ramp_jobs_due', 'Jobs whose time has come and that have not run (neither done nor parked); counted up to 100,000. Read from the database, at most every 5 s.', [], async (g) => {
    const q = await queues();
    if (q) g.set(q.jobsDue);
  });

  // PostgreSQL: pg.Pool's own counts, read at scrape time. Embedded PGlite has no pool (one connection, statements queue
  // inside it), so these series are absent there.
  const pool = store.kind === 'postgres' ? (store.db as unknown as { $client?: pg.Pool }).$client : undefined;
  if (pool) {
    const poolGauge = (name: string, help: string, read: (p: pg.Pool) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(pool));
        },
      });
    poolGauge('ramp_db_pool_total', 'PostgreSQL connections this process holds (idle and checked out).', (p) => p.totalCount);
    poolGauge('ramp_db_pool_idle', 'PostgreSQL connections idle in the pool.', (p) => p.idleCount);
    poolGauge('ramp_db_pool_waiting', 'Queries waiting for a PostgreSQL connection (the pool is exhausted while this is above 0).', (p) => p.waitingCount);
  }

  const chainNames = deps.chains?.names() ?? [];
  const rpcSuccess = maxGauge('ramp_chain_rpc_last_success_timestamp_seconds', 'Unix time of the last call to the chain node that answered, per chain with an RPC URL (RAMP_CHAIN_RPC_<CHAIN>).', ['blockchain']);
  if (chainNames.length) {
    const waits = scrapeCache(() => chainWaits(store.db), logger, 'chain transfers');
    // One series per chain and label value: the last scrape's values replace the previous ones.
    const perChain = <L extends string>(name: string, help: string, label: L, rows: (c: Awaited<ReturnType<typeof chainWaits>>[number]) => [string, number][]) =>
      maxGauge(name, help, ['blockchain', label], async (g) => {
        const w = await waits();
        if (!w) return;
        g.reset();
        for (const c of w) for (const [value, n] of rows(c)) g.set({ blockchain: c.blockchain, [label]: value } as Record<'blockchain' | L, string>, n);
      });
    perChain('ramp_chain_transfers', 'On-chain payouts not yet confirmed, per chain and status. Read from the database, at most every 5 s.', 'status', (c) => Object.entries(c.open));
    perChain(
      'ramp_chain_transfers_waiting',
      'On-chain payouts held back, per chain and reason (NODE_UNAVAILABLE, INSUFFICIENT_TOKEN, INSUFFICIENT_GAS, REJECTED, …). Read from the database, at most every 5 s.',
      'reason',
      (c) => c.waiting.map((x) => [x.reason, x.count]),
    );
  }

  const chainBlocksBehind = maxGauge(
    'ramp_chain_blocks_behind',
    'Confirmed blocks past the deposit watch cursor, per chain: 0 when deposits are credited as soon as they confirm. Reported by the process that leads the chain.',
    ['blockchain'],
  );

  const pspCalls = new Counter({
    name: 'ramp_pix_psp_calls_total',
    help: 'Calls to the PIX PSP (RAMP_PIX_PSP_URL) by operation and outcome: ok, unavailable (no answer, a 5xx, a timeout), refused (a 4xx), error.',
    labelNames: ['operation', 'outcome'] as const,
    registers,
  });
  const pspSuccess = maxGauge('ramp_pix_psp_last_success_timestamp_seconds', 'Unix time of the last call to the PIX PSP that answered.', []);
  const pspOutcome = (err: unknown) => (err instanceof PspUnavailableError ? 'unavailable' : err instanceof PspRefusedError ? 'refused' : 'error');
  const watchPsp = (psp: PixPsp): PixPsp =>
    new Proxy(psp, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function' || typeof key !== 'string') return value;
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (out instanceof Promise) {
            void out.then(
              () => {
                pspCalls.inc({ operation: key, outcome: 'ok' });
                pspSuccess.set(Date.now() / 1000);
              },
              (err) => pspCalls.inc({ operation: key, outcome: pspOutcome(err) }),
            );
          }
          return out;
        };
      },
    });

  const watchChainClient = (blockchain: string, client: ChainClient): ChainClient =>
    new Proxy(client, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        // Signing is local (no node involved); every other method is a call to the node.
        if (typeof value !== 'function' || (typeof key === 'string' && key.startsWith('sign'))) return value;
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (out instanceof Promise) void out.then(() => rpcSuccess.set({ blockchain }, Date.now() / 1000), () => undefined);
          return out;
        };
      },
    });

  return { registry, httpDuration, webhookDeliveries, rateLimited, jobRuns, watchChainClient, chainBlocksBehind, watchPsp };
}

/** Puts each configured chain's node client behind `watchChainClient`, so the monitor's calls stamp their last success. */
export function watchChains(metrics: Metrics, chains: Chains): void {
  for (const c of chains.list()) c.client = metrics.watchChainClient(c.settings.blockchain, c.client);
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text format) on `host:port` and nothing else. Under RAMP_WORKERS it runs in the
 * supervisor, with `text` gathering every server process's metrics (prom-client's AggregatorRegistry).
 */
export async function listenMetrics(source: { text(): Promise<string>; contentType: string }, host: string, port: number, logger: Logger): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at GET /metrics\n');
      return;
    }
    source.text().then(
      (body) => {
        res.writeHead(200, { 'content-type': source.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: Error) => {
        logger.warn({ reason: err.message.slice(0, 300) }, 'metrics: a scrape failed');
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
  server.on('error', (err) => logger.error({ err }, 'metrics server error'));
  logger.info({ port: address.port, host }, 'metrics listening');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's keep-alive connection must not hold the stop up.
        server.closeAllConnections();
      }),
  };
}

/** This process's metrics, as the listener serves them. */
export const ownMetrics = (m: Metrics) => ({ text: () => m.registry.metrics(), contentType: m.registry.contentType });

/**
 * Under RAMP_WORKERS: in each server process, the registry the supervisor's scrape asks for over the cluster channel; in
 * the supervisor, every process's series merged (counters and histograms summed, database gauges the largest).
 */
export function shareWithSupervisor(m: Metrics): void {
  AggregatorRegistry.setRegistries([m.registry]);
  // prom-client answers the supervisor's asks only once an AggregatorRegistry exists in this process too.
  new AggregatorRegistry();
}

export function clusterMetrics() {
  const aggregator = new AggregatorRegistry();
  return { text: () => aggregator.clusterMetrics(), contentType: aggregator.contentType };
}

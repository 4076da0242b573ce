// Process entry: read the configuration, start, listen; drain and stop cleanly on SIGINT/SIGTERM. With RAMP_WORKERS
// above one, this process supervises that many server processes instead (server/cluster.ts), each running the rest.
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createApp } from './app';
import { serverOptions } from './http/batched-response';
import { draining, LINGER_MS } from './http/connection';
import { supervise } from './cluster';
import { bootstrap } from './bootstrap';
import { type Config, ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { clusterMetrics, createMetrics, listenMetrics, type MetricsListener, ownMetrics, shareWithSupervisor, watchChains } from './metrics';
import { installProcessGuards } from './process-guard';
import { createWorkers } from './workers/index';
import { orphanSweeper } from './workers/orphan-sweep';
import { webhookDispatcher } from './workers/webhooks';
import { chainMonitor } from './workers/chain-monitor';
import { pixMonitor } from './workers/pix-monitor';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    for (const line of err.message.split('\n')) process.stderr.write(`ramp: invalid configuration: ${line}\n`);
    process.exit(78);
  }
  throw err;
}

const logger = createLogger(config.RAMP_LOG_LEVEL);
if (cluster.isPrimary && config.workers > 1) {
  await supervise(config, logger);
  // One scrape target for all the server processes: the supervisor gathers theirs over the cluster channel.
  if (config.RAMP_METRICS_PORT !== undefined) await serveMetrics(clusterMetrics());
} else await serveThisProcess(config);

/** The metrics listener (RAMP_METRICS_PORT), or the process ends as for the main port: a start that cannot serve it is refused. */
async function serveMetrics(source: Parameters<typeof listenMetrics>[0]): Promise<MetricsListener> {
  const { RAMP_METRICS_HOST: host, RAMP_METRICS_PORT: port = 0 } = config;
  return listenMetrics(source, host, port, logger).catch((err: NodeJS.ErrnoException) => {
    const why = err.code === 'EADDRINUSE' ? 'the port is in use' : err.code === 'EACCES' ? 'permission denied' : err.message;
    process.stderr.write(`ramp: cannot listen for metrics on ${host}:${port}: ${why}\n`);
    process.exit(1);
  });
}

async function serveThisProcess(config: Config): Promise<void> {
  const deps = await bootstrap(config, logger).catch((err) => {
    if (!(err instanceof ConfigError)) throw err;
    for (const line of err.message.split('\n')) process.stderr.write(`ramp: invalid configuration: ${line}\n`);
    process.exit(78);
  });
  if (config.RAMP_METRICS_PORT !== undefined) {
    deps.metrics = createMetrics(deps);
    watchChains(deps.metrics, deps.chains);
    if (deps.pix) deps.pix = deps.metrics.watchPsp(deps.pix);
  }
  const server = createAdaptorServer({ fetch: (req: Request, env: unknown) => app.fetch(req, env), hostname: config.HOST, serverOptions }) as Server;
  // A port that cannot be had (taken, not permitted) ends the start with one line naming it: a process that serves
  // nothing must not look alive to whoever started it.
  const listening = await new Promise<AddressInfo | Error>((resolve) => {
    server.once('error', resolve);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', resolve);
      resolve(server.address() as AddressInfo);
    });
  });
  if (listening instanceof Error) {
    const code = (listening as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EACCES' ? 'permission denied' : listening.message;
    process.stderr.write(`ramp: cannot listen on ${config.HOST}:${config.PORT}: ${why}\n`);
    process.exit(1);
  }
  // PORT=0 without RAMP_PUBLIC_URL (tests): the public URL names the port the system gave.
  if (!config.RAMP_PUBLIC_URL && config.PORT === 0) config.publicUrl = `http://${urlHost(config.HOST)}:${listening.port}`;
  // Built once the address is known; no request can reach it before this synchronous step ends.
  const app = createApp(deps);
  // Under RAMP_WORKERS the supervisor serves every process's metrics; alone, this process serves its own.
  if (deps.metrics && cluster.isWorker) shareWithSupervisor(deps.metrics);
  const metricsListener = deps.metrics && !cluster.isWorker ? await serveMetrics(ownMetrics(deps.metrics)) : undefined;
  const workers = createWorkers(deps);
  workers.start();
  const sweeper = orphanSweeper({ db: deps.store.db, files: deps.files, logger, config });
  sweeper.start();
  const webhooks = webhookDispatcher(deps);
  webhooks.start();
  const payouts = chainMonitor(deps);
  payouts.start();
  // PIX through a PSP: the webhook registered, open charges polled, refunds followed.
  const pix = pixMonitor(deps);
  pix?.start();
  server.on('error', (err) => logger.error({ err }, 'server error'));
  logger.info({ port: listening.port, env: config.RAMP_ENV, database: deps.store.kind }, 'listening');
  // One of several processes: the supervisor says it once all are listening.
  if (!cluster.isWorker) process.stdout.write(`Ramp ${config.RAMP_ENV} listening on ${config.publicUrl} (database: ${deps.store.kind})\n`);
  // From here on nothing a client does may end the process (before, a failed start should).
  installProcessGuards(logger);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const graceMs = config.RAMP_SHUTDOWN_GRACE_MS;
    logger.info({ signal, graceMs }, 'stopping: no new connections; finishing requests in flight and the current job step');
    // Stop accepting. Every answer from now on says `Connection: close`; a keep-alive connection stays open for a moment
    // (LINGER_MS) so that a request already on its way over it is answered rather than reset, then idle ones are closed.
    // (http.Server.close would close the idle ones at once: net.Server's close only stops listening.)
    draining.started = true;
    // Connections the kernel queued before the signal but a busy event loop has not accepted yet would be reset by closing
    // the listener: two more turns of the loop accept them (their requests are answered, with `Connection: close`).
    for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
    let idle: NodeJS.Timeout | undefined;
    // Idle connections are closed after the poll phase (setImmediate), never straight from a timer: after a blocked event
    // loop the timer runs first, and a request already received but not yet read would be taken for idle and reset.
    const closeIdle = () => setImmediate(() => server.closeIdleConnections());
    const linger = setTimeout(() => {
      closeIdle();
      idle = setInterval(closeIdle, 50);
    }, Math.min(LINGER_MS, graceMs));
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const drained = await Promise.race([Promise.all([closed, workers.stop(), sweeper.stop(), webhooks.stop(), payouts.stop(), pix?.stop()]).then(() => 'drained' as const), graceOver]);
    clearTimeout(linger);
    clearInterval(idle);
    clearTimeout(timer);
    if (drained === 'timeout') {
      logger.warn({ graceMs }, 'grace period over: closing the connections still open');
      server.closeAllConnections();
    }
    await metricsListener?.close();
    await deps.store.close().catch((err) => logger.warn({ err }, 'closing the database pool failed'));
    logger.info({ signal }, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** The host part of a URL for a listening address: a wildcard is reached as localhost, an IPv6 literal in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

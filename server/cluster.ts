// More than one server process (RAMP_WORKERS, PostgreSQL only): this process supervises, each worker is a whole server
// (HTTP, job worker, webhook dispatcher) on the one port, sharing the database. Everything that must hold across
// processes already does through PostgreSQL: jobs, webhook fan-out and deliveries are claimed with SKIP LOCKED,
// migrations take an advisory lock, rate limits spend leases of a shared budget, idempotency keys are rows.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config';
import type { Logger } from './logger';

/** The exit code of a start refused for its configuration (main.ts): not worth starting again. */
const CONFIG_EXIT = 78;
/** A process that dies within this long of its start counts as failing at start: the next start waits longer. */
const QUICK_DEATH_MS = 5_000;

function started(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null, signal: string | null) => reject(Object.assign(new Error(`server process exited before listening (${signal ?? code})`), { code }));
    worker.once('exit', exited);
    worker.once('listening', () => {
      worker.off('exit', exited);
      resolve();
    });
  });
}

/**
 * Starts `config.workers` server processes and keeps them running: a process that crashes or is killed is replaced
 * (after 1 s, doubling up to 30 s while replacements keep dying at start); one that exits cleanly is not. SIGTERM or
 * SIGINT stops them all (each drains as a single server does) and then this process exits 0.
 */
export async function supervise(config: Config, logger: Logger): Promise<void> {
  let stopping = false;
  const bornAt = new WeakMap<Worker, number>();
  const fork = () => {
    const w = cluster.fork();
    bornAt.set(w, Date.now());
    return w;
  };
  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const fail = (err: unknown): never => {
    for (const w of alive()) w.process.kill('SIGKILL');
    const code = (err as { code?: number }).code;
    process.stderr.write(`ramp: ${(err as Error).message}\n`);
    process.exit(code === CONFIG_EXIT ? CONFIG_EXIT : 1);
  };

  // The first process starts alone: it migrates the database and, in sandbox, writes the API key the others read.
  await started(fork()).catch(fail);
  await Promise.all(Array.from({ length: config.workers - 1 }, () => started(fork()))).catch(fail);
  logger.info({ workers: config.workers }, 'all server processes listening');
  process.stdout.write(`Ramp ${config.RAMP_ENV} listening on ${config.publicUrl} (database: postgres, ${config.workers} processes)\n`);

  let delayMs = 1_000;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (code === 0 && !signal) {
      logger.warn({ workerPid: worker.process.pid }, 'a server process stopped cleanly; not replaced');
      if (alive().length === 0) process.exit(0);
      return;
    }
    const quick = Date.now() - (bornAt.get(worker) ?? 0) < QUICK_DEATH_MS;
    delayMs = quick ? Math.min(delayMs * 2, 30_000) : 1_000;
    logger.error({ workerPid: worker.process.pid, code, signal, restartInMs: delayMs }, 'a server process died; starting another');
    setTimeout(() => {
      if (!stopping) fork();
    }, delayMs).unref();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping every server process');
    const gone = () => {
      if (alive().length > 0) return;
      clearTimeout(kill);
      logger.info({ signal }, 'stopped');
      process.exit(0);
    };
    // Past each process's own grace period, whatever is left is killed.
    const kill = setTimeout(() => alive().forEach((w) => w.process.kill('SIGKILL')), config.RAMP_SHUTDOWN_GRACE_MS + 5_000);
    cluster.on('exit', gone);
    for (const w of alive()) w.process.kill('SIGTERM');
    gone();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

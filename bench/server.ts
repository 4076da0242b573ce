// The server under test for bench/http.ts, in a process of its own (so the load generator and the bare floor share
// neither its event loop nor its memory): the real app on PGlite in a temp data dir or on PostgreSQL in a schema of its own,
// listening on a free port. It answers the bench over IPC: `sql` runs a statement on its store (seeding: PGlite cannot
// be opened by a second process), `peakRss` answers the peak RSS since the last ask, `stop` drops the bench schema and
// exits. BENCH_WORKERS above one (PostgreSQL): that many server processes on one port, as RAMP_WORKERS runs them; this
// process then only supervises and seeds, and the RSS reported is the sum of the workers' and its own. BENCH_METRICS=1
// measures every request into the Prometheus series, as RAMP_METRICS_PORT does.
import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createApp } from '../server/app';
import { bootstrap } from '../server/bootstrap';
import { serverOptions } from '../server/http/batched-response';
import { loadConfig } from '../server/config';
import { createLogger } from '../server/logger';
import { createMetrics } from '../server/metrics';
import { openStore, type Store } from '../server/store/db';

const apiKey = process.env.BENCH_API_KEY!;
const databaseUrl = process.env.DATABASE_URL ?? '';
const workers = databaseUrl ? Number(process.env.BENCH_WORKERS ?? 1) : 1;
const config = loadConfig({ RAMP_API_KEY: apiKey, RAMP_SESSION_SECRET: 'b'.repeat(40), RAMP_LOG_LEVEL: 'silent', RAMP_DATA_DIR: '/nonexistent', RAMP_RATE_LIMIT_API_KEY: '100000000/1', DATABASE_URL: databaseUrl });
const schema = databaseUrl ? (process.env.BENCH_SCHEMA ?? `ramp_bench_${process.pid}`) : undefined;

let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100).unref();
const takePeak = () => {
  const value = Math.max(peak, process.memoryUsage.rss());
  peak = 0;
  return value;
};

/** The whole server in this process: store, app, listening on a free port (shared by the workers in cluster mode). */
async function runServer(store: Store) {
  const deps = await bootstrap(config, createLogger('silent'), { store });
  // BENCH_METRICS=1: the app as RAMP_METRICS_PORT runs it (the histogram on every request, the counters), for bench/metrics-ab.ts.
  // BENCH_METRICS=2: the same without prom-client's process and runtime series.
  if (process.env.BENCH_METRICS === '1' || process.env.BENCH_METRICS === '2') deps.metrics = createMetrics(deps, { processMetrics: process.env.BENCH_METRICS === '1' });
  const app = createApp(deps);
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', serverOptions }) as Server;
  await new Promise((r) => server.once('listening', r));
  return { server, deps };
}

if (cluster.isWorker) {
  const store = await openStore({ databaseUrl, schema });
  await runServer(store);
  process.on('message', (m: { peakRss?: number }) => {
    if (m.peakRss !== undefined) process.send!({ peakRss: m.peakRss, value: takePeak() });
  });
} else {
  // PGlite in a data dir on disk, as `npm start` runs it (in memory its files would sit in this process's RSS too).
  const dataDir = databaseUrl ? undefined : mkdtempSync(join(tmpdir(), 'ramp-bench-'));
  const store = await openStore({ databaseUrl, dataDir, schema });
  let port: number;
  let partnerId: string | undefined;
  let server: Server | undefined;
  if (workers > 1) {
    cluster.setupPrimary({ exec: process.argv[1]! });
    for (let i = 0; i < workers; i++) {
      const w = cluster.fork({ ...process.env, BENCH_SCHEMA: schema });
      port = await new Promise<number>((resolve) => w.once('listening', (address) => resolve(address.port)));
    }
    partnerId = (await bootstrap(config, createLogger('silent'), { store })).partnerId;
  } else {
    const running = await runServer(store);
    server = running.server;
    partnerId = running.deps.partnerId;
    port = (server.address() as AddressInfo).port;
  }
  let asks = 0;
  const workersPeak = async (): Promise<number> => {
    const id = ++asks;
    const all = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    const values = await Promise.all(
      all.map(
        (w) =>
          new Promise<number>((resolve) => {
            const on = (m: { peakRss?: number; value: number }) => {
              if (m.peakRss !== id) return;
              w.off('message', on);
              resolve(m.value);
            };
            w.on('message', on);
            w.send({ peakRss: id });
          }),
      ),
    );
    return values.reduce((a, b) => a + b, 0);
  };

  /** Drops the bench's schema; retried while a worker just killed still holds its locks (a deadlock, 40P01). */
  const dropSchema = async (name: string, attempts = 5): Promise<void> => {
    try {
      await store.db.execute(sql.raw(`DROP SCHEMA IF EXISTS ${name} CASCADE`));
    } catch (err) {
      const code = (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
      if (code !== '40P01' || attempts <= 1) throw err;
      await new Promise((r) => setTimeout(r, 200));
      await dropSchema(name, attempts - 1);
    }
  };

  type Ask = { id: number; sql?: string; peakRss?: true; stop?: true };
  process.on('message', async (m: Ask) => {
    try {
      if (m.sql !== undefined) {
        await store.db.execute(sql.raw(m.sql));
        process.send!({ id: m.id, ok: true });
      } else if (m.peakRss) {
        process.send!({ id: m.id, ok: true, value: takePeak() + (workers > 1 ? await workersPeak() : 0) });
      } else if (m.stop) {
        // The load generator's last requests may still be running: their transactions and the DROP below lock the same
        // tables in other orders (PostgreSQL then fails one of them as a deadlock). Let them finish first.
        if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
        for (const w of Object.values(cluster.workers ?? {})) w?.kill();
        if (schema) await dropSchema(schema);
        await store.close();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
        process.send!({ id: m.id, ok: true }, () => process.exit(0));
      }
    } catch (err) {
      process.send!({ id: m.id, ok: false, error: (err as Error).message });
    }
  });
  process.send!({ ready: true, port: port!, partnerId, kind: store.kind, workers });
}

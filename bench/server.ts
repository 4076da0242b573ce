// The server under test for bench/http.ts, in a process of its own (so the load generator and the bare floor share
// neither its event loop nor its memory): the real app on PGlite in a temp data dir or on PostgreSQL in a schema of its own,
// listening on a free port. It answers the bench over IPC: `sql` runs a statement on its store (seeding: PGlite cannot
// be opened by a second process), `peakRss` answers this process's peak RSS since the last ask, `stop` drops the bench
// schema and exits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createApp } from '../server/app';
import { bootstrap } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { createLogger } from '../server/logger';
import { openStore } from '../server/store/db';

const apiKey = process.env.BENCH_API_KEY!;
const databaseUrl = process.env.DATABASE_URL ?? '';
const config = loadConfig({ RAMP_API_KEY: apiKey, RAMP_SESSION_SECRET: 'b'.repeat(40), RAMP_LOG_LEVEL: 'silent', RAMP_DATA_DIR: '/nonexistent', RAMP_RATE_LIMIT_API_KEY: '100000000/1', DATABASE_URL: databaseUrl });
const schema = databaseUrl ? `ramp_bench_${process.pid}` : undefined;
// PGlite in a data dir on disk, as `npm start` runs it (in memory its files would sit in this process's RSS too).
const dataDir = databaseUrl ? undefined : mkdtempSync(join(tmpdir(), 'ramp-bench-'));
const store = await openStore({ databaseUrl, dataDir, schema });
const deps = await bootstrap(config, createLogger('silent'), { store });
const app = createApp(deps);
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
await new Promise((r) => server.once('listening', r));

let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100).unref();

type Ask = { id: number; sql?: string; peakRss?: true; stop?: true };
process.on('message', async (m: Ask) => {
  try {
    if (m.sql !== undefined) {
      await store.db.execute(sql.raw(m.sql));
      process.send!({ id: m.id, ok: true });
    } else if (m.peakRss) {
      const value = Math.max(peak, process.memoryUsage.rss());
      peak = 0;
      process.send!({ id: m.id, ok: true, value });
    } else if (m.stop) {
      server.close();
      if (schema) await store.db.execute(sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
      await store.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      process.send!({ id: m.id, ok: true }, () => process.exit(0));
    }
  } catch (err) {
    process.send!({ id: m.id, ok: false, error: (err as Error).message });
  }
});
process.send!({ ready: true, port: (server.address() as AddressInfo).port, partnerId: deps.partnerId, kind: store.kind });

// HTTP benchmark: requests per second of the real app (API-key auth, a customer read from the database) as a ratio of bare node:http answering JSON, same machine, same run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from '../server/app';
import { bootstrap } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { generateApiKey } from '../server/domain/api-keys';
import { createLogger } from '../server/logger';
import { openStore } from '../server/store/db';

/** The app must keep at least this share of bare node:http's throughput on a database read. */
const FLOOR_RATIO = 0.05;
const REQUESTS = 3000;
const CONCURRENCY = 16;

async function load(url: string, headers: Record<string, string>): Promise<number> {
  // Warm up, then measure.
  for (let i = 0; i < 200; i++) await (await fetch(url, { headers })).arrayBuffer();
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < REQUESTS) {
        sent++;
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      }
    }),
  );
  return REQUESTS / ((performance.now() - started) / 1000);
}

const listen = (server: Server) => new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));

const body = JSON.stringify({ id: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d', type: 'INDIVIDUAL', name: 'Ana Souza', verification: { status: 'NOT_STARTED' } });
const bare = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
const barePort = await listen(bare);

const apiKey = generateApiKey('sandbox');
const config = loadConfig({ RAMP_API_KEY: apiKey, RAMP_SESSION_SECRET: 'b'.repeat(40), RAMP_LOG_LEVEL: 'silent', RAMP_DATA_DIR: '/nonexistent', DATABASE_URL: process.env.DATABASE_URL ?? '' });
const store = await openStore({ databaseUrl: config.DATABASE_URL, dataDir: 'memory://', schema: config.DATABASE_URL ? `ramp_bench_${process.pid}` : undefined });
const deps = await bootstrap(config, createLogger('silent'), { store });
const app = createApp(deps);
const created = await app.request('/v2/customers', {
  method: 'POST',
  headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'INDIVIDUAL', name: 'Ana Souza', taxId: '529.982.247-25', birthDate: '1990-05-17' }),
});
const { id } = (await created.json()) as { id: string };
const ramp = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
await new Promise((r) => ramp.once('listening', r));
const rampPort = (ramp.address() as AddressInfo).port;

// The client shares this process: the first run also warms it, so the baseline is the better of two.
const baseline = Math.max(await load(`http://127.0.0.1:${barePort}/`, {}), await load(`http://127.0.0.1:${barePort}/`, {}));
const read = await load(`http://127.0.0.1:${rampPort}/v2/customers/${id}`, { authorization: `Bearer ${apiKey}` });
const health = await load(`http://127.0.0.1:${rampPort}/healthz`, {});
console.log(`node:http JSON baseline      ${baseline.toFixed(0)} req/s`);
console.log(`GET /healthz                 ${health.toFixed(0)} req/s  (${(health / baseline).toFixed(2)}×)`);
console.log(`GET /v2/customers/{id} (${store.kind})  ${read.toFixed(0)} req/s  (${(read / baseline).toFixed(2)}×, floor ${FLOOR_RATIO}×)`);
bare.close();
ramp.close();
await store.close();
if (read / baseline < FLOOR_RATIO) {
  console.error('http: under the floor');
  process.exit(1);
}

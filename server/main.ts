// Process entry: read the configuration, start, listen; stop cleanly on SIGINT/SIGTERM.
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { bootstrap } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { createWorkers } from './workers/index';

let config;
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
const deps = await bootstrap(config, logger);
const app = createApp(deps);
const workers = createWorkers(deps);
workers.start();
const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  logger.info({ port: info.port, env: config.RAMP_ENV, database: deps.store.kind }, 'listening');
  process.stdout.write(`Ramp ${config.RAMP_ENV} listening on ${config.publicUrl} (database: ${deps.store.kind})\n`);
});

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  server.close();
  await workers.stop();
  await deps.store.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

// End-to-end support: the real server as a child process on 127.0.0.1 (embedded database in a temp dir), and headless Chromium through playwright-core.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { findChromium } from '../../scripts/ensure-chromium.mjs';
import { nodeFlags } from '../../scripts/node-flags.mjs';
import { scaledMs, serverArgs, spawnServer } from '../support/server-child';

export interface RunningServer {
  url: string;
  apiKey: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * The server from its sources through tsx; `bundled`: as `npm start` runs it (dist/server/main.js with its flags;
 * build it first, `node scripts/build-if-stale.mjs`). It listens on port 0 and says which port it got; its public URL
 * follows (RAMP_PUBLIC_URL unset).
 */
export async function startServer(env: Record<string, string> = {}, opts: { bundled?: boolean } = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ramp-e2e-'));
  const apiKey = `sk_sandbox_e2e${Math.random().toString(36).slice(2)}${'x'.repeat(16)}`;
  // Bundled: with the flags `npm start` gives node beside PGlite (scripts/node-flags.mjs).
  const args = opts.bundled ? [...nodeFlags({ DATABASE_URL: '' }), 'dist/server/main.js'] : serverArgs();
  const server = spawnServer(
    {
      DATABASE_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      RAMP_PUBLIC_URL: undefined,
      RAMP_DATA_DIR: dataDir,
      RAMP_API_KEY: apiKey,
      RAMP_LOG_LEVEL: 'warn',
      // A browser test mints sessions and polls far faster than a person: keep the limits out of its way.
      RAMP_RATE_LIMIT_DEMO_SESSION: '1000/60',
      RAMP_RATE_LIMIT_SESSION: '100000/60',
      RAMP_RATE_LIMIT_LINK: '100000/60',
      ...env,
    },
    { args },
  );
  const stop = async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const port = await server.port.catch(async (err) => {
    await stop();
    throw err;
  });
  const url = `http://127.0.0.1:${port}`;
  // Listening is not yet ready: wait for the database too.
  const deadline = Date.now() + scaledMs(60_000);
  while (!(await fetch(`${url}/readyz`).then((r) => r.ok).catch(() => false))) {
    if (Date.now() > deadline || server.child.exitCode !== null) {
      await stop();
      throw new Error(`server not ready: ${server.output()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, apiKey, output: server.output, stop };
}

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('No Chromium: run node scripts/ensure-chromium.mjs');
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--lang=en-US'],
  });
}

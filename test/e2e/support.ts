// End-to-end support: the real server as a child process on 127.0.0.1 (embedded database in a temp dir), and headless Chromium through playwright-core.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { findChromium } from '../../scripts/ensure-chromium.mjs';
import { nodeFlags } from '../../scripts/node-flags.mjs';

export interface RunningServer {
  url: string;
  apiKey: string;
  output: () => string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const root = new URL('../..', import.meta.url).pathname;

/**
 * The server from its sources through tsx; `bundled`: as `npm start` runs it (dist/server/main.js with its flags;
 * build it first, `node scripts/build-if-stale.mjs`).
 */
export async function startServer(env: Record<string, string> = {}, opts: { bundled?: boolean } = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ramp-e2e-'));
  const apiKey = `sk_sandbox_e2e${Math.random().toString(36).slice(2)}${'x'.repeat(16)}`;
  const url = `http://127.0.0.1:${port}`;
  let out = '';
  // Bundled: with the flags `npm start` gives node beside PGlite (scripts/node-flags.mjs).
  const args = opts.bundled ? [...nodeFlags({ DATABASE_URL: '' }), 'dist/server/main.js'] : ['--import', 'tsx', 'server/main.ts'];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      RAMP_DATA_DIR: dataDir,
      RAMP_API_KEY: apiKey,
      RAMP_PUBLIC_URL: url,
      RAMP_LOG_LEVEL: 'warn',
      // A browser test mints sessions and polls far faster than a person: keep the limits out of its way.
      RAMP_RATE_LIMIT_DEMO_SESSION: '1000/60',
      RAMP_RATE_LIMIT_SESSION: '100000/60',
      RAMP_RATE_LIMIT_LINK: '100000/60',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${out}`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok).catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`server not ready in 60 s: ${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    apiKey,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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

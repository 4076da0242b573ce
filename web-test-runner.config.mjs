// @web/test-runner: component tests in headless Debian Chromium, TypeScript through esbuild, msw's worker served from `/`.
import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { findChromium } from './scripts/ensure-chromium.mjs';

const executablePath = findChromium();
if (!executablePath) {
  throw new Error('No Chromium found: run `node scripts/ensure-chromium.mjs` (installs it on Debian as root) or set CHROME_PATH.');
}

const mswWorker = fileURLToPath(new URL('./test/components/msw/mockServiceWorker.js', import.meta.url));

/** The worker must be served from the root so its scope covers the test pages. */
function serveMswWorker(context, next) {
  if (context.path !== '/mockServiceWorker.js') return next();
  context.type = 'application/javascript';
  context.set('Service-Worker-Allowed', '/');
  context.body = createReadStream(mswWorker);
  return undefined;
}

export default {
  files: 'test/components/**/*.test.ts',
  nodeResolve: { browser: true, exportConditions: ['browser', 'development'] },
  plugins: [
    esbuildPlugin({
      ts: true,
      json: true,
      target: 'es2022',
      tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)),
    }),
  ],
  middleware: [serveMswWorker],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--disable-dev-shm-usage',
          // Fixed UI language, so native date inputs take keystrokes as mm/dd/yyyy on every machine.
          '--lang=en-US',
        ],
      },
    }),
  ],
  concurrency: 1,
  // A file's whole run: the axe matrix (seven components × states × two themes × three languages) needs more than the
  // default two minutes on a loaded 2-core machine.
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 10_000 } },
};

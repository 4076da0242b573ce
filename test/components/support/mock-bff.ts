// One msw worker per test page, started before the first test, reset after each: the scenarios themselves live in test/components/mocks.
import { setupWorker } from 'msw/browser';

export const worker = setupWorker();

/** Call from a `before` hook; the worker script is served at /mockServiceWorker.js by web-test-runner.config.mjs. */
export async function startMockBff(): Promise<void> {
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true, onUnhandledRequest: 'bypass' });
}

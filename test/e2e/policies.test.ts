// The pages under their Content-Security-Policy in a real browser: the demo page and the API reference render and work,
// and the browser reports no violation (a policy too strict for the page would show here, not in production).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, type RunningServer, startServer } from './support';

let server: RunningServer;
let browser: Browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page that records every CSP violation the browser reports. */
async function watched(): Promise<{ page: Page; violations: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy: ${e.violatedDirective} blocked ${e.blockedURI}`)),
  );
  return { page, violations };
}

test('the demo page renders its components and mints its session under its policy, with no violation', async () => {
  const { page, violations } = await watched();
  await page.goto(server.url);
  await page.waitForSelector('#session-status[data-state="ready"]', { timeout: 30_000 });
  await page.waitForSelector('ramp-onboarding [data-testid=type-INDIVIDUAL]', { timeout: 30_000 });
  assert.deepEqual(violations, []);
});

test('/docs renders the API reference from /openapi.json under its policy, with no violation', async () => {
  const { page, violations } = await watched();
  await page.goto(`${server.url}/docs`);
  await page.waitForSelector('.swagger-ui .info .title', { timeout: 30_000 });
  assert.match((await page.textContent('.swagger-ui .info .title')) ?? '', /Ramp API/);
  await page.waitForSelector('.opblock', { timeout: 30_000 });
  assert.deepEqual(violations, []);
});

// One clock for a payment, on a partner's page of another origin built from docs/embedding.md's Buy snippet (<ramp-quote> and
// <ramp-pix-checkout> side by side): once the payment exists its window governs; the quote panel stops its own lock
// countdown, says the rate is held for the payment, and neither expires the lock nor says so. 1280 px (en), 320 px (es).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { approvedCustomerOverApi } from './flows';
import { type Host, hostPage, sdkUrl, startHost } from './host-page';
import { launchBrowser, type RunningServer, startServer } from './support';

let ramp: RunningServer;
let browser: Browser;
let host: Host;

/** docs/embedding.md's Buy snippet, with the session from the URL and the quote events recorded. */
const buyScript = `
const session = new URLSearchParams(location.search).get('session');
const quote = document.getElementById('quote');
const pay = document.getElementById('pay');
quote.session = session;
pay.session = session;
window.quoteEvents = [];
for (const type of ['ramp-quote-locked', 'ramp-quote-expired']) quote.addEventListener(type, () => quoteEvents.push(type));
quote.addEventListener('ramp-quote-locked', (event) => {
  Object.assign(pay, { exchangeRateId: event.detail.exchangeRateId, quote: event.detail.quote, hidden: false });
});
`;

const body = '<ramp-quote id="quote" direction="buy" fiat="BRL" amount="500"></ramp-quote><ramp-pix-checkout id="pay" hidden></ramp-pix-checkout>';

before(async () => {
  ramp = await startServer({ RAMP_SANDBOX_REVIEW_MS: '200' });
  browser = await launchBrowser();
  host = await startHost(ramp, {
    '/buy.js': { js: buyScript },
    '/en.html': { html: hostPage('buy', 'en', ['/host.js', sdkUrl(ramp), '/buy.js'], body) },
    '/es.html': { html: hostPage('buy', 'es', ['/host.js', sdkUrl(ramp), '/buy.js'], body) },
  });
});

after(async () => {
  await browser?.close();
  await ramp?.stop();
  await host?.close();
});

const approvedCustomer = () => approvedCustomerOverApi(ramp, 'Davi Rocha', '1987-11-21');

const cases = [
  { width: 1280, path: '/en.html', held: 'Rate held for your payment' },
  { width: 320, path: '/es.html', held: 'Tipo de cambio reservado para tu pago' },
] as const;

async function run(c: (typeof cases)[number]): Promise<void> {
  const customerId = await approvedCustomer();
  const context = await browser.newContext({ viewport: { width: c.width, height: 900 }, isMobile: c.width < 400, hasTouch: c.width < 400 });
  // The page's clock is Playwright's: it runs as the wall clock does, and jumps past the lock below instead of waiting it out.
  await context.clock.install();
  const page = await context.newPage();
  await page.goto(`${host.origin}${c.path}?session=${encodeURIComponent(await host.mintSession(customerId))}`);
  await page.waitForSelector('#quote [data-testid=final-amount]', { timeout: 20_000 });
  // The shortest lock: 30 s.
  await page.click('#quote [data-testid=time-lock-30s]');
  await page.click('#quote [data-testid=lock]');
  await page.waitForSelector('#quote [data-testid=countdown]', { timeout: 20_000 });
  await page.selectOption('#pay #purpose', 'INVESTMENT');
  await page.click('#pay [data-testid=create-payment]');
  await page.waitForSelector('#pay [data-testid=payment]', { timeout: 20_000 });

  // The payment exists: the panel's own countdown is gone, and it says the rate is held for the payment.
  await page.waitForSelector('#quote [data-testid=held]', { timeout: 10_000 });
  assert.equal(await page.locator('#quote [data-testid=countdown]').count(), 0);
  assert.match((await page.textContent('#quote [data-testid=held]')) ?? '', new RegExp(c.held));
  assert.ok(await page.isVisible('#pay [data-testid=countdown-time]'), 'the payment window counts down');

  // Past the 30 s lock: nothing expires in the panel, no ramp-quote-expired; the checkout's window still runs.
  await page.clock.fastForward(32_000);
  await page.waitForTimeout(300); // what the timers started (a render, a poll's answer) settles
  assert.equal(await page.locator('#quote [data-testid=expired]').count(), 0);
  assert.ok(await page.isVisible('#quote [data-testid=held]'));
  assert.deepEqual(await page.evaluate(() => (window as unknown as { quoteEvents: string[] }).quoteEvents), ['ramp-quote-locked']);
  assert.ok(await page.isVisible('#pay [data-testid=countdown-time]'));
  assert.equal(await page.locator('#pay [data-testid=lock-expired]').count(), 0);
  await context.close();
}

describe('one clock for a payment', () => {
  test('once the checkout made the payment, the quote panel stops its lock countdown and never expires it (1280 en, 320 es)', async () => {
    // Side by side: each waits out a 30 s lock.
    await Promise.all(cases.map(run));
  });
});

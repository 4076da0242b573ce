// The quote panel recovers from a network blip by itself, on a partner's page of another origin: offline then online
// again (the `online` event), and answers lost for a while (the retries back off), with no click on "Try again".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { approvedCustomerOverApi } from './flows';
import { type Host, hostPage, sdkUrl, startHost } from './host-page';
import { launchBrowser, type RunningServer, startServer } from './support';

let ramp: RunningServer;
let browser: Browser;
let host: Host;

before(async () => {
  ramp = await startServer({ RAMP_SANDBOX_REVIEW_MS: '200' });
  browser = await launchBrowser();
  host = await startHost(ramp, {
    '/en.html': { html: hostPage('widget', 'en', ['/host.js', sdkUrl(ramp), '/widget-session.js'], '<ramp-widget amount="100"></ramp-widget>') },
    '/pt.html': { html: hostPage('widget', 'pt-BR', ['/host.js', sdkUrl(ramp), '/widget-session.js'], '<ramp-widget amount="100"></ramp-widget>') },
  });
});

after(async () => {
  await browser?.close();
  await ramp?.stop();
  await host?.close();
});

const approvedCustomer = () => approvedCustomerOverApi(ramp, 'Lia Costa', '1993-03-12');

const cases = [
  { width: 1280, path: '/en.html', offline: 'We could not reach the server. Check your connection and try again.' },
  { width: 320, path: '/pt.html', offline: 'Não conseguimos falar com o servidor. Verifique sua conexão e tente novamente.' },
] as const;

describe('the quote panel recovers from a network blip by itself', () => {
  for (const c of cases) {
    test(`offline then online, and answers lost for a while: the quote comes back with no click (${c.width} px, ${c.path})`, async () => {
      const customerId = await approvedCustomer();
      const context = await browser.newContext({ viewport: { width: c.width, height: 900 }, isMobile: c.width < 400, hasTouch: c.width < 400 });
      const page = await context.newPage();
      await page.goto(`${host.origin}${c.path}?session=${encodeURIComponent(await host.mintSession(customerId))}`);
      const q = 'ramp-widget ramp-quote';
      await page.waitForSelector(`${q} [data-testid=final-amount]`, { timeout: 20_000 });

      // Offline: the next quote (a new amount) gets no answer and the panel says so, in the page's language.
      await context.setOffline(true);
      await page.fill(`${q} [data-testid=amount-pay]`, '120');
      await page.waitForSelector(`${q} [data-testid=alert][data-kind=NETWORK]`, { timeout: 20_000 });
      assert.equal((await page.textContent(`${q} [data-testid=alert] p`))?.trim(), c.offline);
      // Back online (the browser fires `online`): the quote returns and the alert goes, nobody clicks.
      await context.setOffline(false);
      await page.waitForSelector(`${q} [data-testid=alert]`, { state: 'detached', timeout: 10_000 });
      await page.waitForSelector(`${q} [data-testid=breakdown][data-stale=false]`, { timeout: 10_000 });

      // Answers lost for a while without the device going offline (no `online` event): the backed-off retries heal it.
      let lost = 0;
      await page.route(`${ramp.url}/bff/exchange-rates`, (route) => {
        lost += 1;
        return route.abort('connectionreset');
      });
      await page.fill(`${q} [data-testid=amount-pay]`, '130');
      await page.waitForSelector(`${q} [data-testid=alert][data-kind=NETWORK]`, { timeout: 20_000 });
      const lostBefore = lost;
      // The panel retries by itself (1 s, 2 s, …): more attempts arrive with no click.
      const deadline = Date.now() + 10_000;
      while (lost === lostBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.ok(lost > lostBefore, 'the panel asked again by itself');
      await page.unroute(`${ramp.url}/bff/exchange-rates`);
      await page.waitForSelector(`${q} [data-testid=alert]`, { state: 'detached', timeout: 15_000 });
      await page.waitForSelector(`${q} [data-testid=breakdown][data-stale=false]`, { timeout: 10_000 });
      assert.match((await page.textContent(`${q} [data-testid=final-amount]`)) ?? '', /\d/);
      await context.close();
    });
  }
});

// End to end on the demo page, in Chromium against the running server: an individual from a new customer to APPROVED, liveness on the hosted page in a popup.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { JPG, PDF, PNG } from '../server/kyc-helpers';
import { createCustomerOnDemo, fillIndividualInformation, readApi } from './flows';
import { launchBrowser, type RunningServer, startServer } from './support';

let server: RunningServer;
let browser: Browser;
const files = { jpg: join(tmpdir(), `ramp-e2e-${process.pid}.jpg`), png: join(tmpdir(), `ramp-e2e-${process.pid}.png`), pdf: join(tmpdir(), `ramp-e2e-${process.pid}.pdf`) };
before(async () => {
  writeFileSync(files.jpg, JPG);
  writeFileSync(files.png, PNG);
  writeFileSync(files.pdf, PDF);
  server = await startServer({ RAMP_SANDBOX_REVIEW_MS: '300' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('KYC on the demo page', () => {
  test('an individual goes from a new customer to APPROVED: information, documents, liveness in a popup, live review', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The hosted page runs under a strict CSP: anything it blocks (a script, a style, a fetch) shows up here.
    const cspViolations: string[] = [];
    page.context().on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    const customerId = await createCustomerOnDemo(page, server);
    const o = 'ramp-onboarding';

    await page.waitForSelector(`${o} section[data-step=info]`);
    await fillIndividualInformation(page, o);
    await page.click(`${o} [data-testid=info-submit]`);

    await page.waitForSelector(`${o} section[data-step=documents]`, { timeout: 20_000 });
    await page.setInputFiles(`${o} [data-testid=uploader] [data-testid=input-ID_CARD-FRONT_SIDE]`, files.jpg);
    await page.setInputFiles(`${o} [data-testid=uploader] [data-testid=input-ID_CARD-BACK_SIDE]`, files.png);
    await page.setInputFiles(`${o} [data-testid=uploader] [data-testid=input-BANK_STATEMENT]`, files.pdf);
    await page.waitForFunction(
      async (id) => {
        const res = await fetch(`/bff/customer/documents`, { headers: { authorization: `Bearer ${document.querySelector('ramp-onboarding')!.getAttribute('session')}` } });
        return res.ok && ((await res.json()) as { data: unknown[] }).data.length >= 3 && id;
      },
      customerId,
      { timeout: 20_000, polling: 250 },
    );
    await page.click(`${o} [data-testid=documents-continue]`);

    await page.waitForSelector(`${o} section[data-step=liveness]`, { timeout: 20_000 });
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.click(`${o} [data-testid=start-liveness]`)]);
    await popup.waitForLoadState();
    popup.on('pageerror', (e) => errors.push(`popup: ${e.message}`));
    assert.match(popup.url(), new RegExp(`^${server.url}/verify/`));
    assert.match((await popup.evaluate(() => getComputedStyle(document.body).maxWidth)) ?? '', /px$/, "the page's own inline style applies (its nonce)");
    await popup.click('ramp-verification [data-testid=simulate-liveness]');
    await popup.waitForSelector('ramp-verification [data-testid=outcome]', { timeout: 20_000 });

    await page.waitForSelector(`${o} [data-testid=verification-status][data-status=APPROVED]`, { timeout: 30_000 });
    await page.waitForSelector('#event-log li[data-event="ramp-verification-changed"]');
    const c = await readApi(server, `/v2/customers/${customerId}`);
    assert.equal(c.verification.status, 'APPROVED');
    assert.equal(c.wallets.length, 4);
    assert.deepEqual(errors, []);
    assert.deepEqual(cspViolations, []);
    await popup.close();
    await page.close();
  });
});

// <ramp-widget> on a partner's page of another origin: every lock goes where its quote says (a EUR·SEPA buy to bank-transfer
// instructions paid to SUCCESS, a sell to the bank picker), with one direction switch (the widget's labelled tabs), at
// 1280 and 320 px.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { approvedCustomerOverApi, fund, readApi } from './flows';
import { type Host, hostPage, sdkUrl, startHost } from './host-page';
import { launchBrowser, type RunningServer, startServer } from './support';

let ramp: RunningServer;
let browser: Browser;
let host: Host;

before(async () => {
  ramp = await startServer({ RAMP_SANDBOX_REVIEW_MS: '200', RAMP_SANDBOX_STEP_MS: '300', RAMP_SANDBOX_BANK_ACCOUNT_MS: '300' });
  browser = await launchBrowser();
  host = await startHost(ramp, {
    '/en.html': { html: hostPage('widget', 'en', ['/host.js', sdkUrl(ramp), '/widget-session.js'], '<ramp-widget sandbox amount="100"></ramp-widget>') },
    '/pt.html': { html: hostPage('widget', 'pt-BR', ['/host.js', sdkUrl(ramp), '/widget-session.js'], '<ramp-widget sandbox amount="100"></ramp-widget>') },
  });
});

after(async () => {
  await browser?.close();
  await ramp?.stop();
  await host?.close();
});

const approvedCustomer = () => approvedCustomerOverApi(ramp, 'Eva Klein', '1985-04-09');

/** Nothing in the widget (shadow roots pierced) reaches past the screen's right edge. */
const pastEdge = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    const limit = document.documentElement.clientWidth;
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > limit + 0.5) out.push(`${el.localName}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} ends at ${Math.round(r.right)}`);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return out;
  });

const cases = [
  { width: 1280, path: '/en.html', nav: 'Ramp: buy, sell, wallet and history', title: 'Pay by bank transfer', copied: 'Copied', mobile: false },
  { width: 320, path: '/pt.html', nav: 'Ramp: comprar, vender, carteira e histórico', title: 'Pagar por transferência bancária', copied: 'Copiado', mobile: true },
] as const;

describe('<ramp-widget>: locks go where their quote says', () => {
  for (const c of cases) {
    test(`a EUR·SEPA buy shows bank-transfer instructions paid to SUCCESS; the Sell tab's lock opens the bank picker (${c.width} px, ${c.path})`, async () => {
      const customerId = await approvedCustomer();
      const context = await browser.newContext({ viewport: { width: c.width, height: 900 }, isMobile: c.mobile, hasTouch: c.mobile });
      // tsx names the functions it compiles (`__name`); the page evaluates them without that helper.
      await context.addInitScript('globalThis.__name = (f) => f;');
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.origin });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${host.origin}${c.path}?session=${encodeURIComponent(await host.mintSession(customerId))}`);
      const w = 'ramp-widget';
      await page.waitForSelector(`${w} ramp-quote [data-testid=final-amount]`, { timeout: 20_000 });

      // One direction switch: the widget's labelled tabs, Buy selected; the quote shows none of its own.
      assert.equal(await page.getAttribute(`${w} nav`, 'aria-label'), c.nav);
      assert.equal(await page.getAttribute(`${w} [data-view=buy]`, 'aria-pressed'), 'true');
      assert.equal(await page.locator(`${w} ramp-quote [part~="direction-group"]`).count(), 0);

      // Pay in euros: the rail follows (SEPA), and so does the checkout.
      await page.selectOption(`${w} ramp-quote [data-testid=currency-pay]`, 'EUR');
      await page.waitForSelector(`${w} ramp-quote [data-testid=breakdown][data-stale=false]`, { timeout: 20_000 });
      await page.click(`${w} ramp-quote [data-testid=time-lock-5m]`);
      await page.click(`${w} ramp-quote [data-testid=lock]`);
      const k = `${w} ramp-pix-checkout`;
      await page.waitForSelector(`${k} #purpose`, { timeout: 20_000 });
      assert.equal((await page.textContent(`${k} #title`))?.trim(), c.title);
      await page.selectOption(`${k} #purpose`, 'INVESTMENT');
      await page.click(`${k} [data-testid=create-payment]`);
      await page.waitForSelector(`${k} [data-testid=bank-details]`, { timeout: 20_000 });
      assert.equal(await page.locator(`${k} [data-testid=qr]`).count(), 0, 'no PIX QR for a SEPA payment');

      const [tx] = (await readApi(ramp, `/v2/transactions?customerId=${customerId}&type=ON_RAMP`)).data;
      assert.equal(tx.quote.rail, 'SEPA');
      const payment = tx.state.payment;
      for (const key of ['beneficiary', 'iban', 'bic', 'reference'] as const) {
        assert.equal((await page.textContent(`${k} [data-testid=detail-${key}]`))?.trim(), payment[key], key);
      }
      assert.ok(await page.isVisible(`${k} [data-testid=detail-deadline]`));
      await page.click(`${k} [data-testid=copy-iban]`);
      // The copy is asynchronous (the clipboard answers first): the button says so once it has.
      await page.waitForFunction(
        ([sel, copied]) => document.querySelector('ramp-widget')!.shadowRoot!.querySelector('ramp-pix-checkout')!.shadowRoot!.querySelector(sel!)!.textContent!.trim() === copied,
        ['[data-testid=copy-iban]', c.copied] as const,
        { timeout: 10_000 },
      );
      assert.equal((await page.textContent(`${k} [data-testid=copy-iban]`))?.trim(), c.copied);
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), payment.iban);
      assert.deepEqual(await pastEdge(page), [], 'nothing past the screen');

      await page.click(`${k} [data-testid=simulate-payment]`);
      await page.waitForSelector(`${k} [data-testid=success]`, { timeout: 30_000 });
      assert.equal((await readApi(ramp, `/v2/transactions/${tx.id}`)).state.status, 'SUCCESS');

      // The Sell tab: its lock goes to the bank picker (the off-ramp), never to a checkout.
      await fund(ramp, customerId, '500');
      await page.click(`${w} [data-view=sell]`);
      // The tab answers on the widget's next render, not within the click.
      await page.waitForSelector(`${w} [data-view=sell][aria-pressed=true]`, { timeout: 10_000 });
      assert.equal(await page.getAttribute(`${w} [data-view=buy]`, 'aria-pressed'), 'false');
      await page.waitForSelector(`${w} ramp-quote[direction=sell] [data-testid=breakdown][data-stale=false]`, { timeout: 20_000 });
      await page.click(`${w} ramp-quote [data-testid=time-lock-5m]`);
      await page.click(`${w} ramp-quote [data-testid=lock]`);
      await page.waitForSelector(`${w} ramp-offramp [data-testid=add-account]`, { timeout: 20_000 });
      assert.equal(await page.locator(`${w} ramp-pix-checkout`).count(), 0);
      assert.equal(await page.getAttribute(`${w} [data-view=sell]`, 'aria-pressed'), 'true');
      assert.deepEqual(await pastEdge(page), [], 'nothing past the screen');
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});

describe('<ramp-widget>: wallet, withdrawal and history', () => {
  const outside = '0x52908400098527886E0F7030069857D2E4169EE7';
  const walletCases = [
    { width: 1280, path: '/en.html', mobile: false, confirm: 'Confirm your withdrawal', transfer: 'Transfer', amount: '12.5' },
    { width: 320, path: '/pt.html', mobile: true, confirm: 'Confirme seu saque', transfer: 'Transferência', amount: '12,5' },
  ] as const;
  for (const c of walletCases) {
    test(`the wallet shows the address and balance; a withdrawal is confirmed, sent, and opens in the history (${c.width} px, ${c.path})`, async () => {
      const customerId = await approvedCustomer();
      await fund(ramp, customerId, '40');
      const context = await browser.newContext({ viewport: { width: c.width, height: 900 }, isMobile: c.mobile, hasTouch: c.mobile });
      await context.addInitScript('globalThis.__name = (f) => f;');
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${host.origin}${c.path}?session=${encodeURIComponent(await host.mintSession(customerId))}`);
      const w = 'ramp-widget';
      await page.waitForSelector(`${w} [data-view=wallet]`, { timeout: 20_000 });
      await page.click(`${w} [data-view=wallet]`);
      await page.waitForSelector(`${w} [data-chain=POLYGON]`, { timeout: 20_000 });
      const customer = await readApi(ramp, `/v2/customers/${customerId}`);
      const polygon = customer.wallets.find((x: { blockchain: string }) => x.blockchain === 'POLYGON');
      assert.equal(await page.inputValue(`${w} [data-address=POLYGON]`), polygon.address);
      assert.equal(await page.locator(`${w} [data-chain=POLYGON] svg[role=img]`).count(), 1);
      assert.match((await page.textContent(`${w} [data-chain=POLYGON] [data-balance=USDC]`)) ?? '', /40[.,]00/);
      assert.deepEqual(await pastEdge(page), [], 'nothing past the screen');

      await page.click(`${w} [data-action=withdraw]`);
      await page.fill(`${w} #withdraw-amount`, c.amount);
      await page.fill(`${w} #withdraw-to`, outside);
      await page.click(`${w} [data-action=review]`);
      await page.waitForSelector(`${w} [data-confirm=to]`, { timeout: 10_000 });
      assert.equal((await page.textContent(`${w} #wallet-step-title`))?.trim(), c.confirm);
      assert.equal((await page.textContent(`${w} [data-confirm=to]`))?.trim(), outside);
      assert.equal((await readApi(ramp, `/v2/transactions?customerId=${customerId}&type=TRANSFER`)).data.length, 0, 'nothing sent before the confirmation');
      await page.focus(`${w} [data-action=send]`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`${w} [part=withdraw-sent]`, { timeout: 20_000 });
      const [sent] = (await readApi(ramp, `/v2/transactions?customerId=${customerId}&type=TRANSFER`)).data;
      assert.equal(sent.request.to, outside);
      assert.equal(sent.request.amount, '12.500000');
      await page.waitForSelector(`${w} [part=withdraw-sent] [data-status=SUCCESS]`, { timeout: 30_000 });

      await page.click(`${w} [data-action=history]`);
      await page.waitForSelector(`${w} [data-open="${sent.id}"]`, { timeout: 20_000 });
      assert.match((await page.textContent(`${w} [data-open="${sent.id}"]`)) ?? '', new RegExp(c.transfer));
      await page.focus(`${w} [data-open="${sent.id}"]`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`${w} [data-detail="${sent.id}"]`, { timeout: 10_000 });
      assert.match((await page.textContent(`${w} [data-detail="${sent.id}"]`)) ?? '', new RegExp(outside));
      assert.deepEqual(await pastEdge(page), [], 'nothing past the screen');
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});

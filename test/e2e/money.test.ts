// End to end on the demo page, in Chromium against the running server: a locked quote paid by PIX to SUCCESS, and an off-ramp to a new bank account to SUCCESS.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hasError, parsePix } from 'pix-utils';
import type { Browser } from 'playwright-core';
import { approveOverApi, createCustomerOnDemo, fillSelfPixAccount, fund, readApi } from './flows';
import { launchBrowser, type RunningServer, startServer } from './support';
import { taxIdEndingIn } from '../server/harness';

let server: RunningServer;
let browser: Browser;
before(async () => {
  server = await startServer({ RAMP_SANDBOX_REVIEW_MS: '200', RAMP_SANDBOX_STEP_MS: '300', RAMP_SANDBOX_BANK_ACCOUNT_MS: '300' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('money on the demo page', () => {
  test('from a locked quote to a PIX payment to SUCCESS, with a BR Code a bank app reads', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const customerId = await createCustomerOnDemo(page, server);
    await approveOverApi(server, customerId);

    const quote = page.locator('ramp-quote');
    await quote.scrollIntoViewIfNeeded();
    await page.waitForSelector('ramp-quote [data-testid=final-amount]', { timeout: 20_000 });
    await page.click('ramp-quote [data-testid=time-lock-1m]');
    await page.click('ramp-quote [data-testid=lock]');
    await page.waitForSelector('ramp-quote [data-testid=locked]');
    await page.waitForSelector('#event-log li[data-event="ramp-quote-locked"]');

    await page.locator('#checkout').scrollIntoViewIfNeeded();
    await page.selectOption('#checkout #purpose', 'INVESTMENT');
    await page.click('#checkout [data-testid="create-payment"]');
    await page.waitForSelector('#checkout [data-testid="payment"]', { timeout: 20_000 });
    const brCode = await page.inputValue('#checkout #brcode').catch(async () => (await page.textContent('#checkout #brcode')) ?? '');
    const parsed = parsePix(brCode);
    assert.ok(!hasError(parsed), `the page shows a BR Code pix-utils reads: ${brCode}`);
    assert.ok(await page.isVisible('#checkout [data-testid="qr"] svg'));

    await page.click('#checkout [data-testid="simulate-payment"]');
    await page.waitForSelector('#checkout [data-testid="success"]', { timeout: 30_000 });
    const href = await page.getAttribute('#checkout [data-testid="explorer-link"]', 'href');
    assert.match(href ?? '', /^https:\/\/.+/);
    const txId = (await page.textContent('#checkout [data-testid="reference"]'))?.trim() ?? '';
    const t = await readApi(server, `/v2/transactions/${txId}`);
    assert.equal(t.state.status, 'SUCCESS');
    assert.equal(t.state.payment.brCode, brCode);
    const c = await readApi(server, `/v2/customers/${customerId}?includeBalances=true`);
    const balance = c.wallets.find((w: { blockchain: string }) => w.blockchain === t.blockchain).balances[0].balance;
    assert.equal(balance, t.state.receipt.targetAmount);
    // The built-in receiver got the webhooks of this payment, signatures verified.
    await page.waitForSelector('#webhook-log li[data-event="onramp.success"][data-verified="true"]', { state: 'attached', timeout: 20_000 });
    assert.equal(await page.locator('#webhook-log li[data-verified="false"]').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('from a locked sell quote to a new PIX bank account to SUCCESS', async () => {
    const page = await browser.newPage();
    const cpf = taxIdEndingIn('cpf', 0);
    const customerId = await createCustomerOnDemo(page, server, cpf);
    await approveOverApi(server, customerId);
    await fund(server, customerId, '100');

    await page.locator('ramp-quote').scrollIntoViewIfNeeded();
    await page.click('ramp-quote [data-testid=direction-sell]');
    await page.fill('ramp-quote [data-testid=amount-pay]', '25');
    await page.waitForSelector('ramp-quote [data-testid=final-amount]', { timeout: 20_000 });
    await page.click('ramp-quote [data-testid=time-lock-5m]');
    await page.click('ramp-quote [data-testid=lock]');
    await page.waitForSelector('ramp-quote [data-testid=locked]');

    await page.locator('#offramp').scrollIntoViewIfNeeded();
    await fillSelfPixAccount(page, cpf);
    await page.click('#offramp [data-testid="save-account"]');
    await page.waitForSelector('#offramp [data-testid="account"][data-status="APPROVED"]', { timeout: 20_000 });
    await page.selectOption('#offramp #offramp-purpose', 'PERSONAL_ACCOUNT');
    await page.click('#offramp [data-testid="confirm-payout"]');
    await page.waitForSelector('#offramp [data-testid="success"]', { timeout: 30_000 });
    const c = await readApi(server, `/v2/customers/${customerId}?includeBalances=true`);
    assert.equal(c.wallets.find((w: { blockchain: string }) => w.blockchain === 'POLYGON').balances[0].balance, '75.000000');
    const { data } = await readApi(server, `/v2/transactions?customerId=${customerId}&type=OFF_RAMP`);
    assert.equal(data[0].state.status, 'SUCCESS');
    await page.close();
  });
});

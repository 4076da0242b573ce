// The demo page leads with what partners ship: <ramp-widget> by default, the components one by one a switch away, and
// sandbox controls that fund the session's customer's wallet and move the clock through the demo server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { taxIdEndingIn } from '../server/harness';
import { approveOverApi } from './flows';
import { launchBrowser, type RunningServer, startServer } from './support';

let server: RunningServer;
let browser: Browser;
before(async () => {
  server = await startServer({ RAMP_SANDBOX_REVIEW_MS: '600000' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the page opens on <ramp-widget>; its customer’s wallet is funded and the clock moved from the sandbox controls; the switch shows the components', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForSelector('#session-status[data-state="ready"]', { timeout: 30_000 });
  assert.equal(await page.locator('#widget-slot > ramp-widget').count(), 1, 'the widget leads');
  assert.equal(await page.locator('#widget-slot > ramp-onboarding').count(), 0);
  assert.ok(await page.locator('[data-testid=fund-wallet]').isDisabled(), 'no customer yet');
  assert.match((await page.textContent('[data-testid=snippet-embed]')) ?? '', /<ramp-widget session=/);

  const cpf = taxIdEndingIn('cpf', 0);
  const o = 'ramp-widget ramp-onboarding';
  await page.click(`${o} [data-testid=type-INDIVIDUAL]`);
  await page.fill(`${o} #name`, 'Ana Souza');
  await page.locator(`${o} #taxId`).pressSequentially(cpf);
  await page.fill(`${o} #birthDate`, '1990-05-17');
  await page.click(`${o} [data-testid=submit]`);
  await page.waitForSelector('#event-log li[data-event="ramp-customer-created"]', { timeout: 30_000 });
  const { data } = (await (await fetch(`${server.url}/v2/customers?taxId=${cpf}`, { headers: { authorization: `Bearer ${server.apiKey}` } })).json()) as { data: { id: string }[] };
  const customerId = data[0]!.id;
  await page.locator('[data-testid=fund-wallet]').and(page.locator(':enabled')).waitFor({ timeout: 10_000 });

  // Wallets come with approval: before it, the control says why in the service's words.
  await page.click('[data-testid=fund-wallet]');
  await page.waitForSelector('[data-testid=sandbox-status][data-state="error"]', { timeout: 20_000 });
  assert.match((await page.textContent('[data-testid=sandbox-status]')) ?? '', /APPROVED/);

  await approveOverApi(server, customerId);
  await page.selectOption('#fund-coin', 'USDT');
  await page.fill('#fund-amount', '25.5');
  await page.click('[data-testid=fund-wallet]');
  await page.waitForSelector('[data-testid=sandbox-status][data-state="ok"]', { timeout: 20_000 });
  assert.match((await page.textContent('[data-testid=sandbox-status]')) ?? '', /POLYGON wallet holds 25\.5/);
  const customer = (await (await fetch(`${server.url}/v2/customers/${customerId}?includeBalances=true`, { headers: { authorization: `Bearer ${server.apiKey}` } })).json()) as any;
  const usdt = customer.wallets.find((w: any) => w.blockchain === 'POLYGON').balances.find((b: any) => b.stablecoin === 'USDT').balance as string;
  assert.equal(usdt, '25.500000');

  const moved = page.waitForResponse((r) => r.url().endsWith('/demo/sandbox/clock'));
  const asked = Date.now();
  await page.click('[data-testid=clock-1d]');
  const { now } = (await (await moved).json()) as { now: string };
  assert.ok(Date.parse(now) - asked >= 86_400_000, `the clock reads ${now}`);
  await page.waitForSelector('[data-testid=sandbox-status][data-state="ok"]');

  await page.click('[data-testid=demo-view] label:has-text("components")');
  await page.waitForURL(/[?&]view=components/, { timeout: 20_000 });
  await page.waitForSelector('#session-status[data-state="ready"]', { timeout: 30_000 });
  assert.equal(await page.locator('#widget-slot > ramp-onboarding').count(), 1);
  assert.equal(await page.locator('#widget-slot > ramp-widget').count(), 0);
  assert.ok(await page.isChecked('input[name="demo-view"][value="components"]'));
  await page.close();
});

// End to end on the demo page, in Chromium against the running server (no msw): an end user creates a customer, and the API key never reaches the browser.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { taxIdEndingIn } from '../server/harness';
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

const formatCpf = (d: string) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;

describe('the demo page', () => {
  test('an end user creates an individual customer through <ramp-onboarding>, and the API key appears in nothing the browser receives', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const received: { url: string; headers: string; body: string }[] = [];
    page.on('response', async (res) => {
      const body = await res.body().then((b) => b.toString('utf8')).catch(() => '');
      received.push({ url: res.url(), headers: JSON.stringify(await res.allHeaders()), body });
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    await page.goto(`${server.url}/?view=components`);
    await page.waitForSelector('#session-status[data-state="ready"]', { timeout: 20_000 });
    const cpf = taxIdEndingIn('cpf', 0);
    await page.click('ramp-onboarding [data-testid=type-INDIVIDUAL]');
    await page.fill('ramp-onboarding #name', 'Ana Souza');
    await page.locator('ramp-onboarding #taxId').pressSequentially(cpf);
    assert.equal(await page.inputValue('ramp-onboarding #taxId'), formatCpf(cpf), 'the CPF is formatted as typed');
    await page.fill('ramp-onboarding #birthDate', '1990-05-17');
    await page.click('ramp-onboarding [data-testid=submit]');
    await page.waitForSelector('ramp-onboarding [data-testid=success]', { timeout: 20_000 });
    const customerId = (await page.textContent('ramp-onboarding [data-testid=customer-id]'))?.trim();
    assert.match(customerId ?? '', /^[0-9a-f-]{36}$/);
    await page.waitForSelector('#event-log li[data-event="ramp-customer-created"]');

    // The partner's view: the customer exists, with what the end user typed.
    const api = await fetch(`${server.url}/v2/customers/${customerId}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    assert.equal(api.status, 200);
    const customer = (await api.json()) as { name: string; taxId: string; birthDate: string };
    assert.deepEqual([customer.name, customer.taxId, customer.birthDate], ['Ana Souza', cpf, '1990-05-17']);

    // What the browser received: the page, the bundle, the session, the BFF answers. Never the key.
    assert.ok(received.some((r) => r.url.endsWith('/sdk/ramp-widget.js')));
    assert.ok(received.some((r) => r.url.endsWith('/bff/customers')));
    for (const r of received) {
      assert.ok(!r.body.includes(server.apiKey), `the API key is in the body of ${r.url}`);
      assert.ok(!r.headers.includes(server.apiKey), `the API key is in the headers of ${r.url}`);
    }
    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    assert.ok(!storage.includes(server.apiKey));
    assert.deepEqual(pageErrors, []);
    await context.close();
  });

  test('a server problem lands on the right field: a taxId already used is shown on the tax id input', async () => {
    const cpf = taxIdEndingIn('cpf');
    const existing = await fetch(`${server.url}/v2/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'INDIVIDUAL', name: 'First', taxId: cpf, birthDate: '1980-01-01' }),
    });
    assert.equal(existing.status, 201);
    const page = await browser.newPage();
    await page.goto(`${server.url}/?view=components`);
    await page.waitForSelector('#session-status[data-state="ready"]');
    await page.click('ramp-onboarding [data-testid=type-INDIVIDUAL]');
    await page.fill('ramp-onboarding #name', 'Second');
    await page.locator('ramp-onboarding #taxId').pressSequentially(cpf);
    await page.fill('ramp-onboarding #birthDate', '1985-01-01');
    await page.click('ramp-onboarding [data-testid=submit]');
    await page.waitForSelector('ramp-onboarding #taxId-error');
    assert.match((await page.textContent('ramp-onboarding #taxId-error')) ?? '', /\S/);
    assert.equal(await page.getAttribute('ramp-onboarding #taxId', 'aria-invalid'), 'true');
    await page.close();
  });

  test('the page, with an event in its log, has no axe violations in light and dark (the log scrolls, so it takes focus)', async () => {
    // axe is injected as a script tag, which the page's own policy (script-src 'self') refuses: this context bypasses it
    // for the audit; test/e2e/policies.test.ts checks the page under its policy.
    const page = await (await browser.newContext({ bypassCSP: true })).newPage();
    await page.goto(`${server.url}/?view=components`);
    await page.waitForSelector('#session-status[data-state="ready"]', { timeout: 20_000 });
    await page.click('ramp-onboarding [data-testid=type-INDIVIDUAL]');
    await page.fill('ramp-onboarding #name', 'Ana Souza');
    await page.locator('ramp-onboarding #taxId').pressSequentially(taxIdEndingIn('cpf', 0));
    await page.fill('ramp-onboarding #birthDate', '1990-05-17');
    await page.click('ramp-onboarding [data-testid=submit]');
    await page.waitForSelector('#event-log li[data-event="ramp-customer-created"] pre', { timeout: 20_000 });
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
        const { violations } = await axe.run(document);
        return violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
      });
      assert.deepEqual(violations, [], `${colorScheme}: ${violations.join('\n')}`);
    }
    await page.close();
  });

  test('the API reference and the OpenAPI document are served from our own origin', async () => {
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith('data:')) external.push(r.url());
    });
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('text=Ramp API', { timeout: 20_000 });
    assert.deepEqual(external, []);
    await page.close();
  });
});

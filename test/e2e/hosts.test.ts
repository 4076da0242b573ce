// Partner pages on another origin: <ramp-widget> under a strict CSP with the script loaded twice (only the active
// language's messages and the first step's chunks fetched), and the components mounted by Vue 3 and React 19 (properties
// and events), plus an SSR-safe import of the loader.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { taxIdEndingIn } from '../server/harness';
import { approveOverApi, fillIndividualInformation, fund, readApi } from './flows';
import { type Host, hostPage, sdkUrl, startHost } from './host-page';
import { launchBrowser, type RunningServer, startServer } from './support';

const root = fileURLToPath(new URL('../..', import.meta.url));
let ramp: RunningServer;
let browser: Browser;
let host: Host;
let reactBundle = '';
const tmp = mkdtempSync(join(tmpdir(), 'ramp-hosts-'));

before(async () => {
  ramp = await startServer({ RAMP_SANDBOX_REVIEW_MS: '200', RAMP_SANDBOX_STEP_MS: '300', RAMP_SANDBOX_BANK_ACCOUNT_MS: '300' });
  browser = await launchBrowser();
  // React ships CommonJS: bundle the host's React page the way a partner's build would.
  const entry = join(root, 'test/e2e/fixtures/react-host.js');
  await build({
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    root,
    define: { 'process.env.NODE_ENV': '"production"' },
    build: { outDir: join(tmp, 'react'), emptyOutDir: true, lib: { entry, formats: ['es'], fileName: () => 'react-host.js' }, minify: true },
  });
  reactBundle = readFileSync(join(tmp, 'react', 'react-host.js'), 'utf8');

  const sdk = sdkUrl(ramp);
  host = await startHost(ramp, {
    '/vue.js': { js: readFileSync(join(root, 'node_modules/vue/dist/vue.runtime.esm-browser.prod.js'), 'utf8') },
    '/vue-host.js': {
      js: `import { createApp, h } from '/vue.js';
        const session = new URLSearchParams(location.search).get('session');
        createApp({ render: () => h('ramp-quote', { session, direction: 'sell', amount: '100', onRampError: (e) => (window.vueSawError = e.detail.code) }) }).mount('#app');`,
    },
    '/react-host.js': { js: reactBundle },
    // The SDK twice (a second URL is a second copy of the loader): harmless.
    '/widget.html': { html: hostPage('widget', 'pt-BR', ['/host.js', sdk, `${sdk}?copy=2`, '/widget-session.js'], '<ramp-widget></ramp-widget>') },
    '/vue.html': { html: hostPage('vue', 'en', ['/host.js', sdk, '/vue-host.js'], '<div id="app"></div>') },
    '/react.html': { html: hostPage('react', 'en', ['/host.js', sdk, '/react-host.js'], '<div id="app"></div>') },
  });
});

after(async () => {
  await browser?.close();
  await ramp?.stop();
  await host?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function open(path: string): Promise<{ page: Page; sdkFiles: string[]; errors: string[] }> {
  const page = await browser.newPage();
  const sdkFiles: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => r.url().startsWith(`${ramp.url}/sdk/`) && sdkFiles.push(new URL(r.url()).pathname.slice(5)));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(`${host.origin}${path}?session=${encodeURIComponent(await host.mintSession())}`);
  return { page, sdkFiles, errors };
}

describe('host pages on another origin', () => {
  test('strict CSP, script loaded twice: <ramp-widget> onboards in pt-BR and switches to the bound session by itself', async () => {
    const { page, sdkFiles, errors } = await open('/widget.html');
    await page.waitForSelector('ramp-widget ramp-onboarding #name', { timeout: 20_000 });
    assert.equal((await page.textContent('ramp-widget ramp-onboarding #title'))?.trim(), 'Abra sua conta');
    // Only what the first step needs: no English, no money or KYC messages, no checkout or off-ramp code.
    assert.ok(sdkFiles.some((f) => f.startsWith('messages-pt-BR-core-')), sdkFiles.join(' '));
    for (const unwanted of ['messages-en-', 'messages-pt-BR-money-', 'messages-pt-BR-kyc-', 'pix-checkout-', 'offramp-', 'kyc-steps-']) {
      assert.ok(!sdkFiles.some((f) => f.startsWith(unwanted)), `${unwanted} was fetched for the first step: ${sdkFiles.join(' ')}`);
    }
    // The loader asked for the page language's messages beside the component's chunks (a modulepreload), not a round
    // trip later, once the i18n code had run.
    const preloaded = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname.split('/').pop()!));
    assert.ok(preloaded.some((f) => f.startsWith('messages-pt-BR-core-')), preloaded.join(' '));
    assert.ok(preloaded.some((f) => f.startsWith('widget-')) && preloaded.some((f) => f.startsWith('core-')), preloaded.join(' '));

    await page.click('ramp-widget ramp-onboarding [data-testid=type-INDIVIDUAL]');
    await page.fill('ramp-widget ramp-onboarding #name', 'Ana Souza');
    await page.locator('ramp-widget ramp-onboarding #taxId').pressSequentially(taxIdEndingIn('cpf', 0));
    await page.fill('ramp-widget ramp-onboarding #birthDate', '1990-05-17');
    await page.locator('ramp-widget ramp-onboarding [data-testid=submit]').press('Enter');
    await page.waitForFunction(() => (window as unknown as { rampEvents: { type: string }[] }).rampEvents.some((e) => e.type === 'ramp-customer-created'), null, {
      timeout: 20_000,
    });
    const { widgetSession, bound } = await page.evaluate(() => {
      const created = (window as unknown as { rampEvents: { type: string; detail: { session: { token: string } } }[] }).rampEvents.find((e) => e.type === 'ramp-customer-created')!;
      return { widgetSession: document.querySelector('ramp-widget')!.session, bound: created.detail.session.token };
    });
    assert.equal(widgetSession, bound, 'the widget adopted the customer-bound token');
    assert.deepEqual(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('Vue 3 mounts <ramp-quote> with properties and listens to its events', async () => {
    const { page, errors } = await open('/vue.html');
    await page.waitForSelector('ramp-quote [part~="title"]', { timeout: 20_000 });
    assert.match((await page.textContent('ramp-quote [part~="title"]')) ?? '', /Sell/);
    // An onboarding session has no customer to quote for (the BFF answers 404 to the quote and to the pre-lock eligibility read):
    // the element says so with ramp-error, which Vue hears.
    await page.waitForFunction(() => (window as unknown as { vueSawError?: string }).vueSawError, null, { timeout: 20_000 });
    assert.deepEqual(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
    assert.deepEqual(errors.filter((e) => !/status of 404|^404 .*\/bff\/(exchange-rates|customer\?include=[a-z,]+)$/.test(e)), []);
    await page.close();
  });

  test('React 19 mounts <ramp-quote> with properties and listens to its events', async () => {
    const { page, errors } = await open('/react.html');
    await page.waitForSelector('ramp-quote [part~="title"]', { timeout: 20_000 });
    assert.match((await page.textContent('ramp-quote [part~="title"]')) ?? '', /Sell/);
    await page.waitForFunction(() => (window as unknown as { reactSawError?: string }).reactSawError, null, { timeout: 20_000 });
    assert.deepEqual(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
    assert.deepEqual(errors.filter((e) => !/status of 404|^404 .*\/bff\/(exchange-rates|customer\?include=[a-z,]+)$/.test(e)), []);
    await page.close();
  });

  test('importing the loader where there is no DOM (server rendering) does nothing and throws nothing', async () => {
    const loader = await import('../../src/loader');
    assert.ok(loader.rampTags.includes('ramp-widget'));
  });

  test('<ramp-widget> resumes an approved customer, renews a refused session once, buys by PIX and sells to a new bank account, both to SUCCESS', async () => {
    const ownCpf = taxIdEndingIn('cpf', 0);
    // The partner's user, already a customer: the backend knows them by its own id alone.
    const user = `bia-${randomUUID()}`;
    const created = await fetch(`${ramp.url}/v2/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ramp.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'INDIVIDUAL', name: 'Bia Lima', taxId: ownCpf, birthDate: '1988-02-03', externalUserId: user }),
    });
    assert.equal(created.status, 201);
    const customerId = ((await created.json()) as { id: string }).id;
    await approveOverApi(ramp, customerId);
    const session = await host.sessionFor(user);
    assert.equal(claimsOf(session).cid, customerId);
    const p = await browser.newPage();
    const errors: string[] = [];
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(host.loginUrl(user));
    await p.goto(`${host.origin}/flow.html?session=${encodeURIComponent(session)}`);
    const w = 'ramp-widget';
    await p.waitForSelector(`${w} ramp-quote [data-testid=final-amount]`, { timeout: 20_000 });

    // The session stops working (revoked, expired): the next quote gets a 401, the partner's backend hands a new token once.
    await p.evaluate(() => (document.querySelector('ramp-widget')!.session = 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.invalid'));
    await p.waitForFunction(() => (window as unknown as { renewals: number }).renewals === 1, null, { timeout: 20_000 });
    // `renewals` counts the event; the partner's backend answers the token a moment later.
    const deadline = Date.now() + 10_000;
    while (host.renewedTokens.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(host.renewedTokens.length, 1, "the partner's backend minted one token");
    assert.equal(claimsOf(host.renewedTokens[0]!).cid, customerId, 'the renewed session is bound to the user\'s customer');
    await p.waitForFunction((token) => document.querySelector('ramp-widget')!.session === token, host.renewedTokens[0], { timeout: 10_000 });
    await p.waitForSelector(`${w} ramp-quote [data-testid=final-amount]`, { timeout: 20_000 });

    await p.click(`${w} ramp-quote [data-testid=time-lock-1m]`);
    await p.click(`${w} ramp-quote [data-testid=lock]`);
    await p.waitForSelector(`${w} ramp-pix-checkout #purpose`, { timeout: 20_000 });
    await p.selectOption(`${w} ramp-pix-checkout #purpose`, 'INVESTMENT');
    await p.click(`${w} ramp-pix-checkout [data-testid="create-payment"]`);
    await p.waitForSelector(`${w} ramp-pix-checkout [data-testid="payment"]`, { timeout: 20_000 });
    await p.click(`${w} ramp-pix-checkout [data-testid="simulate-payment"]`);
    await p.waitForSelector(`${w} ramp-pix-checkout [data-testid="success"]`, { timeout: 30_000 });
    const txId = (await p.textContent(`${w} ramp-pix-checkout [data-testid="reference"]`))?.trim() ?? '';
    assert.equal((await readApi(ramp, `/v2/transactions/${txId}`)).state.status, 'SUCCESS');

    // Sell: the nav's Sell, a locked sell quote, a new PIX bank account, the payout.
    await fund(ramp, customerId, '100');
    const o = `${w} ramp-offramp`;
    await p.click(`${w} [data-view="sell"]`);
    await p.fill(`${w} ramp-quote [data-testid=amount-pay]`, '25');
    await p.waitForSelector(`${w} ramp-quote [data-testid=final-amount]`, { timeout: 20_000 });
    await p.click(`${w} ramp-quote [data-testid=time-lock-5m]`);
    await p.click(`${w} ramp-quote [data-testid=lock]`);
    await p.click(`${o} [data-testid="add-account"]`, { timeout: 20_000 });
    await p.click(`${o} [data-testid="rail-PIX"]`);
    await p.fill(`${o} #bank-name`, 'Minha conta');
    await p.selectOption(`${o} #bank-keyType`, 'EVP');
    await p.fill(`${o} #bank-keyValue`, '123e4567-e12b-42d3-a456-426614174000');
    await p.click(`${o} [data-testid="holder-INDIVIDUAL"]`);
    await p.selectOption(`${o} #bank-relationship`, 'SELF');
    await p.fill(`${o} #bank-holderName`, 'Bia Lima');
    // A SELF account's holder is the customer: the same CPF (the service refuses any other).
    await p.locator(`${o} #bank-taxId`).pressSequentially(ownCpf);
    await p.fill(`${o} #bank-line1`, 'Av. Paulista, 1000');
    await p.fill(`${o} #bank-city`, 'São Paulo');
    await p.fill(`${o} #bank-state`, 'SP');
    await p.fill(`${o} #bank-postalCode`, '01310-100');
    await p.click(`${o} [data-testid="save-account"]`);
    await p.waitForSelector(`${o} [data-testid="account"][data-status="APPROVED"]`, { timeout: 20_000 });
    await p.selectOption(`${o} #offramp-purpose`, 'PERSONAL_ACCOUNT');
    await p.click(`${o} [data-testid="confirm-payout"]`);
    await p.waitForSelector(`${o} [data-testid="success"]`, { timeout: 30_000 });
    const { data } = await readApi(ramp, `/v2/transactions?customerId=${customerId}&type=OFF_RAMP`);
    assert.equal(data[0].state.status, 'SUCCESS');

    // History lists both.
    await p.click(`${w} [data-view="history"]`);
    await p.waitForFunction(() => document.querySelector('ramp-widget')!.shadowRoot!.querySelectorAll('[data-transaction]').length === 2, null, { timeout: 10_000 });
    assert.equal(await p.evaluate(() => (window as unknown as { renewals: number }).renewals), 1);
    assert.deepEqual(await p.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
    assert.deepEqual(errors, []);
    await p.close();
  });

  for (const width of [1280, 320]) test(`the README's backend: a signed-in user onboards, reloads and resumes where they were, and a renewed session still finds the account (${width} px)`, async () => {
    const user = `caio-${randomUUID()}`;
    const p = await browser.newPage({ viewport: { width, height: 900 } });
    const errors: string[] = [];
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    await p.goto(host.loginUrl(user));
    // Every session comes from `session-url`: the host's backend, minting for whoever its login says.
    await p.goto(`${host.origin}/account.html`);
    const o = 'ramp-widget ramp-onboarding';
    await p.waitForSelector(`${o} #name`, { timeout: 20_000 });
    await p.click(`${o} [data-testid=type-INDIVIDUAL]`);
    await p.fill(`${o} #name`, 'Caio Reis');
    await p.locator(`${o} #taxId`).pressSequentially(taxIdEndingIn('cpf', 0));
    await p.fill(`${o} #birthDate`, '1991-07-08');
    await p.locator(`${o} [data-testid=submit]`).press('Enter');
    await p.waitForSelector(`${o} section[data-step=info]`, { timeout: 20_000 });
    const { data } = await readApi(ramp, `/v2/customers?externalUserId=${encodeURIComponent(user)}`);
    assert.equal(data.length, 1);
    const customerId = data[0].id as string;

    // A reload: a new session for the same user is bound to the customer, and the widget goes on from the step it was at
    // (not the first step again, whose tax id would now meet "already exists").
    await p.reload();
    await p.waitForSelector(`${o} section[data-step=info]`, { timeout: 20_000 });
    assert.equal(await p.locator(`${o} #name`).count(), 0, 'the first step again after a reload');
    assert.equal(claimsOf(await sessionOf(p)).cid, customerId);

    // The session stops working halfway through the next step: the element asks `session-url` again, and the step
    // goes through for the same customer.
    const minted = host.renewedTokens.length;
    await p.evaluate(() => (document.querySelector('ramp-widget')!.session = 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.invalid'));
    await fillIndividualInformation(p, o);
    await p.click(`${o} [data-testid=info-submit]`);
    await p.waitForSelector(`${o} section[data-step=documents]`, { timeout: 20_000 });
    assert.ok(host.renewedTokens.length > minted, 'the element renewed its session');
    assert.equal(claimsOf(host.renewedTokens.at(-1)!).cid, customerId);
    assert.equal(claimsOf(await sessionOf(p)).cid, customerId);
    assert.ok((await readApi(ramp, `/v2/customers/${customerId}`)).additionalInformation, 'the step was saved on the customer');
    assert.equal((await readApi(ramp, `/v2/customers?externalUserId=${encodeURIComponent(user)}`)).data.length, 1);
    // The refused token's 401s are the renewal's trigger; nothing else failed (no 404 for the account, no 409).
    assert.deepEqual(errors.filter((e) => !/^401 .*\/bff\//.test(e)), []);
    await p.close();
  });
});

/** The claims of a widget-session token (read, not verified: the test only looks at which customer it names). */
function claimsOf(token: string): { cid?: string | null } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { cid?: string | null };
}

const sessionOf = (p: Page) => p.evaluate(() => document.querySelector('ramp-widget')!.session);

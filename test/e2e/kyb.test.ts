// End to end on a partner page of another origin, at 1280 and 320 px: a business with a nested shareholder, through a
// TEMPORARY_REJECTION and the re-upload, to APPROVED.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { taxIdEndingIn } from '../server/harness';
import { JPG, PDF } from '../server/kyc-helpers';
import { fillAddress, readApi } from './flows';
import { type Host, hostPage, sdkUrl, startHost } from './host-page';
import { launchBrowser, type RunningServer, startServer } from './support';

let server: RunningServer;
let browser: Browser;
let host: Host;
const files = { jpg: join(tmpdir(), `ramp-kyb-${process.pid}.jpg`), pdf: join(tmpdir(), `ramp-kyb-${process.pid}.pdf`) };
before(async () => {
  writeFileSync(files.jpg, JPG);
  writeFileSync(files.pdf, PDF);
  server = await startServer({ RAMP_SANDBOX_REVIEW_MS: '300' });
  browser = await launchBrowser();
  host = await startHost(server, {
    '/onboarding-session.js': { js: `document.querySelector('ramp-onboarding').session = new URLSearchParams(location.search).get('session');` },
    ...Object.fromEntries(CASES.map((c) => [`/kyb-${c.lang}.html`, { html: hostPage('kyb', c.lang, ['/host.js', sdkUrl(server), '/onboarding-session.js'], '<ramp-onboarding></ramp-onboarding>') }])),
  });
});
after(async () => {
  await host?.close();
  await browser?.close();
  await server?.stop();
});

const o = 'ramp-onboarding';

/** Each run: a screen width and the page's language, with the company step's name in that language. */
const CASES = [
  { width: 1280, lang: 'en', companyStep: 'About the company' },
  { width: 320, lang: 'pt-BR', companyStep: 'Sobre a empresa' },
  { width: 320, lang: 'es', companyStep: 'Sobre la empresa' },
];

/** A business's addresses (its own and its parties'). */
const funchal = { line1: 'Rua Funchal, 418', city: 'São Paulo', state: 'SP', postalCode: '04551-060' };

async function addParty(page: Page, opts: { parentId?: string; type: 'INDIVIDUAL' | 'BUSINESS'; pct: string }) {
  await page.click(`${o} ${opts.parentId ? `[data-testid=add-nested-${opts.parentId}]` : '[data-testid=add-party]'}`);
  await page.click(`${o} [data-testid=party-type-${opts.type}]`);
  if (!opts.parentId) await page.check(`${o} [data-testid=party-role-SHAREHOLDER]`);
  await page.fill(`${o} #party-ownershipPercentage`, opts.pct);
  if (opts.type === 'BUSINESS') {
    await page.fill(`${o} #party-legalName`, 'Holding SA');
    await page.locator(`${o} #party-taxId`).pressSequentially(taxIdEndingIn('cnpj'));
    await page.fill(`${o} #party-incorporationDate`, '2010-01-01');
  } else {
    await page.fill(`${o} #party-name`, 'Davi Lima');
    await page.locator(`${o} #party-taxId`).pressSequentially(taxIdEndingIn('cpf'));
    await page.fill(`${o} #party-birthDate`, '1975-06-30');
  }
  await page.fill(`${o} #party-email`, 'owner@holding.example');
  await fillAddress(page, 'party-address', o, funchal);
  await page.click(`${o} [data-testid=party-save]`);
}

describe('KYB on a partner page of another origin', () => {
  for (const { width, lang, companyStep } of CASES) test(`a business with a nested shareholder is rejected once, re-uploads the named document and is APPROVED (${width} px, ${lang})`, async () => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${host.origin}/kyb-${lang}.html?session=${encodeURIComponent(await host.mintSession())}`);
    await page.waitForSelector(`${o} [data-testid=type-BUSINESS]`, { timeout: 20_000 });
    const cnpj = taxIdEndingIn('cnpj', 2);
    await page.click(`${o} [data-testid=type-BUSINESS]`);
    await page.fill(`${o} #legalName`, 'Acme Pagamentos Ltda');
    await page.locator(`${o} #taxId`).pressSequentially(cnpj);
    await page.fill(`${o} #incorporationDate`, '2015-03-02');
    await page.selectOption(`${o} #country`, 'BRA');
    await page.fill(`${o} #email`, 'finance@acme.example');
    await page.click(`${o} [data-testid=submit]`);

    await page.waitForSelector(`${o} section[data-step=info]`, { timeout: 20_000 });
    assert.equal((await page.textContent(`${o} [part~=step][data-step=info] .step-label`))?.trim(), companyStep);
    assert.equal(await page.locator(`${o} [data-testid=info-volume] input`).count(), 4, 'the amounts are one group');
    await page.fill(`${o} #info-phone`, '+551130000000');
    await fillAddress(page, 'info-address', o, funchal);
    await page.fill(`${o} #info-monthlyVolumeInUSD`, '250000');
    await page.fill(`${o} #info-transactionVolumeInUSD`, '20000');
    await page.check(`${o} [data-testid=jurisdictions-BRA]`);
    await page.check(`${o} [data-testid=involvedActivities-NONE]`);
    await page.check(`${o} [data-testid=transactionCounterparties-MERCHANTS_SUPPLIERS]`);
    await page.selectOption(`${o} #info-companyType`, 'PAYMENT_GATEWAY');
    await page.fill(`${o} #info-annualRevenue`, '3000000');
    await page.fill(`${o} #info-monthlyTransactionVolume`, '250000');
    await page.fill(`${o} #info-complianceAndAML`, 'KYC on every merchant, transaction monitoring, sanctions screening.');
    await page.fill(`${o} #info-website`, 'https://acme.example');
    await page.selectOption(`${o} #info-sourceOfFunds`, 'COMPANY');
    await page.fill(`${o} #info-servicesProvided`, 'Payment processing for online shops.');
    await page.click(`${o} [data-testid=info-submit]`);

    await page.waitForSelector(`${o} section[data-step=parties]`, { timeout: 20_000 });
    await addParty(page, { type: 'BUSINESS', pct: '60' });
    const holdingId = await page.getAttribute(`${o} [data-testid=party][data-type=BUSINESS]`, 'data-party-id', { timeout: 20_000 });
    assert.ok(holdingId);
    // Refused in the browser before sending: over 100% at the top level (naming who), then under the 25% threshold.
    await addParty(page, { type: 'INDIVIDUAL', pct: '50' });
    const pctError = page.locator(`${o} #party-ownershipPercentage-error`);
    await pctError.waitFor({ timeout: 20_000 });
    assert.match((await pctError.textContent()) ?? '', /Holding SA .* Davi Lima .*110\s?%/);
    await page.fill(`${o} #party-ownershipPercentage`, '15');
    await page.click(`${o} [data-testid=party-save]`);
    await page.waitForFunction(
      () => /25\s?%/.test(document.querySelector('ramp-onboarding')?.shadowRoot?.querySelector('#party-ownershipPercentage-error')?.textContent ?? ''),
      undefined,
      { timeout: 20_000 },
    );
    await page.click(`${o} [data-testid=party-cancel]`);
    // Removing asks first; Cancel keeps the party.
    await page.click(`${o} [data-testid=remove-${holdingId}]`);
    await page.click(`${o} [data-testid=cancel-remove-${holdingId}]`);
    assert.equal(await page.locator(`${o} [data-testid=party]`).count(), 1);
    await addParty(page, { parentId: holdingId, type: 'INDIVIDUAL', pct: '100' });
    await page.waitForSelector(`${o} [data-party-id="${holdingId}"] [data-testid=party]`, { timeout: 20_000 });
    const nestedId = await page.getAttribute(`${o} [data-party-id="${holdingId}"] [data-testid=party]`, 'data-party-id');
    await page.click(`${o} [data-testid=parties-continue]`);

    await page.waitForSelector(`${o} section[data-step=documents]`, { timeout: 20_000 });
    for (const type of ['INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY']) {
      await page.setInputFiles(`${o} [data-testid=uploader] [data-testid=input-${type}]`, files.pdf);
      await page.waitForSelector(`${o} [data-testid=uploader] [data-testid=sent-${type}]`, { timeout: 20_000 });
    }
    for (const type of ['INCORPORATION_ARTICLES', 'DIRECTORS_REGISTRY']) {
      await page.setInputFiles(`${o} [data-testid=uploader-${holdingId}] [data-testid=input-${type}]`, files.pdf);
      await page.waitForSelector(`${o} [data-testid=uploader-${holdingId}] [data-testid=sent-${type}]`, { timeout: 20_000 });
    }
    await page.click(`${o} [data-testid=uploader-${nestedId}] [data-testid=type-PASSPORT]`);
    await page.setInputFiles(`${o} [data-testid=uploader-${nestedId}] [data-testid=input-PASSPORT]`, files.jpg);
    await page.waitForSelector(`${o} [data-testid=uploader-${nestedId}] [data-testid=sent-PASSPORT]`, { timeout: 20_000 });
    // Back to the parties and forward again: what was saved is still there.
    await page.click(`${o} [data-testid=back]`);
    await page.waitForSelector(`${o} section[data-step=parties] [data-party-id="${nestedId}"]`, { timeout: 20_000 });
    await page.click(`${o} [data-testid=parties-continue]`);
    await page.waitForSelector(`${o} [data-testid=uploader] [data-testid=sent-DIRECTORS_REGISTRY]`, { timeout: 20_000 });
    await page.click(`${o} [data-testid=documents-continue]`);

    await page.click(`${o} [data-testid=start-verification]`, { timeout: 20_000 });
    await page.waitForSelector(`${o} [data-testid=rejected-documents]`, { timeout: 30_000 });
    await page.setInputFiles(`${o} [data-testid=reupload] [data-testid=input-DIRECTORS_REGISTRY]`, files.pdf);
    await page.waitForSelector(`${o} [data-testid=verification-status][data-status=APPROVED]`, { timeout: 30_000 });

    const { data } = await readApi(server, `/v2/customers?taxId=${cnpj}`);
    assert.equal(data[0].verification.status, 'APPROVED');
    const parties = await readApi(server, `/v2/customers/${data[0].id}/associated-parties`);
    assert.equal(parties.data.length, 2);
    assert.equal(parties.data.find((p: { id: string }) => p.id === nestedId).parentId, holdingId);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

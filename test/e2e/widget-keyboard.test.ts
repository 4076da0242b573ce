// <ramp-widget> on a partner's page of another origin, by keyboard alone: a new customer through KYC to APPROVED, a PIX
// purchase and a sale to a new bank account, both to SUCCESS, with the session renewed once in the middle of a form.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { taxIdEndingIn } from '../server/harness';
import { JPG, PDF } from '../server/kyc-helpers';
import { fund, readApi } from './flows';
import { type Host, startHost } from './host-page';
import { assertVisibleFocus, chooseOption, chooseRadio, focusLandsOn, pressOn, tabTo, typeInto } from './keyboard';
import { launchBrowser, type RunningServer, startServer } from './support';

let ramp: RunningServer;
let browser: Browser;
let host: Host;
const files = { jpg: join(tmpdir(), `ramp-kbd-${process.pid}.jpg`), pdf: join(tmpdir(), `ramp-kbd-${process.pid}.pdf`) };

before(async () => {
  writeFileSync(files.jpg, JPG);
  writeFileSync(files.pdf, PDF);
  ramp = await startServer({ RAMP_SANDBOX_REVIEW_MS: '200', RAMP_SANDBOX_STEP_MS: '300', RAMP_SANDBOX_BANK_ACCOUNT_MS: '300' });
  browser = await launchBrowser();
  host = await startHost(ramp);
});

after(async () => {
  await browser?.close();
  await ramp?.stop();
  await host?.close();
  rmSync(files.jpg, { force: true });
  rmSync(files.pdf, { force: true });
});

/**
 * A picker button pressed by keyboard opens the file chooser; the test answers it as the person would pick a file.
 * The page keeps a `filechooser` listener from the start (see the test): Playwright intercepts choosers only while
 * one listens, and switching that on per wait races the key press (a chooser opened in between is never seen).
 */
async function pickFile(page: Page, selector: string, file: string): Promise<void> {
  await tabTo(page, selector);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
  await chooser.setFiles(file);
}

/** Polls `read` in this process until it gives a value. */
async function until<T>(read: () => T | undefined, timeout = 10_000): Promise<T> {
  for (const deadline = Date.now() + timeout; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const value = read();
    if (value !== undefined) return value;
  }
  assert.fail('timed out');
}

const events = (page: Page, type: string) =>
  page.evaluate((type) => (window as unknown as { rampEvents: { type: string }[] }).rampEvents.filter((e) => e.type === type).length, type);

describe('<ramp-widget> by keyboard alone', () => {
  test('a new customer onboards, buys by PIX and sells to a new bank account, both to SUCCESS, renewing the session once', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    page.on('filechooser', () => undefined); // choosers stay intercepted: see pickFile
    const cpf = taxIdEndingIn('cpf', 0);
    // The partner's signed-in user: its backend mints every session for them (the renewal too).
    const user = `kb-${randomUUID()}`;
    await page.goto(host.loginUrl(user));
    await page.goto(`${host.origin}/flow.html?session=${encodeURIComponent(await host.sessionFor(user))}`);
    await page.waitForSelector('ramp-widget ramp-onboarding #name', { timeout: 20_000 });

    // The customer: the type radios answer the arrows (business and back), then name, CPF, birth date.
    await tabTo(page, '[data-testid=type-INDIVIDUAL]');
    await assertVisibleFocus(page);
    await page.keyboard.press('ArrowRight');
    await focusLandsOn(page, '[data-testid=type-BUSINESS]:checked');
    await page.keyboard.press('ArrowLeft');
    await focusLandsOn(page, '[data-testid=type-INDIVIDUAL]:checked');
    await typeInto(page, '#name', 'Ana Souza');
    await typeInto(page, '#taxId', cpf);
    await typeInto(page, '#birthDate', '05171990');
    await pressOn(page, '[data-testid=submit]', 'Enter');
    await page.waitForFunction(() => (window as unknown as { rampEvents: { type: string }[] }).rampEvents.some((e) => e.type === 'ramp-customer-created'), null, {
      timeout: 20_000,
    });
    const { data } = await readApi(ramp, `/v2/customers?taxId=${cpf}`);
    const customerId: string = data[0].id;

    // Additional information: the name came from the first step; the rest typed, chosen by arrows, ticked by Space.
    await page.waitForSelector('ramp-widget ramp-onboarding section[data-step=info]', { timeout: 20_000 });
    await typeInto(page, '#info-phone', '11987654321');
    await typeInto(page, '#info-address-line1', 'Av. Paulista, 1000');
    await typeInto(page, '#info-address-city', 'São Paulo');
    await typeInto(page, '#info-address-state', 'SP');
    await typeInto(page, '#info-address-postalCode', '01310-100');
    await chooseOption(page, '#info-professionalSituation', 'EMPLOYEE');
    await typeInto(page, '#info-professionalOccupation', 'Engineer');
    await chooseOption(page, '#info-sourceOfFunds', 'EMPLOYMENT');
    await typeInto(page, '#info-monthlyVolumeInUSD', '2500');
    await typeInto(page, '#info-transactionVolumeInUSD', '500');
    for (const box of ['jurisdictions-BRA', 'involvedActivities-NONE', 'transactionCounterparties-SELF']) {
      await pressOn(page, `[data-testid=${box}]`, 'Space');
      await assertVisibleFocus(page);
    }
    await pressOn(page, '[data-testid=info-submit]', 'Enter');

    // Documents: the identity type by arrows, each file through the chooser its button opens.
    await focusLandsOn(page, '[data-step=documents] #step-title');
    await chooseRadio(page, 'input[name=type-ID_CARD]', '[data-testid=type-PASSPORT]');
    await pickFile(page, '[data-testid=choose-PASSPORT]', files.jpg);
    await pickFile(page, '[data-testid=choose-BANK_STATEMENT]', files.pdf);
    await page.waitForSelector('ramp-widget ramp-onboarding [data-testid=sent-BANK_STATEMENT]', { timeout: 20_000 });
    await page.waitForSelector('ramp-widget ramp-onboarding [data-testid=sent-PASSPORT]', { timeout: 20_000 });
    await pressOn(page, '[data-testid=documents-continue]', 'Enter');

    // Liveness runs on Ramp's hosted page in a popup (a camera there, a simulate button in the sandbox): keyboard there too.
    await focusLandsOn(page, '[data-step=liveness] #step-title');
    await tabTo(page, '[data-testid=start-liveness]');
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
    popup.on('pageerror', (e) => errors.push(`popup: ${e.message}`));
    await popup.waitForSelector('ramp-verification [data-testid=simulate-liveness]', { timeout: 20_000 });
    await pressOn(popup, '[data-testid=simulate-liveness]', 'Enter');
    await popup.waitForSelector('ramp-verification [data-testid=outcome]', { timeout: 20_000 });
    await popup.close();

    // Approved by the sandbox review: the widget moves on to the quote, and focus with it.
    await focusLandsOn(page, 'ramp-quote >> #title', 30_000);
    await page.waitForSelector('ramp-widget ramp-quote [data-testid=final-amount]', { timeout: 20_000 });
    assert.equal((await readApi(ramp, `/v2/customers/${customerId}`)).verification.status, 'APPROVED');

    // Buy: a one-minute lock, the PIX checkout, the sandbox payment.
    await chooseRadio(page, 'input[name=time-lock]', '[data-testid=time-lock-1m]');
    await assertVisibleFocus(page);
    await pressOn(page, '[data-testid=lock]', 'Enter');
    await focusLandsOn(page, 'ramp-pix-checkout >> #title');
    await chooseOption(page, '#purpose', 'INVESTMENT');
    await pressOn(page, '[data-testid=create-payment]', 'Enter');
    await focusLandsOn(page, '[data-testid=payment] #phase-title');
    await pressOn(page, '[data-testid=simulate-payment]', 'Enter');
    await page.waitForSelector('ramp-widget ramp-pix-checkout [data-testid=success]', { timeout: 30_000 });
    const onRamp = (await page.textContent('ramp-widget ramp-pix-checkout [data-testid=reference]'))?.trim() ?? '';

    // Sell: funds arrive on the wallet (over the sandbox API: an outside transfer), then the nav's Sell.
    await fund(ramp, customerId, '100');
    await tabTo(page, '[data-view=sell]', { back: true });
    await page.keyboard.press('Enter');
    await page.waitForSelector('ramp-widget ramp-quote[direction=sell] [data-testid=final-amount]', { timeout: 20_000 });
    await tabTo(page, '[data-testid=amount-pay]');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('25');
    await page.waitForSelector('ramp-widget ramp-quote [data-testid=breakdown][data-stale=false]', { timeout: 20_000 });
    await chooseRadio(page, 'input[name=time-lock]', '[data-testid=time-lock-5m]');
    await pressOn(page, '[data-testid=lock]', 'Enter');
    await focusLandsOn(page, 'ramp-offramp >> #title');

    // A new PIX account held by the customer itself (SELF: the same CPF).
    await pressOn(page, '[data-testid=add-account]', 'Enter');
    await focusLandsOn(page, '#bank-form-title');
    await chooseRadio(page, 'input[name=rail]', '[data-testid=rail-PIX]');
    await typeInto(page, '#bank-name', 'Minha conta');
    await chooseOption(page, '#bank-keyType', 'EVP');
    await typeInto(page, '#bank-keyValue', '123e4567-e12b-42d3-a456-426614174000');
    await chooseRadio(page, 'input[name=holderType]', '[data-testid=holder-INDIVIDUAL]');
    await chooseOption(page, '#bank-relationship', 'SELF');
    await typeInto(page, '#bank-holderName', 'Ana Souza');
    await typeInto(page, '#bank-taxId', cpf);

    // Halfway through the form the session stops working (revoked, expired): the partner's backend hands a new one, once,
    // and what was typed stays.
    await page.evaluate(() => (document.querySelector('ramp-widget')!.session = 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.invalid'));
    await page.waitForFunction(() => (window as unknown as { renewals: number }).renewals === 1, null, { timeout: 20_000 });
    const renewed = await until(() => host.renewedTokens[0]);
    await page.waitForFunction((token) => document.querySelector('ramp-widget')!.session === token, renewed, { timeout: 10_000 });

    await typeInto(page, '#bank-line1', 'Av. Paulista, 1000');
    await typeInto(page, '#bank-city', 'São Paulo');
    await typeInto(page, '#bank-state', 'SP');
    await typeInto(page, '#bank-postalCode', '01310-100');
    await pressOn(page, '[data-testid=save-account]', 'Enter');
    await page.waitForSelector('ramp-widget ramp-offramp [data-testid=account][data-status=APPROVED]', { timeout: 20_000 });
    await chooseOption(page, '#offramp-purpose', 'PERSONAL_ACCOUNT');
    await pressOn(page, '[data-testid=confirm-payout]', 'Enter');
    await page.waitForSelector('ramp-widget ramp-offramp [data-testid=success]', { timeout: 30_000 });

    assert.equal((await readApi(ramp, `/v2/transactions/${onRamp}`)).state.status, 'SUCCESS');
    const offRamps = await readApi(ramp, `/v2/transactions?customerId=${customerId}&type=OFF_RAMP`);
    assert.equal(offRamps.data.length, 1);
    assert.equal(offRamps.data[0].state.status, 'SUCCESS');
    assert.equal(Number(offRamps.data[0].quote.sourceAmount), 25);
    const [account] = (await readApi(ramp, `/v2/bank-accounts?customerId=${customerId}`)).data;
    assert.equal(account.name, 'Minha conta', 'the fields typed before the renewal were saved');
    assert.equal(await page.evaluate(() => (window as unknown as { renewals: number }).renewals), 1);
    assert.equal(await events(page, 'ramp-session-expired'), 1);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
    // The revoked token's refused request (and Chromium's console line about it) set off the renewal; nothing else failed.
    assert.deepEqual(
      errors.filter((e) => !/^401 .*\/bff\/|status of 401/.test(e)),
      [],
    );
    await page.close();
  });
});

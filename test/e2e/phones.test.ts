// Every step of the demo page's flows on a phone and on a desktop: screenshots at 375×812 and 1280×800 (test-results/screenshots, CI's artefact), nothing wider than a 320 px screen, every touch target at least 44×44 px.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { taxIdEndingIn } from '../server/harness';
import { JPG, PDF, PNG } from '../server/kyc-helpers';
import { approveOverApi, fillIndividualInformation, fillSelfPixAccount, fund } from './flows';
import { launchBrowser, type RunningServer, startServer } from './support';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };
/** The narrowest screen the page must fit without sideways scrolling (WCAG 1.4.10 reflow). */
const NARROW = 320;
/** WCAG 2.5.5 (target size, enhanced): 44×44 CSS px. Half a pixel of slack for subpixel layout. */
const TARGET = 44;

let server: RunningServer;
let browser: Browser;
const files = { jpg: join(tmpdir(), `ramp-phones-${process.pid}.jpg`), png: join(tmpdir(), `ramp-phones-${process.pid}.png`), pdf: join(tmpdir(), `ramp-phones-${process.pid}.pdf`) };

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(files.jpg, JPG);
  writeFileSync(files.png, PNG);
  writeFileSync(files.pdf, PDF);
  server = await startServer({ RAMP_SANDBOX_REVIEW_MS: '200', RAMP_SANDBOX_STEP_MS: '300', RAMP_SANDBOX_BANK_ACCOUNT_MS: '300' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

// ── sizes ──
// The flows run in a phone context (isMobile + hasTouch, 375×812: meta viewport honoured, `pointer: coarse`, taps).
// For the desktop picture and the 320 px check the page is re-emulated in place over CDP (the same calls Playwright
// makes for those context options), because the widgets' state cannot be carried to another page.

type Size = 'phone' | 'narrow' | 'desktop';
const sizes: Record<Size, { width: number; height: number; mobile: boolean }> = {
  phone: { ...PHONE, mobile: true },
  narrow: { width: NARROW, height: PHONE.height, mobile: true },
  desktop: { ...DESKTOP, mobile: false },
};

const frames = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

async function emulate(cdp: CDPSession, page: Page, size: Size, height = sizes[size].height): Promise<void> {
  const { width, mobile } = sizes[size];
  await cdp.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile, screenWidth: width, screenHeight: sizes[size].height });
  await cdp.send('Emulation.setTouchEmulationEnabled', mobile ? { enabled: true, maxTouchPoints: 1 } : { enabled: false });
  // Media queries and resize observers settle, then Lit's updates.
  await frames(page);
}

/**
 * The subject (an element, or the whole page) as a PNG. Chromium's capture beyond the viewport drops touch emulation
 * (the picture would show the mouse layout), so the viewport is made as tall as the page for the picture instead.
 */
async function shoot(cdp: CDPSession, page: Page, size: Size, subject: string | undefined, file: string): Promise<void> {
  const tall = await page.evaluate(() => document.documentElement.scrollHeight);
  await emulate(cdp, page, size, Math.min(Math.max(tall, sizes[size].height), 16_000));
  const clip = await page.evaluate((selector) => {
    const el = selector ? document.querySelector(selector) : document.documentElement;
    if (!el) return undefined;
    const r = el.getBoundingClientRect();
    const pad = selector ? 8 : 0;
    const x = Math.max(0, r.left + scrollX - pad);
    const y = Math.max(0, r.top + scrollY - pad);
    return { x, y, width: Math.min(document.documentElement.scrollWidth - x, r.width + 2 * pad), height: Math.min(document.documentElement.scrollHeight - y, r.height + 2 * pad), scale: 1 };
  }, subject);
  assert.ok(clip && clip.width > 0 && clip.height > 0, `${subject} is on the page to take its picture`);
  const { data } = await cdp.send('Page.captureScreenshot', { format: 'png', clip });
  writeFileSync(join(SHOTS, file), Buffer.from(data, 'base64'));
  await emulate(cdp, page, size);
}

// ── what is checked in the page (shadow roots pierced) ──

/**
 * Touch targets, at phone size: every visible button, link, form control, [role=button], [tabindex="0"] and label
 * wrapping a control must be at least 44×44 CSS px. Exempt, as WCAG 2.5.8 exempts them: a link (or link-styled
 * button) inside a sentence, i.e. whose parent has text of its own beside it; a radio or checkbox whose label (the
 * thing one taps) passes. Elements hidden from sight (display, visibility, opacity 0, clipped to 1 px) are not targets.
 */
function smallTargets(min: number): string[] {
  const all: Element[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll('*')) {
      all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  const name = (el: Element) => {
    const host = (el.getRootNode() as ShadowRoot).host;
    const id = el.getAttribute('data-testid') ?? el.id ?? '';
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
    return `${host ? `${host.localName} ` : ''}${el.localName}${id ? `[${id}]` : ''}${text ? ` "${text}"` : ''}`;
  };
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  };
  const big = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width >= min - 0.5 && r.height >= min - 0.5;
  };
  const inSentence = (el: Element) =>
    el.matches('a, [role=link], button.link') && [...(el.parentNode?.childNodes ?? [])].some((n) => n !== el && n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
  const targets = all.filter(
    (el) => el.matches('button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [tabindex="0"]') || (el.localName === 'label' && el.querySelector('input, select, textarea')),
  );
  const small: string[] = [];
  for (const el of targets) {
    if (!shown(el) || big(el) || inSentence(el)) continue;
    // A radio or checkbox is tapped through its label, which is judged in its place.
    if (el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox') && [...(el.labels ?? [])].some(shown)) continue;
    const r = el.getBoundingClientRect();
    small.push(`${name(el)} is ${Math.round(r.width)}×${Math.round(r.height)}`);
  }
  return small;
}

/**
 * Sideways overflow at 320 px: the document no wider than the screen; no element (light or shadow DOM) and no line of
 * text reaching past either edge unless a scrolling or clipping ancestor holds it; no box that scrolls sideways itself
 * (form fields, which scroll their own text, aside). Only the innermost offender of a chain is named.
 */
function overflows(limit: number): string[] {
  const problems: string[] = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > limit) problems.push(`the page is ${doc.scrollWidth} px wide`);
  const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.parentNode as ShadowRoot | null)?.host ?? null);
  const name = (el: Element) => {
    const host = (el.getRootNode() as ShadowRoot).host;
    const id = el.getAttribute('data-testid') ?? el.id ?? '';
    const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${host ? `${host.localName} ` : ''}${el.localName}${cls}${id ? `[${id}]` : ''}${text ? ` "${text}"` : ''}`;
  };
  const clips = (el: Element) => el !== doc && el !== document.body && getComputedStyle(el).overflowX !== 'visible';
  const held = (el: Element) => {
    for (let p = parentOf(el); p; p = parentOf(p)) if (clips(p)) return true;
    return false;
  };
  const out = (left: number, right: number) => right > limit + 0.5 || left < -0.5;
  const offenders = new Map<Element, [number, number]>();
  const walk = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width > 1 && r.height > 1 && el.checkVisibility({ visibilityProperty: true })) {
        if (out(r.left + scrollX, r.right + scrollX) && !held(el)) offenders.set(el, [r.left + scrollX, r.right + scrollX]);
        if (!el.matches('input, textarea, select') && (style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
          problems.push(`${name(el)} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth} px)`);
        }
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
    // Text running out of its box: the box it belongs to is the offender.
    const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let t = texts.nextNode(); t; t = texts.nextNode()) {
      const box = t.parentElement;
      if (!box || !(t.textContent ?? '').trim() || !box.checkVisibility({ visibilityProperty: true }) || clips(box) || held(box) || offenders.has(box)) continue;
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) {
        if (r.width > 0 && out(r.left + scrollX, r.right + scrollX)) {
          offenders.set(box, [r.left + scrollX, r.right + scrollX]);
          break;
        }
      }
    }
  };
  walk(document);
  // The innermost offenders are the causes: a box pushed wide by a child only follows it.
  const followers = new Set<Element>();
  for (const el of offenders.keys()) for (let p = parentOf(el); p; p = parentOf(p)) followers.add(p);
  for (const [el, [left, right]] of offenders) {
    if (!followers.has(el)) problems.push(`${name(el)} spans ${Math.round(left)}…${Math.round(right)} px`);
  }
  return problems;
}

// ── one step: pictures at both sizes, the checks at phone and 320 px sizes ──

interface Viewer {
  page: Page;
  cdp: CDPSession;
  /** What the steps found, each once with the first step that showed it; asserted at the end of the flow so one run names every defect. */
  problems: Map<string, string>;
}

function found(v: Viewer, step: string, problem: string): void {
  if (!v.problems.has(problem)) v.problems.set(problem, step);
}

/** Fails with every finding, one a line. */
function assertNoProblems(...viewers: Viewer[]): void {
  const all = viewers.flatMap((v) => [...v.problems].map(([problem, step]) => `${step}: ${problem}`));
  if (all.length) assert.fail(`${all.length} problems:\n${all.join('\n')}`);
}

async function viewer(context: BrowserContext, page?: Page): Promise<Viewer> {
  page ??= await context.newPage();
  return { page, cdp: await context.newCDPSession(page), problems: new Map() };
}

async function step(v: Viewer, name: string, subject?: string): Promise<void> {
  const { page, cdp } = v;
  await emulate(cdp, page, 'phone');
  if (subject) await page.locator(subject).first().scrollIntoViewIfNeeded();
  for (const p of await page.evaluate(smallTargets, TARGET)) found(v, name, `touch target: ${p}`);
  await shoot(cdp, page, 'phone', subject, `${name}-375x812.png`);
  await emulate(cdp, page, 'narrow');
  for (const p of await page.evaluate(overflows, NARROW)) found(v, name, `at ${NARROW} px: ${p}`);
  await shoot(cdp, page, 'desktop', subject, `${name}-1280x800.png`);
  await emulate(cdp, page, 'phone');
}

/** A finding that does not stop the flow: every step still runs and is pictured. */
function check(v: Viewer, ok: boolean, message: string): void {
  if (!ok) found(v, 'check', message);
}

async function phoneContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  // tsx compiles the functions handed to page.evaluate with esbuild's name helper: give the page a harmless one.
  await context.addInitScript('globalThis.__name = (f) => f;');
  return context;
}

/** Cumulative layout shift so far (shifts right after input do not count, as in the metric). */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) sum += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(sum), 100);
      }),
  );

/** Whether one element of a component comes before another on screen, top to bottom. */
const above = (page: Page, host: string, first: string, second: string) =>
  page.evaluate(([h, a, b]) => {
    const root = document.querySelector(h)!.shadowRoot!;
    return root.querySelector(a)!.getBoundingClientRect().top < root.querySelector(b)!.getBoundingClientRect().top;
  }, [host, first, second] as const);

describe('the demo page on a phone and a desktop', () => {
  test('onboarding an individual (customer, information, documents, the hosted liveness page, approval) fits a 320 px screen and a finger at every step', async () => {
    const context = await phoneContext();
    const v = await viewer(context);
    const { page } = v;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const o = 'ramp-onboarding';

    await page.goto(`${server.url}/?view=components`);
    await page.waitForSelector('#session-status[data-state="ready"]', { timeout: 20_000 });
    await page.waitForSelector(`${o} [data-testid=submit]`);
    await page.waitForTimeout(300);
    const cls = await layoutShift(page);
    check(v, cls < 0.1, `the widget mounts in reserved space: cumulative layout shift ${cls.toFixed(3)} on a phone`);
    await step(v, 'demo-page');

    // Taps, not clicks: the form must work by touch.
    await page.tap(`${o} [data-testid=type-INDIVIDUAL]`);
    await page.fill(`${o} #name`, 'Ana Souza');
    const cpf = taxIdEndingIn('cpf', 0);
    await page.locator(`${o} #taxId`).pressSequentially(cpf);
    await page.fill(`${o} #birthDate`, '1990-05-17');
    await step(v, 'onboarding-customer', o);
    await page.tap(`${o} [data-testid=submit]`);
    await page.waitForSelector('#event-log li[data-event="ramp-customer-created"]', { timeout: 20_000 });

    await page.waitForSelector(`${o} section[data-step=info]`);
    await fillIndividualInformation(page, o);
    await step(v, 'onboarding-information', o);
    await page.tap(`${o} [data-testid=info-submit]`);

    await page.waitForSelector(`${o} section[data-step=documents]`, { timeout: 20_000 });
    await page.waitForSelector(`${o} [data-testid=uploader] [data-testid=input-ID_CARD-FRONT_SIDE]`, { state: 'attached' });
    await step(v, 'onboarding-documents', o);
    check(v, !/drag|drop|arraste|solte|arrastr/i.test(await page.locator(`${o} [data-testid=uploader]`).innerText()), 'a phone is not asked to drag files');
    await page.setInputFiles(`${o} [data-testid=uploader] [data-testid=input-ID_CARD-FRONT_SIDE]`, files.jpg);
    await page.setInputFiles(`${o} [data-testid=uploader] [data-testid=input-ID_CARD-BACK_SIDE]`, files.png);
    await page.setInputFiles(`${o} [data-testid=uploader] [data-testid=input-BANK_STATEMENT]`, files.pdf);
    await page.waitForFunction(
      () => document.querySelector('ramp-onboarding')?.shadowRoot?.querySelector('[data-testid=uploader]')?.shadowRoot?.querySelectorAll('[data-testid^=sent-]').length === 3,
      undefined,
      { timeout: 20_000, polling: 250 },
    );
    await step(v, 'onboarding-documents-sent', o);
    await page.tap(`${o} [data-testid=documents-continue]`);

    await page.waitForSelector(`${o} section[data-step=liveness]`, { timeout: 20_000 });
    await step(v, 'onboarding-liveness', o);
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.tap(`${o} [data-testid=start-liveness]`)]);
    await popup.waitForLoadState();
    popup.on('pageerror', (e) => errors.push(`popup: ${e.message}`));
    const hosted = await viewer(context, popup);
    await popup.waitForSelector('ramp-verification [data-testid=simulate-liveness]', { timeout: 20_000 });
    await step(hosted, 'verification-hosted');
    // No camera here (none in headless Chromium): the page falls back to a file input, which must look like the rest.
    await popup.tap('ramp-verification [data-testid=start-camera]');
    await popup.waitForSelector('ramp-verification [data-testid=file-fallback]', { timeout: 10_000 });
    await step(hosted, 'verification-hosted-no-camera');
    await popup.tap('ramp-verification [data-testid=simulate-liveness]');
    await popup.waitForSelector('ramp-verification [data-testid=outcome]', { timeout: 20_000 });
    await step(hosted, 'verification-hosted-done');
    await popup.close();

    await page.waitForSelector(`${o} [data-testid=verification-status][data-status=APPROVED]`, { timeout: 30_000 });
    await step(v, 'onboarding-approved', o);
    assertNoProblems(v, hosted);
    assert.deepEqual(errors, []);
    await context.close();
  });

  // The money flows share one customer and one page: PIX buys the stablecoin, the off-ramp sells some of it.
  let money: Viewer | undefined;
  let cpf = '';

  test('a locked quote paid by PIX fits a 320 px screen and a finger; the code to copy comes first on a phone, the QR first on a desktop', async () => {
    const context = await phoneContext();
    const v = (money = await viewer(context));
    const { page } = v;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    cpf = taxIdEndingIn('cpf', 0);
    await page.goto(`${server.url}/?view=components`);
    await page.waitForSelector('#session-status[data-state="ready"]', { timeout: 20_000 });
    await page.tap('ramp-onboarding [data-testid=type-INDIVIDUAL]');
    await page.fill('ramp-onboarding #name', 'Ana Souza');
    await page.locator('ramp-onboarding #taxId').pressSequentially(cpf);
    await page.fill('ramp-onboarding #birthDate', '1990-05-17');
    await page.tap('ramp-onboarding [data-testid=submit]');
    await page.waitForSelector('#event-log li[data-event="ramp-customer-created"]', { timeout: 20_000 });
    const res = await fetch(`${server.url}/v2/customers?taxId=${cpf}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const customerId = ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
    await approveOverApi(server, customerId);
    await fund(server, customerId, '100');

    // Floating quotes refresh only while the panel is on screen.
    await page.locator('ramp-quote').scrollIntoViewIfNeeded();
    await page.waitForSelector('ramp-quote [data-testid=final-amount]', { timeout: 20_000 });
    await step(v, 'quote', '#quote-section');
    await page.tap('ramp-quote [data-testid=time-lock-5m]');
    await page.tap('ramp-quote [data-testid=lock]');
    await page.waitForSelector('ramp-quote [data-testid=locked]');
    await step(v, 'quote-locked', '#quote-section');

    await page.waitForSelector('#checkout #purpose');
    await page.selectOption('#checkout #purpose', 'INVESTMENT');
    await step(v, 'checkout', '#transaction-section');
    await page.tap('#checkout [data-testid="create-payment"]');
    await page.waitForSelector('#checkout [data-testid="payment"] [data-testid="qr"] svg', { timeout: 20_000 });
    await step(v, 'checkout-payment', '#transaction-section');
    check(v, await above(page, '#checkout', '[data-testid=brcode]', '[data-testid=qr]'), 'on a phone the code to copy comes before the QR');
    await emulate(v.cdp, page, 'desktop');
    check(v, await above(page, '#checkout', '[data-testid=qr]', '[data-testid=brcode]'), 'on a desktop the QR comes before the code to copy');
    await emulate(v.cdp, page, 'phone');

    await page.tap('#checkout [data-testid="simulate-payment"]');
    await page.waitForSelector('#checkout [data-testid="success"]', { timeout: 30_000 });
    await step(v, 'checkout-success', '#transaction-section');
    assertNoProblems(v);
    assert.deepEqual(errors, []);
  });

  test('a locked sell quote cashed out to a new PIX bank account fits a 320 px screen and a finger at every step', async () => {
    assert.ok(money, 'the PIX test left its customer and page');
    const v = money;
    v.problems.clear();
    const { page } = v;
    await page.locator('ramp-quote').scrollIntoViewIfNeeded();
    // The PIX payment holds the rate it was locked at (its window governs, the panel counts nothing down): a new quote, to sell.
    await page.waitForSelector('ramp-quote [data-testid=held]', { timeout: 10_000 });
    await page.tap('ramp-quote [data-testid=requote]');
    await page.tap('ramp-quote [data-testid=direction-sell]');
    await page.fill('ramp-quote [data-testid=amount-pay]', '25');
    await page.waitForSelector('ramp-quote [data-testid=final-amount]', { timeout: 20_000 });
    await step(v, 'quote-sell', '#quote-section');
    await page.tap('ramp-quote [data-testid=time-lock-5m]');
    await page.tap('ramp-quote [data-testid=lock]');
    await page.waitForSelector('#offramp [data-testid="add-account"]', { timeout: 20_000 });
    await step(v, 'offramp', '#transaction-section');

    await fillSelfPixAccount(page, cpf, 'tap');
    await step(v, 'offramp-bank-account', '#transaction-section');
    await page.tap('#offramp [data-testid="save-account"]');
    await page.waitForSelector('#offramp [data-testid="account"][data-status="APPROVED"]', { timeout: 20_000 });
    await page.selectOption('#offramp #offramp-purpose', 'PERSONAL_ACCOUNT');
    await step(v, 'offramp-confirm', '#transaction-section');
    await page.tap('#offramp [data-testid="confirm-payout"]');
    await page.waitForSelector('#offramp [data-testid="success"]', { timeout: 30_000 });
    await step(v, 'offramp-success', '#transaction-section');
    assertNoProblems(v);
    await page.context().close();
  });
});

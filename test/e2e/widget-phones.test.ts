// <ramp-widget> on a phone, on a partner's page of another origin: at 320 px nothing is drawn past its card (the quote's
// selects, lock-window group and Lock button; the checkout; the stepper), fee labels take at most two lines, the stepper
// is not truncated; on a touch screen the PIX code to copy is the primary action above the QR and no "Drag a file here"
// is offered; the hosted verification page's status pills keep their size. 1280 px keeps the desktop layout.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { taxIdEndingIn } from '../server/harness';
import { individualInfo } from '../server/kyc-helpers';
import { approveOverApi, readApi } from './flows';
import { type Host, hostPage, sdkUrl, startHost } from './host-page';
import { launchBrowser, type RunningServer, startServer } from './support';

let ramp: RunningServer;
let browser: Browser;
let host: Host;

before(async () => {
  ramp = await startServer({ RAMP_SANDBOX_REVIEW_MS: '200', RAMP_SANDBOX_STEP_MS: '300' });
  browser = await launchBrowser();
  host = await startHost(ramp, {
    '/pt.html': { html: hostPage('widget', 'pt-BR', ['/host.js', sdkUrl(ramp), '/widget-session.js'], '<ramp-widget sandbox amount="500"></ramp-widget>') },
    '/es.html': { html: hostPage('widget', 'es', ['/host.js', sdkUrl(ramp), '/widget-session.js'], '<ramp-widget sandbox amount="500"></ramp-widget>') },
    '/en.html': { html: hostPage('widget', 'en', ['/host.js', sdkUrl(ramp), '/widget-session.js'], '<ramp-widget sandbox amount="500"></ramp-widget>') },
    // The components on their own (docs/embedding.md's Buy and Sell snippets), where the quote shows its own buy / sell choice.
    '/parts.js': {
      js: `const session = new URLSearchParams(location.search).get('session');
        for (const el of document.querySelectorAll('ramp-quote, ramp-offramp')) el.session = session;`,
    },
    '/parts-pt.html': { html: hostPage('parts', 'pt-BR', ['/host.js', sdkUrl(ramp), '/parts.js'], '<ramp-quote direction="sell" fiat="EUR" amount="1000"></ramp-quote><ramp-offramp amount="100.00"></ramp-offramp>') },
    '/parts-es.html': { html: hostPage('parts', 'es', ['/host.js', sdkUrl(ramp), '/parts.js'], '<ramp-quote direction="buy" fiat="USD" amount="1000"></ramp-quote><ramp-offramp amount="100.00"></ramp-offramp>') },
  });
});

after(async () => {
  await browser?.close();
  await ramp?.stop();
  await host?.close();
});

async function customer(lastDigit: number, approve: boolean): Promise<string> {
  const res = await fetch(`${ramp.url}/v2/customers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ramp.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'INDIVIDUAL', name: 'Maria Eduarda Nascimento', taxId: taxIdEndingIn('cpf', lastDigit), birthDate: '1992-06-14' }),
  });
  const { id } = (await res.json()) as { id: string };
  if (approve) await approveOverApi(ramp, id);
  return id;
}

/**
 * Every visible element inside a component's card (`[part~="base"]` of each `ramp-*` in the widget, shadow roots
 * pierced) that reaches past the card's border box, innermost first; and every fee label (`dt` of a figures row) over
 * two lines; and every step label whose text is cut.
 */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const name = (el: Element) => {
    const host = (el.getRootNode() as ShadowRoot).host;
    const id = el.getAttribute('data-testid') ?? el.getAttribute('part') ?? el.id ?? '';
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
    return `${host ? `${host.localName} ` : ''}${el.localName}${id ? `[${id}]` : ''}${text ? ` "${text}"` : ''}`;
  };
  const cards: Element[] = [];
  const collect = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) {
        const base = el.shadowRoot.querySelector('[part~="base"]');
        if (base && el.localName !== 'ramp-widget') cards.push(base);
        collect(el.shadowRoot);
      }
    }
  };
  collect(document);
  for (const card of cards) {
    // The card's content box: a control reaching into its padding is already drawn past where its content ends.
    const box = card.getBoundingClientRect();
    const cs = getComputedStyle(card);
    const c = { left: box.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft), right: box.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight) };
    const walk = (root: Element | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        const hidden = getComputedStyle(el).position === 'absolute' && el.localName === 'input';
        if (!hidden && r.width > 1 && r.height > 1 && el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && (r.left < c.left - 0.5 || r.right > c.right + 0.5)) {
          problems.push(`${name(el)} spans ${Math.round(r.left)}…${Math.round(r.right)} px, past its card ${Math.round(c.left)}…${Math.round(c.right)}`);
        }
      }
    };
    walk(card);
    for (const dt of card.querySelectorAll('[part~="row"] dt')) {
      const lines = Math.round(dt.getBoundingClientRect().height / parseFloat(getComputedStyle(dt).lineHeight));
      if (lines > 2) problems.push(`${name(dt)} takes ${lines} lines`);
    }
    for (const step of card.querySelectorAll('[part~="step"]')) {
      for (const el of [step, ...step.querySelectorAll('*')]) {
        // A visually hidden label (clipped to 1 px for screen readers) is meant to be so.
        if (el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') problems.push(`${name(el)} is cut (${el.scrollWidth} px in ${el.clientWidth} px)`);
      }
    }
  }
  return problems;
}

const check = async (page: Page, where: string) => {
  const problems = await page.evaluate(layoutProblems);
  assert.deepEqual(problems, [], `${where}:\n${problems.join('\n')}`);
};

async function open(path: string, customerId: string, width: number): Promise<Page> {
  const mobile = width < 400;
  const context = await browser.newContext({ viewport: { width, height: 900 }, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: 1 });
  await context.addInitScript('globalThis.__name = (f) => f;');
  const page = await context.newPage();
  await page.goto(`${host.origin}${path}?session=${encodeURIComponent(await host.mintSession(customerId))}`);
  return page;
}

describe('<ramp-widget> on a phone', () => {
  for (const [width, path] of [
    [320, '/pt.html'],
    [320, '/es.html'],
    [1280, '/en.html'],
  ] as const) {
    test(`the quote, the checkout and its stepper stay inside their cards (${width} px, ${path})`, async () => {
      const page = await open(path, await customer(0, true), width);
      const w = 'ramp-widget';
      await page.waitForSelector(`${w} ramp-quote [data-testid=final-amount]`, { timeout: 20_000 });
      await check(page, 'buy quote');
      await page.click(`${w} [data-view=sell]`);
      await page.waitForSelector(`${w} ramp-quote[direction=sell] [data-testid=final-amount]`, { timeout: 20_000 });
      await check(page, 'sell quote');
      await page.click(`${w} [data-view=buy]`);
      await page.waitForSelector(`${w} ramp-quote[direction=buy] [data-testid=final-amount]`, { timeout: 20_000 });
      await page.click(`${w} ramp-quote [data-testid=time-lock-5m]`);
      await page.click(`${w} ramp-quote [data-testid=lock]`);
      await page.waitForSelector(`${w} ramp-pix-checkout #purpose`, { timeout: 20_000 });
      await check(page, 'checkout form');
      await page.selectOption(`${w} ramp-pix-checkout #purpose`, 'INVESTMENT');
      await page.click(`${w} ramp-pix-checkout [data-testid=create-payment]`);
      await page.waitForSelector(`${w} ramp-pix-checkout [data-testid=payment] [data-testid=qr]`, { timeout: 20_000 });
      await check(page, 'payment');
      // A phone cannot scan its own screen: the code to copy comes first, its button the primary action.
      const order = await page.evaluate(() => {
        const root = document.querySelector('ramp-widget')!.shadowRoot!.querySelector('ramp-pix-checkout')!.shadowRoot!;
        const top = (s: string) => root.querySelector(s)!.getBoundingClientRect().top;
        const copy = root.querySelector('[data-testid=copy]')!;
        // The theme's primary colour, resolved the way the browser paints it.
        const probe = document.createElement('span');
        probe.style.color = getComputedStyle(root.querySelector('[part~=base]')!).getPropertyValue('--_color-primary');
        root.append(probe);
        const primary = getComputedStyle(probe).color;
        probe.remove();
        return { codeFirst: top('[data-testid=brcode]') < top('[data-testid=qr]'), copyIsPrimary: getComputedStyle(copy).backgroundColor === primary };
      });
      assert.equal(order.codeFirst, width < 400, width < 400 ? 'on a phone the code comes before the QR' : 'on a desktop the QR comes first');
      assert.equal(order.copyIsPrimary, width < 400, width < 400 ? 'on a phone "Copy code" is the primary action' : 'on a desktop the QR is the way, "Copy code" secondary');
      await page.click(`${w} ramp-pix-checkout [data-testid=simulate-payment]`);
      await page.waitForSelector(`${w} ramp-pix-checkout [data-testid=success]`, { timeout: 30_000 });
      await check(page, 'receipt with the stepper');
      await page.context().close();
    });
  }

  for (const path of ['/parts-pt.html', '/parts-es.html']) {
    test(`the quote on its own (with its buy / sell choice) and the bank picker stay inside their cards at 320 px (${path})`, async () => {
      const page = await open(path, await customer(0, true), 320);
      await page.waitForSelector('ramp-quote [data-testid=final-amount]', { timeout: 20_000 });
      await page.waitForSelector('ramp-offramp [data-testid=add-account]', { timeout: 20_000 });
      await check(page, 'quote and off-ramp');
      await page.click('ramp-offramp [data-testid=add-account]');
      await page.waitForSelector('ramp-offramp #bank-name', { timeout: 20_000 });
      await check(page, 'the add-account form');
      await page.context().close();
    });
  }

  test('no "Drag a file here" on a touch screen, it is there with a mouse (320 px touch, 1280 px mouse)', async () => {
    for (const width of [320, 1280]) {
      const id = await customer(0, false);
      // Information given: the onboarding resumes at the documents.
      const res = await fetch(`${ramp.url}/v2/customers/${id}/additional-information`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${ramp.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(individualInfo()),
      });
      assert.ok(res.ok);
      const page = await open('/en.html', id, width);
      const hint = 'ramp-widget ramp-onboarding ramp-document-uploader .drop-hint';
      await page.waitForSelector('ramp-widget ramp-onboarding ramp-document-uploader [data-testid^=choose-]', { timeout: 20_000 });
      const shown = await page.locator(hint).first().isVisible();
      assert.equal(shown, width > 400, width > 400 ? 'a mouse can drag a file' : 'a finger cannot drag a file: no "Drag a file here"');
      await page.context().close();
    }
  });

  for (const [width, lang] of [
    [320, 'pt-BR'],
    [320, 'es'],
    [1280, 'en'],
  ] as const) {
    test(`the hosted verification page's status pills keep their size (${width} px, ${lang})`, async () => {
      const id = await customer(0, false);
      const link = (await readApi(ramp, `/v2/customers/${id}`)).verification.link as string;
      const mobile = width < 400;
      const context = await browser.newContext({ viewport: { width, height: 900 }, isMobile: mobile, hasTouch: mobile });
      await context.addInitScript('globalThis.__name = (f) => f;');
      const page = await context.newPage();
      await page.goto(`${link}?lang=${lang}`);
      await page.waitForSelector('ramp-verification [data-testid=requirements] .badge', { timeout: 20_000 });
      const stretched = await page.evaluate(() => {
        const out: string[] = [];
        const walk = (root: Document | ShadowRoot) => {
          for (const el of root.querySelectorAll('*')) {
            if (el.classList.contains('badge')) {
              const r = el.getBoundingClientRect();
              const cs = getComputedStyle(el);
              // One line of text with its padding and border: a pill, not a column.
              const one = parseFloat(cs.lineHeight) + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) + parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth);
              if (r.height > one + 1) out.push(`"${el.textContent?.trim()}" is ${Math.round(r.height)} px tall (one line: ${Math.round(one)})`);
            }
            if (el.shadowRoot) walk(el.shadowRoot);
          }
        };
        walk(document);
        return out;
      });
      assert.deepEqual(stretched, []);
      await context.close();
    });
  }

});

// Words in the user's language only, on a partner's page of another origin: a temporary rejection in pt-BR (1280 px) and
// es (320 px) says why in the components' own words; the reviewer's English note never reaches the screen.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { taxIdEndingIn } from '../server/harness';
import { individualInfo, JPG, PDF } from '../server/kyc-helpers';
import { readApi } from './flows';
import { type Host, hostPage, sdkUrl, startHost } from './host-page';
import { launchBrowser, type RunningServer, startServer } from './support';

let ramp: RunningServer;
let browser: Browser;
let host: Host;
/** What the sandbox reviewer writes on the bank statement it refuses (server/sandbox/review-provider.ts): English. */
const REVIEWER_NOTE = 'The bank statement must be from the last 6 months.';

before(async () => {
  ramp = await startServer({ RAMP_SANDBOX_REVIEW_MS: '200', RAMP_SANDBOX_STEP_MS: '300' });
  browser = await launchBrowser();
  host = await startHost(ramp, {
    '/pt.html': { html: hostPage('widget', 'pt-BR', ['/host.js', sdkUrl(ramp), '/widget-session.js'], '<ramp-widget></ramp-widget>') },
    '/es.html': { html: hostPage('widget', 'es', ['/host.js', sdkUrl(ramp), '/widget-session.js'], '<ramp-widget></ramp-widget>') },
  });
});

after(async () => {
  await browser?.close();
  await ramp?.stop();
  await host?.close();
});

async function api(method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${ramp.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ramp.apiKey}`, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${await res.text()}`);
}

/** A customer whose CPF ends in 2: the sandbox review refuses its bank statement (TEMPORARY_REJECTION), with an English note. */
async function temporarilyRejected(): Promise<string> {
  const res = await fetch(`${ramp.url}/v2/customers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ramp.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'INDIVIDUAL', name: 'Rita Alves', taxId: taxIdEndingIn('cpf', 2), birthDate: '1991-08-30' }),
  });
  const { id } = (await res.json()) as { id: string };
  await api('PATCH', `/v2/customers/${id}/additional-information`, individualInfo());
  for (const [type, bytes] of [
    ['PASSPORT', JPG],
    ['BANK_STATEMENT', PDF],
  ] as const) {
    const form = new FormData();
    form.set('type', type);
    form.set('file', new Blob([new Uint8Array(bytes)]), 'doc');
    await api('POST', `/v2/customers/${id}/documents`, form);
  }
  await api('POST', `/v2/sandbox/customers/${id}/liveness`);
  const deadline = Date.now() + 20_000;
  while ((await readApi(ramp, `/v2/customers/${id}`)).verification.status !== 'TEMPORARY_REJECTION') {
    assert.ok(Date.now() < deadline, 'the sandbox review should reject the bank statement');
    await new Promise((r) => setTimeout(r, 200));
  }
  return id;
}

/** Every text and attribute value on the page, shadow roots pierced. */
const allWords = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        for (const a of el.attributes) out.push(a.value);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
      out.push(root instanceof Document ? (root.body.textContent ?? '') : (root.textContent ?? ''));
    };
    walk(document);
    return out.join('\n');
  });

const cases = [
  { path: '/pt.html', width: 1280, reason: 'Extrato bancário: Um documento é antigo demais.', why: 'Motivo: Um documento é antigo demais.' },
  { path: '/es.html', width: 320, reason: 'Extracto bancario: Un documento es demasiado antiguo.', why: 'Motivo: Un documento es demasiado antiguo.' },
] as const;

describe('words in the user’s language only', () => {
  for (const c of cases) {
    test(`a temporary rejection says why in our words, never the reviewer's English note (${c.path}, ${c.width} px)`, async () => {
      const customerId = await temporarilyRejected();
      const context = await browser.newContext({ viewport: { width: c.width, height: 900 }, isMobile: c.width < 400, hasTouch: c.width < 400 });
      await context.addInitScript('globalThis.__name = (f) => f;');
      const page = await context.newPage();
      await page.goto(`${host.origin}${c.path}?session=${encodeURIComponent(await host.mintSession(customerId))}`);
      await page.waitForSelector('ramp-widget ramp-onboarding [data-testid=rejected-documents]', { timeout: 30_000 });
      assert.equal((await page.textContent('ramp-widget ramp-onboarding [data-testid=rejected-documents] li'))?.replace(/\s+/g, ' ').trim(), c.reason);
      await page.waitForSelector('ramp-widget ramp-onboarding ramp-document-uploader [data-testid=comment]', { timeout: 20_000 });
      assert.equal((await page.textContent('ramp-widget ramp-onboarding ramp-document-uploader [data-testid=comment]'))?.trim(), c.why);
      const words = await allWords(page);
      assert.ok(!words.includes(REVIEWER_NOTE), 'the reviewer’s English note is not on the page');
      assert.ok(!words.includes('last 6 months'), 'nor any part of it');
      await context.close();
    });
  }
});

// <ramp-pix-checkout> in Chromium: accessibility, the request it sends, the QR code read back, copy, countdown, the live stepper to SUCCESS, failures and problems.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { http, HttpResponse } from 'msw';
import '../../../src/define';
import type { RampPixCheckout } from '../../../src/components/pix-checkout/pix-checkout';
import type { RampErrorEvent, RampRequoteRequestedEvent, RampTransactionCreatedEvent, RampTransactionUpdatedEvent } from '../../../src/events';
import {
  MockMoneyBackend,
  mockBuyQuote,
  moneyIds,
  moneyScenarios,
  problemResponse,
  RequestLog,
  transactionProblem,
  type MoneyBackendOptions,
} from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';
import { readQrCode } from '../support/qr-reader';
import { rememberLockDeadline } from '../../../src/components/quote/lock-watch';
import { expectFocus } from '../support/focus';

// ── helpers ──

const part = <T extends Element = HTMLElement>(el: RampPixCheckout, selector: string): T | null => el.shadowRoot!.querySelector<T>(selector);
const $ = <T extends Element = HTMLElement>(el: RampPixCheckout, selector: string): T => {
  const found = part<T>(el, selector);
  if (!found) throw new Error(`${selector} not rendered`);
  return found;
};
const text = (el: RampPixCheckout, selector: string) => part(el, selector)?.textContent?.replace(/\s+/g, ' ').trim();
const statusText = (el: RampPixCheckout) => text(el, '[role="status"]');
const testid = (id: string) => `[data-testid="${id}"]`;

function backend(o: MoneyBackendOptions = {}): { log: RequestLog; backend: MockMoneyBackend } {
  const log = new RequestLog();
  const b = new MockMoneyBackend({ log, ...o });
  worker.use(...b.handlers());
  return { log, backend: b };
}

async function mountLocked(extra: { sandbox?: boolean; lang?: string; theme?: string; withQuote?: boolean } = {}) {
  const el = await fixture<RampPixCheckout>(html`
    <ramp-pix-checkout
      api-base="/bff"
      session="bound-session"
      lang=${extra.lang ?? 'en'}
      theme=${extra.theme ?? 'light'}
      exchange-rate-id=${moneyIds.lockedBuyQuote}
      poll-interval="40"
      ?sandbox=${extra.sandbox ?? false}
      .quote=${extra.withQuote ? mockBuyQuote() : undefined}
    ></ramp-pix-checkout>
  `);
  await el.updateComplete;
  return el;
}

async function choosePurpose(el: RampPixCheckout, purpose = 'INVESTMENT'): Promise<void> {
  const select = $<HTMLSelectElement>(el, '#purpose');
  select.value = purpose;
  select.dispatchEvent(new Event('change'));
  await el.updateComplete;
}

async function createPayment(el: RampPixCheckout, purpose = 'INVESTMENT'): Promise<void> {
  await choosePurpose(el, purpose);
  $(el, testid('create-payment')).click();
  await waitUntil(() => part(el, testid('payment')), 'the payment panel should show', { timeout: 4_000 });
  await el.updateComplete;
}

function collect<T extends Event>(target: EventTarget, type: string): T[] {
  const events: T[] = [];
  target.addEventListener(type, (e) => events.push(e as T));
  return events;
}

// ── tests ──

describe('<ramp-pix-checkout>', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  describe('accessibility', () => {
    it('the purpose form has no axe violations', async () => {
      backend();
      const el = await mountLocked({ withQuote: true });
      await expect(el).to.be.accessible();
    });

    it('the payment panel (QR code, code, countdown, sandbox button), in Portuguese and dark, has no axe violations', async () => {
      backend();
      const el = await mountLocked({ sandbox: true, lang: 'pt-BR', theme: 'dark' });
      await createPayment(el);
      await expect(el).to.be.accessible();
    });

    it('a missing purpose is said on the select, tied to it, and focus goes there; nothing is sent', async () => {
      const { log } = backend();
      const el = await mountLocked();
      $(el, testid('create-payment')).click();
      await el.updateComplete;
      await aTimeout(50);
      const select = $<HTMLSelectElement>(el, '#purpose');
      expect(select.getAttribute('aria-invalid')).to.equal('true');
      expect(select.getAttribute('aria-describedby')).to.equal('purpose-error');
      expect(text(el, '#purpose-error')).to.equal('Choose the purpose of this payment.');
      expectFocus(el.shadowRoot!.activeElement, select);
      expect($(el, 'label[for="purpose"]').textContent).to.contain('Purpose of the payment');
      expect(log.entries.filter((e) => e.method === 'POST')).to.have.length(0);
      await expect(el).to.be.accessible();
    });

    it('the QR code is an image named by the amount to pay', async () => {
      backend();
      const el = await mountLocked();
      await createPayment(el);
      const svg = $(el, '[part="qr"] svg');
      expect(svg.getAttribute('role')).to.equal('img');
      expect(svg.getAttribute('aria-label')).to.equal('PIX QR code to pay R$550.00');
    });
  });

  describe('keyboard only', () => {
    it('purpose, create, copy and simulate are all reachable and usable from the keyboard', async () => {
      const { log } = backend();
      const el = await mountLocked({ sandbox: true });
      $<HTMLSelectElement>(el, '#purpose').focus();
      await sendKeys({ press: 'ArrowDown' });
      await sendKeys({ press: 'ArrowDown' });
      await el.updateComplete;
      expect($<HTMLSelectElement>(el, '#purpose').value).to.equal('INVESTMENT');
      await sendKeys({ press: 'Tab' });
      expectFocus(el.shadowRoot!.activeElement, part(el, testid('create-payment')));
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => part(el, testid('payment')), 'the payment panel', { timeout: 4_000 });
      // Focus moved to the new panel's heading, so the next Tab starts from there rather than from the page's top.
      await waitUntil(() => el.shadowRoot!.activeElement === part(el, '#phase-title'), 'focus on the payment heading');
      for (let i = 0; i < 6 && el.shadowRoot!.activeElement !== part(el, testid('copy')); i++) await sendKeys({ press: 'Tab' });
      expectFocus(el.shadowRoot!.activeElement, part(el, testid('copy')));
      for (let i = 0; i < 6 && el.shadowRoot!.activeElement !== part(el, testid('simulate-payment')); i++) await sendKeys({ press: 'Tab' });
      expectFocus(el.shadowRoot!.activeElement, part(el, testid('simulate-payment')));
      await sendKeys({ press: 'Space' });
      await waitUntil(() => log.entries.some((e) => e.url.endsWith('/pay')), 'the pay request');
    });
  });

  describe('before the payment', () => {
    it('offers the nine purposes of the API, translated, and nothing chosen', async () => {
      backend();
      const el = await mountLocked({ lang: 'pt-BR' });
      const options = [...el.shadowRoot!.querySelectorAll<HTMLOptionElement>('#purpose option')];
      expect(options.map((o) => o.value)).to.deep.equal([
        '',
        'PERSONAL_ACCOUNT',
        'INVESTMENT',
        'REAL_ESTATE',
        'TRADE_TRANSACTIONS',
        'TAX',
        'LOAN',
        'BILLS',
        'EXPENSES_REIMBURSEMENT',
        'PROFESSIONAL_SERVICES',
      ]);
      expect(options[1]!.textContent?.trim()).to.equal('Conta própria');
      expect($<HTMLSelectElement>(el, '#purpose').value).to.equal('');
    });

    it('shows the locked quote’s amounts before the payment exists', async () => {
      backend();
      const el = await mountLocked({ withQuote: true, lang: 'pt-BR' });
      expect(text(el, testid('summary-pay'))).to.equal('R$ 550,00');
      expect(text(el, testid('summary-receive'))).to.equal('98,765432 USDC');
    });

    it('without a quote or an amount it says so and sends nothing', async () => {
      const { log } = backend();
      const el = await fixture<RampPixCheckout>(html`<ramp-pix-checkout api-base="/bff" session="s" lang="en"></ramp-pix-checkout>`);
      await choosePurpose(el);
      $(el, testid('create-payment')).click();
      await aTimeout(50);
      expect(part(el, testid('missing'))).to.exist;
      expect(log.entries.filter((e) => e.method === 'POST')).to.have.length(0);
    });
  });

  describe('the request', () => {
    it('a locked quote is paid by its id alone, with the session and an Idempotency-Key', async () => {
      const { log } = backend();
      const el = await mountLocked();
      await createPayment(el, 'INVESTMENT');
      const post = log.entries.find((e) => e.method === 'POST')!;
      expect(post.url).to.equal(new URL('/bff/transactions/on-ramp', location.href).href);
      expect(post.body).to.deep.equal({ purpose: 'INVESTMENT', exchangeRateId: moneyIds.lockedBuyQuote });
      expect(post.headers.authorization).to.equal('Bearer bound-session');
      expect(post.headers['idempotency-key']).to.match(/^[0-9a-f-]{36}$/);
    });

    it('an unlocked amount is sent as a PIX BRL payment for the coin and chain', async () => {
      const { log } = backend();
      const el = await fixture<RampPixCheckout>(html`
        <ramp-pix-checkout api-base="/bff" session="s" lang="en" amount="150.00" stablecoin="usdt" blockchain="base" poll-interval="40"></ramp-pix-checkout>
      `);
      await createPayment(el, 'BILLS');
      expect(log.entries.find((e) => e.method === 'POST')!.body).to.deep.equal({
        purpose: 'BILLS',
        rail: 'PIX',
        sourceCurrency: 'BRL',
        targetCurrency: 'USDT',
        sourceAmount: '150.00',
        blockchain: 'BASE',
      });
    });

    it('a double click creates one payment', async () => {
      const { log } = backend({ delayMs: 150 });
      const el = await mountLocked();
      await choosePurpose(el);
      $(el, testid('create-payment')).click();
      $(el, testid('create-payment')).click();
      await waitUntil(() => part(el, testid('payment')), 'payment', { timeout: 4_000 });
      expect(log.entries.filter((e) => e.method === 'POST')).to.have.length(1);
    });

    it('fires ramp-transaction-created once, with the transaction awaiting funds', async () => {
      backend();
      const el = await mountLocked();
      const created = collect<RampTransactionCreatedEvent>(document, 'ramp-transaction-created');
      await createPayment(el);
      expect(created).to.have.length(1);
      expect(created[0]!.detail.state.status).to.equal('AWAITING_FUNDS');
      expect(created[0]!.detail.id).to.equal(el.transaction!.id);
      expect(created[0]!.bubbles && created[0]!.composed).to.equal(true);
    });
  });

  describe('the payment', () => {
    it('the QR code shown decodes back to exactly the brCode', async () => {
      backend();
      const el = await mountLocked();
      await createPayment(el);
      const brCode = el.transaction!.state.payment!.brCode as string;
      expect(brCode).to.match(/^000201.*6304[0-9A-F]{4}$/);
      const decoded = await readQrCode($<SVGSVGElement>(el, '[part="qr"] svg'));
      expect(decoded).to.equal(brCode);
    });

    it('shows the amount to pay in BRL and what arrives, formatted for the language', async () => {
      backend();
      const el = await mountLocked({ lang: 'pt-BR' });
      await createPayment(el);
      expect(text(el, testid('amount-to-pay'))).to.equal('R$ 550,00');
      expect(text(el, testid('amount-to-receive'))).to.equal('98,765432 USDC');
      expect(text(el, '#phase-title')).to.equal('Pague R$ 550,00 com PIX');
    });

    it('the copy button puts the brCode on the clipboard and says "copied"', async () => {
      backend();
      const el = await mountLocked();
      await createPayment(el);
      const written: string[] = [];
      const clipboard = navigator.clipboard as unknown as { writeText: (t: string) => Promise<void> };
      clipboard.writeText = async (t: string) => void written.push(t);
      try {
        $(el, testid('copy')).click();
        await waitUntil(() => written.length === 1, 'writeText should be called');
        await el.updateComplete;
        expect(written[0]).to.equal(el.transaction!.state.payment!.brCode);
        expect(text(el, testid('copy'))).to.equal('Code copied');
        expect(statusText(el)).to.equal('Code copied');
        expect($<HTMLTextAreaElement>(el, '#brcode').value).to.equal(written[0]);
      } finally {
        delete (clipboard as { writeText?: unknown }).writeText;
      }
    });

    it('when the clipboard refuses, the code is selected for a manual copy and the user is told how', async () => {
      backend();
      const el = await mountLocked();
      await createPayment(el);
      const clipboard = navigator.clipboard as unknown as { writeText: (t: string) => Promise<void> };
      clipboard.writeText = async () => {
        throw new DOMException('denied', 'NotAllowedError');
      };
      try {
        $(el, testid('copy')).click();
        await waitUntil(() => statusText(el)?.startsWith('The code is selected'), 'the manual-copy hint');
        const field = $<HTMLTextAreaElement>(el, '#brcode');
        expectFocus(el.shadowRoot!.activeElement, field);
        expect(field.selectionStart).to.equal(0);
        expect(field.selectionEnd).to.equal(field.value.length);
      } finally {
        delete (clipboard as { writeText?: unknown }).writeText;
      }
    });

    it('counts down to the payment’s expiresAt in m:ss', async () => {
      backend({ paymentWindowMs: 125_000 });
      const el = await mountLocked();
      await createPayment(el);
      const first = text(el, testid('countdown-time'));
      expect(first).to.be.oneOf(['2:05', '2:04']);
      await waitUntil(() => text(el, testid('countdown-time')) !== first, 'the countdown should tick', { timeout: 2_500 });
      expect(text(el, testid('countdown-time'))).to.be.oneOf(['2:04', '2:03']);
      expect($(el, '[role="timer"]').getAttribute('aria-labelledby')).to.equal('countdown-label');
    });

    it('when the window closes on screen, the QR code goes away and the status is asked at once', async () => {
      const { log } = backend({ paymentWindowMs: 1_200 });
      const el = await mountLocked();
      el.pollInterval = 60_000;
      await createPayment(el);
      // Reads of this transaction only: an element of an earlier test may still have a read on the way.
      const reads = () => log.entries.filter((e) => e.method === 'GET' && e.url.endsWith(`/transactions/${el.transaction!.id}`)).length;
      const readsBefore = reads();
      await waitUntil(() => part(el, testid('window-closed')), 'the window-closed notice', { timeout: 3_000 });
      expect(part(el, testid('qr'))).to.equal(null);
      expect(part(el, testid('brcode'))).to.equal(null);
      await waitUntil(() => reads() > readsBefore, 'a status read right after the window closed');
    });
  });

  describe('a SEPA or SWIFT quote: bank-transfer instructions', () => {
    const sepa = () => mockBuyQuote(new Date(), { rail: 'SEPA', sourceCurrency: 'EUR', sourceAmount: '100.00' });

    async function mountSepa(lang = 'en', quote = sepa()) {
      backend({ buyQuote: quote });
      const el = await fixture<RampPixCheckout>(html`
        <ramp-pix-checkout api-base="/bff" session="bound-session" lang=${lang} theme="light" exchange-rate-id=${moneyIds.lockedBuyQuote} poll-interval="40" .quote=${quote}></ramp-pix-checkout>
      `);
      await el.updateComplete;
      return el;
    }

    for (const [lang, title, heading, iban, copy] of [
      ['en', 'Pay by bank transfer', 'Transfer €100.00 from your bank', 'IBAN', 'Copy'],
      ['pt-BR', 'Pagar por transferência bancária', 'Transfira €\u00a0100,00 do seu banco', 'IBAN', 'Copiar'],
      ['es', 'Pagar por transferencia bancaria', 'Transfiere 100,00\u00a0€ desde tu banco', 'IBAN', 'Copiar'],
    ] as const) {
      it(`shows beneficiary, IBAN, BIC, reference, amount and deadline, never a PIX code (${lang})`, async () => {
        const el = await mountSepa(lang);
        expect(text(el, '#title')).to.equal(title);
        await createPayment(el);
        expect($(el, '#phase-title').textContent!.trim()).to.equal(heading);
        expect(part(el, testid('qr'))).to.equal(null);
        expect(part(el, '#brcode')).to.equal(null);
        expect(text(el, '[part="payment"]')).not.to.contain('PIX');
        const payment = el.transaction!.state.payment!;
        expect(text(el, testid('detail-beneficiary'))).to.equal(payment.beneficiary);
        expect(text(el, testid('detail-iban'))).to.equal(payment.iban);
        expect(text(el, '[data-detail="iban"] dt')).to.equal(iban);
        expect(text(el, testid('detail-bic'))).to.equal(payment.bic);
        expect(text(el, testid('detail-reference'))).to.equal(payment.reference);
        expect(text(el, testid('detail-amount'))).to.equal(new Intl.NumberFormat(lang, { style: 'currency', currency: 'EUR' }).format(100).replace(/\s+/g, ' '));
        expect(text(el, testid('detail-deadline'))).to.match(/\d{1,2}:\d{2}/);
        expect(text(el, testid('copy-iban'))).to.equal(copy);
        expect(part(el, testid('countdown-time'))).to.exist;
        await expect(el).to.be.accessible();
      });
    }

    it('each copy button puts its own value on the clipboard (the amount as a bank form takes it) and says so', async () => {
      const el = await mountSepa();
      await createPayment(el);
      const written: string[] = [];
      const clipboard = navigator.clipboard as unknown as { writeText: (t: string) => Promise<void> };
      clipboard.writeText = async (t: string) => void written.push(t);
      try {
        const payment = el.transaction!.state.payment!;
        for (const key of ['beneficiary', 'iban', 'bic', 'reference', 'amount'] as const) {
          $(el, testid(`copy-${key}`)).click();
          await waitUntil(() => written.length > 0 && written.at(-1) === payment[key], `copies the ${key}`);
          await el.updateComplete;
          expect(text(el, testid(`copy-${key}`))).to.equal('Copied');
        }
        expect(written).to.deep.equal([payment.beneficiary, payment.iban, payment.bic, payment.reference, '100.00']);
        expect(statusText(el)).to.equal('Copied: 100.00');
        // Named by the detail it copies.
        expect($(el, testid('copy-iban')).getAttribute('aria-describedby')).to.equal('detail-iban');
      } finally {
        delete (clipboard as { writeText?: unknown }).writeText;
      }
    });

    it('a SWIFT quote in USD says "Account number" when the account is not an IBAN', async () => {
      const el = await mountSepa('en', mockBuyQuote(new Date(), { rail: 'SWIFT', sourceCurrency: 'USD', sourceAmount: '100.00' }));
      worker.resetHandlers();
      const b = new MockMoneyBackend({ buyQuote: mockBuyQuote(new Date(), { rail: 'SWIFT', sourceCurrency: 'USD', sourceAmount: '100.00' }) });
      const original = b.onRampTransaction.bind(b);
      b.onRampTransaction = (body, now) => {
        const tx = original(body, now);
        const { iban: _iban, ...rest } = tx.state.payment as Record<string, unknown>;
        return { ...tx, state: { ...tx.state, payment: { ...rest, accountNumber: '000123456789' } } };
      };
      worker.use(...b.handlers());
      await createPayment(el);
      expect(text(el, '[data-detail="iban"] dt')).to.equal('Account number');
      expect(text(el, testid('detail-iban'))).to.equal('000123456789');
    });
  });

  describe('following the status', () => {
    it('the sandbox button pays through POST /sandbox/transactions/{id}/pay with an Idempotency-Key', async () => {
      const { log } = backend();
      const el = await mountLocked({ sandbox: true });
      await createPayment(el);
      const id = el.transaction!.id;
      expect(text(el, testid('simulate-payment'))).to.equal('Simulate payment (sandbox)');
      $(el, testid('simulate-payment')).click();
      await waitUntil(() => log.entries.some((e) => e.url.endsWith(`/sandbox/transactions/${id}/pay`)), 'the pay request');
      const pay = log.entries.find((e) => e.url.endsWith('/pay'))!;
      expect(pay.method).to.equal('POST');
      expect(pay.url).to.equal(new URL(`/bff/sandbox/transactions/${id}/pay`, location.href).href);
      expect(pay.headers.authorization).to.equal('Bearer bound-session');
      expect(pay.headers['idempotency-key']).to.match(/^[0-9a-f-]{36}$/);
    });

    it('there is no pay button outside sandbox', async () => {
      backend();
      const el = await mountLocked({ sandbox: false });
      await createPayment(el);
      expect(part(el, testid('simulate-payment'))).to.equal(null);
    });

    it('once paid, the stepper walks every status to SUCCESS, announcing each, and ends on the receipt with the explorer link', async () => {
      backend();
      const el = await mountLocked({ sandbox: true });
      await createPayment(el);
      const updated = collect<RampTransactionUpdatedEvent>(el, 'ramp-transaction-updated');
      const announced: string[] = [];
      const observer = new MutationObserver(() => announced.push(statusText(el) ?? ''));
      observer.observe($(el, '[role="status"]'), { childList: true, characterData: true, subtree: true });
      expect($(el, '[aria-current="step"]').dataset.status).to.equal('AWAITING_FUNDS');
      $(el, testid('simulate-payment')).click();
      await waitUntil(() => part(el, testid('success')), 'the receipt should show', { timeout: 5_000 });
      observer.disconnect();
      expect(updated.map((e) => e.detail.state.status)).to.deep.equal(['TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN', 'SUCCESS']);
      expect(announced).to.include('Step 2 of 5: Payment received.');
      expect(announced).to.include('Step 3 of 5: Converting.');
      expect(announced).to.include('Step 4 of 5: Sending to your wallet.');
      expect(announced).to.include('Step 5 of 5: Completed.');
      const steps = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="step"]')].map((s) => `${s.dataset.status}:${s.dataset.state}`);
      expect(steps).to.deep.equal(['AWAITING_FUNDS:done', 'TRANSFERRING_FIAT:done', 'TRADING:done', 'TRANSFERRING_STABLECOIN:done', 'SUCCESS:done']);
      expect(text(el, testid('received'))).to.equal('98.765432 USDC');
      const link = $<HTMLAnchorElement>(el, testid('explorer-link'));
      expect(link.href).to.equal(el.transaction!.state.receipt!.blockExplorerUrl);
      expect(link.target).to.equal('_blank');
      expect(link.rel).to.contain('noopener');
      expectFocus(el.shadowRoot!.activeElement, part(el, '#phase-title'));
      await expect(el).to.be.accessible();
    });

    it('stops reading once the transaction is over', async () => {
      const { log } = backend({ onRamp: 'autoPay' });
      const el = await mountLocked();
      await createPayment(el);
      await waitUntil(() => part(el, testid('success')), 'success', { timeout: 5_000 });
      const reads = () => log.entries.filter((e) => e.method === 'GET' && e.url.endsWith(`/transactions/${el.transaction!.id}`)).length;
      const before = reads();
      await aTimeout(200);
      expect(reads()).to.equal(before);
    });
  });

  describe('a failed payment', () => {
    it('an expired window (FAILED, EXPIRED) says nothing was charged; an unlocked checkout starts again with a new key', async () => {
      const { log } = backend({ onRamp: 'expire', expireAfterReads: 1 });
      const el = await fixture<RampPixCheckout>(html`
        <ramp-pix-checkout api-base="/bff" session="s" lang="en" amount="150.00" poll-interval="40"></ramp-pix-checkout>
      `);
      const updated = collect<RampTransactionUpdatedEvent>(el, 'ramp-transaction-updated');
      await createPayment(el);
      await waitUntil(() => part(el, testid('failed')), 'the failed panel', { timeout: 3_000 });
      expect($(el, testid('failed')).dataset.code).to.equal('EXPIRED');
      expect(text(el, testid('failed'))).to.contain('Nothing was charged');
      expect(updated.map((e) => e.detail.state.status)).to.deep.equal(['FAILED']);
      expect($(el, '[data-state="failed"]').dataset.status).to.equal('AWAITING_FUNDS');
      await expect(el).to.be.accessible();
      $(el, testid('restart')).click();
      await el.updateComplete;
      expect(part(el, '#purpose')).to.exist;
      await createPayment(el);
      const keys = log.entries.filter((e) => e.method === 'POST').map((e) => e.headers['idempotency-key']);
      expect(keys).to.have.length(2);
      expect(keys[0]).not.to.equal(keys[1]);
    });

    it('an expired window of a locked quote asks for a new quote', async () => {
      backend({ onRamp: 'expire', expireAfterReads: 1 });
      const el = await mountLocked();
      const requested = collect<RampRequoteRequestedEvent>(document, 'ramp-requote-requested');
      await createPayment(el);
      await waitUntil(() => part(el, testid('failed')), 'the failed panel', { timeout: 3_000 });
      expect(text(el, testid('restart'))).to.equal('Get a new quote');
      $(el, testid('restart')).click();
      expect(requested).to.have.length(1);
      expect(requested[0]!.detail).to.deep.equal({ reason: 'EXPIRED', exchangeRateId: moneyIds.lockedBuyQuote });
    });
  });

  describe('the lock of the quote', () => {
    // Ids of their own: the page-wide lock registry must not shorten the locks of the other tests.
    const shortLockId = '0b3f4c1e-8a52-4c57-9d0e-2a0b7c1d5e01';
    const sharedLockId = '0b3f4c1e-8a52-4c57-9d0e-2a0b7c1d5e02';

    async function mountWith(quote: ReturnType<typeof mockBuyQuote>) {
      const el = await fixture<RampPixCheckout>(html`
        <ramp-pix-checkout api-base="/bff" session="bound-session" lang="en" exchange-rate-id=${quote.id!} .quote=${quote}></ramp-pix-checkout>
      `);
      await el.updateComplete;
      return el;
    }

    it('counts the lock down beside the amounts; at its end the amounts and "Create payment" give way to a re-quote, and nothing is sent', async () => {
      const { log } = backend();
      const now = new Date();
      const quote = mockBuyQuote(now, { id: shortLockId, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 1_800).toISOString() });
      const el = await mountWith(quote);
      const requested = collect<RampRequoteRequestedEvent>(document, 'ramp-requote-requested');
      expect(text(el, testid('lock-time'))).to.equal('0:02');
      expect($(el, testid('lock-countdown')).querySelector('[role="timer"]')!.getAttribute('aria-labelledby')).to.equal('lock-left');
      expect(part(el, testid('create-payment'))).not.to.equal(null);
      await choosePurpose(el);
      await waitUntil(() => part(el, testid('lock-expired')), 'the expired notice', { timeout: 3_000 });
      expect(part(el, testid('summary'))).to.equal(null);
      expect(part(el, testid('create-payment'))).to.equal(null);
      expect($(el, testid('lock-expired')).getAttribute('role')).to.equal('alert');
      expect(text(el, testid('lock-expired'))).to.contain('This quote has expired');
      $<HTMLFormElement>(el, 'form').requestSubmit();
      await aTimeout(50);
      expect(log.entries.filter((e) => e.method === 'POST')).to.have.length(0);
      $(el, testid('lock-requote')).click();
      expect(requested.map((e) => e.detail)).to.deep.equal([{ reason: 'RATE_EXPIRED', exchangeRateId: shortLockId }]);
      await expect(el).to.be.accessible();
    });

    it('ends with the quote panel: the deadline the panel counts to wins over expiresAt, and 10 seconds left is spoken', async () => {
      backend();
      const quote = mockBuyQuote(new Date(), { id: sharedLockId });
      rememberLockDeadline(sharedLockId, Date.now() + 10_700);
      const el = await mountWith(quote);
      expect(text(el, testid('lock-time'))).to.equal('0:11');
      await waitUntil(() => statusText(el) === '10 seconds left on this rate.', 'the 10 s announcement', { timeout: 2_500 });
    });

    it('a new quote starts a new countdown and brings the form back', async () => {
      backend();
      const now = new Date();
      const el = await mountWith(mockBuyQuote(now, { id: shortLockId, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 300).toISOString() }));
      await waitUntil(() => part(el, testid('lock-expired')), 'the expired notice', { timeout: 2_000 });
      const fresh = mockBuyQuote(new Date(), { id: '0b3f4c1e-8a52-4c57-9d0e-2a0b7c1d5e03' });
      el.quote = fresh;
      el.exchangeRateId = fresh.id!;
      await el.updateComplete;
      expect(part(el, testid('lock-expired'))).to.equal(null);
      expect(text(el, testid('lock-time'))).to.match(/^[45]:\d\d$/);
      expect(part(el, testid('create-payment'))).not.to.equal(null);
    });
  });

  describe('problems', () => {
    it('422 TRANSACTION_LIMIT_EXCEEDED names the limit and what remains, in USD', async () => {
      worker.use(...moneyScenarios.limitExceeded());
      const el = await mountLocked();
      await choosePurpose(el);
      $(el, testid('create-payment')).click();
      await waitUntil(() => part(el, testid('alert')), 'the alert');
      expect($(el, testid('alert')).dataset.kind).to.equal('limit');
      expect(text(el, testid('alert'))).to.equal('This is over your daily limit of $2,000.00 (USD equivalent). $500.00 is left.');
      expect(part(el, testid('retry'))).to.equal(null);
      await expect(el).to.be.accessible();
    });

    it('409 RATE_EXPIRED offers a new quote, and asking fires ramp-requote-requested', async () => {
      worker.use(...moneyScenarios.rateExpired());
      const el = await mountLocked();
      const requested = collect<RampRequoteRequestedEvent>(el, 'ramp-requote-requested');
      await choosePurpose(el);
      $(el, testid('create-payment')).click();
      await waitUntil(() => part(el, testid('requote')), 'the requote action');
      expect(text(el, testid('alert'))).to.contain('The locked rate has expired');
      $(el, testid('requote')).click();
      expect(requested).to.have.length(1);
      expect(requested[0]!.detail).to.deep.equal({ reason: 'RATE_EXPIRED', exchangeRateId: moneyIds.lockedBuyQuote });
    });

    it('409 RATE_ALREADY_USED is told apart from an expired rate', async () => {
      worker.use(transactionProblem('on-ramp', 409, 'RATE_ALREADY_USED', 'This locked exchange rate was already used; lock a new one.'));
      const el = await mountLocked();
      await choosePurpose(el);
      $(el, testid('create-payment')).click();
      await waitUntil(() => part(el, testid('alert')), 'the alert');
      expect(text(el, testid('alert'))).to.contain('This quote was already used');
    });

    it('409 INVALID_STATE says the customer is not approved yet', async () => {
      worker.use(transactionProblem('on-ramp', 409, 'INVALID_STATE', 'The customer is UNDER_VERIFICATION, not APPROVED.'));
      const el = await mountLocked();
      await choosePurpose(el);
      $(el, testid('create-payment')).click();
      await waitUntil(() => part(el, testid('alert')), 'the alert');
      expect($(el, testid('alert')).dataset.kind).to.equal('notApproved');
      expect(text(el, testid('alert'))).to.contain('verification must be approved');
    });

    it('400 on purpose lands on the purpose field', async () => {
      worker.use(
        transactionProblem('on-ramp', 400, 'VALIDATION_FAILED', 'purpose: Invalid option', { errors: [{ path: 'purpose', message: 'Invalid option', code: 'NOT_ONE_OF' }] }),
      );
      const el = await mountLocked();
      await choosePurpose(el);
      $(el, testid('create-payment')).click();
      await waitUntil(() => part(el, '#purpose-error'), 'the purpose error');
      expect(text(el, '#purpose-error')).to.equal('Choose one of the options.');
      expect(part(el, testid('alert'))).to.equal(null);
    });

    it('a create that got no answer is sent again with the same Idempotency-Key: one payment at most', async () => {
      const log = new RequestLog();
      let failures = 1;
      const b = new MockMoneyBackend({ log });
      worker.use(
        http.post('*/bff/transactions/on-ramp', async ({ request }) => {
          if (failures-- <= 0) return undefined;
          await log.record(request);
          return HttpResponse.error();
        }),
        ...b.handlers(),
      );
      const el = await mountLocked();
      await createPayment(el);
      const posts = log.entries.filter((e) => e.method === 'POST');
      expect(posts).to.have.length(2);
      expect(posts[0]!.headers['idempotency-key']).to.equal(posts[1]!.headers['idempotency-key']);
    });

    it('a session refused while following the payment stops the reads and reports ramp-error', async () => {
      const { backend: b } = backend();
      const el = await mountLocked();
      const errors = collect<RampErrorEvent>(el, 'ramp-error');
      await createPayment(el);
      worker.use(http.get('*/bff/transactions/:id', () => problemResponse(401, 'UNAUTHENTICATED', 'The widget session expired.')));
      await waitUntil(() => part(el, testid('alert')), 'the session alert', { timeout: 3_000 });
      expect($(el, testid('alert')).dataset.kind).to.equal('session');
      expect(errors.map((e) => `${e.detail.code}:${e.detail.operation}`)).to.deep.equal(['UNAUTHENTICATED:getTransaction']);
      expect(b.transactions.size).to.equal(1);
    });
  });
});

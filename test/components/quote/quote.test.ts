// <ramp-quote> in Chromium: accessibility, floating quotes (debounce, refresh while visible, stale answers), fees, locks, countdown, events, problems, pt-BR, keyboard only.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import { delay, http, HttpResponse } from 'msw';
import '../../../src/define';
import { RampQuote } from '../../../src/components/quote/quote';
import type { BffQuoteRequest } from '../../../src/contract/exchange-rates';
import type { RampErrorEvent, RampQuoteExpiredEvent, RampQuoteLockedEvent } from '../../../src/events';
import {
  priceMockQuote,
  problemResponse,
  quoteAmountInvalid,
  quoteNetworkFails,
  quoteScenarios,
  quoteSucceeds,
  RequestLog,
} from '../mocks/bff-scenarios';
import { systemClock } from '../../../src/components/quote/clock';
import { FakeClock } from '../support/fake-clock';
import { startMockBff, worker } from '../support/mock-bff';
import { expectFocus } from '../support/focus';

// ── helpers ──

const part = <T extends Element = HTMLElement>(el: RampQuote, selector: string): T | null => el.shadowRoot!.querySelector<T>(selector);
const $ = <T extends Element = HTMLInputElement>(el: RampQuote, selector: string): T => {
  const found = part<T>(el, selector);
  if (!found) throw new Error(`${selector} not rendered`);
  return found;
};
const text = (el: RampQuote, testid: string) => part(el, `[data-testid="${testid}"]`)?.textContent?.replace(/\s+/g, ' ').trim();
const focused = (el: RampQuote) => el.shadowRoot!.activeElement;
const statusText = (el: RampQuote) => text(el, 'status');
const bodies = (log: RequestLog) => log.entries.map((e) => e.body as BffQuoteRequest);

interface MountOptions {
  amount?: string;
  lang?: string;
  clock?: FakeClock;
  interval?: number;
  direction?: string;
  theme?: string;
}

async function mount(o: MountOptions = {}): Promise<RampQuote> {
  const el = await fixture<RampQuote>(html`
    <ramp-quote
      session="bound-session"
      api-base="/bff"
      lang=${o.lang ?? 'en'}
      amount=${o.amount ?? ''}
      direction=${o.direction ?? 'buy'}
      theme=${o.theme ?? 'light'}
      refresh-interval=${o.interval ?? 10_000}
      .clock=${o.clock ?? systemClock}
    ></ramp-quote>
  `);
  await el.updateComplete;
  return el;
}

/** The IntersectionObserver reports asynchronously: wait until it has, then run what it scheduled on the fake clock. */
async function visible(el: RampQuote, clock?: FakeClock): Promise<void> {
  await waitUntil(() => (el as unknown as { intersecting: boolean }).intersecting, 'the panel should be seen as visible');
  clock?.advance(0);
  await el.updateComplete;
}

async function typeInto(el: RampQuote, selector: string, keys: string): Promise<void> {
  $(el, selector).focus();
  await sendKeys({ type: keys });
  await el.updateComplete;
}

async function clearAndType(el: RampQuote, selector: string, keys: string): Promise<void> {
  const input = $(el, selector);
  input.focus();
  input.select();
  await sendKeys({ press: 'Backspace' });
  await sendKeys({ type: keys });
  await el.updateComplete;
}

const quoted = (el: RampQuote, testid = 'final-amount') => waitUntil(() => part(el, `[data-testid="${testid}"]`), `${testid} should show`, { timeout: 10_000 });

function collect<K extends 'ramp-quote-locked' | 'ramp-quote-expired' | 'ramp-error'>(target: EventTarget, type: K) {
  type E = K extends 'ramp-quote-locked' ? RampQuoteLockedEvent : K extends 'ramp-quote-expired' ? RampQuoteExpiredEvent : RampErrorEvent;
  const events: E[] = [];
  target.addEventListener(type, (e) => events.push(e as E));
  return events;
}

async function lockWith(el: RampQuote, timeLock: '30s' | '1m' | '5m' = '30s'): Promise<void> {
  $(el, `[data-testid="time-lock-${timeLock}"]`).click();
  await el.updateComplete;
  $(el, '[data-testid="lock"]').click();
  await waitUntil(() => part(el, '[data-testid="locked"]'), 'the locked panel should show', { timeout: 10_000 });
}

// ── tests ──

describe('<ramp-quote>', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  describe('accessibility', () => {
    it('the panel with a floating quote has no axe violations', async () => {
      worker.use(...quoteScenarios.success());
      const el = await mount({ amount: '1000' });
      await quoted(el);
      await expect(el).to.be.accessible();
    });

    it('the locked, expired and invalid states, in Portuguese and dark, have no axe violations', async () => {
      worker.use(...quoteScenarios.success());
      const clock = new FakeClock();
      const el = await mount({ amount: '1000', lang: 'pt-BR', theme: 'dark', clock });
      await visible(el, clock);
      await quoted(el);
      await lockWith(el);
      await expect(el).to.be.accessible();
      clock.advance(30_000);
      await el.updateComplete;
      expect(part(el, '[data-testid="expired"]')).to.exist;
      await expect(el).to.be.accessible();
      $(el, '[data-testid="requote"]').click();
      await el.updateComplete;
      await clearAndType(el, '[data-testid="amount-pay"]', '1,234');
      clock.advance(300);
      await el.updateComplete;
      expect(text(el, 'amount-error')).to.exist;
      await expect(el).to.be.accessible();
    });

    it('every input and select has a label; an amount error is tied to its input', async () => {
      const clock = new FakeClock();
      const el = await mount({ clock });
      await visible(el, clock);
      await typeInto(el, '[data-testid="amount-pay"]', '1.234');
      clock.advance(300);
      await el.updateComplete;
      for (const control of el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type="text"], select')) {
        expect(part(el, `label[for="${control.id}"]`), `label for #${control.id}`).to.exist;
      }
      const pay = $(el, '#pay-amount');
      expect(pay.getAttribute('aria-invalid')).to.equal('true');
      expect(pay.getAttribute('aria-describedby')?.split(' ')).to.include('pay-error');
    });
  });

  describe('defaults', () => {
    it('buys USDC with BRL over PIX, and lets the server name the chain until the user picks one', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const el = await mount({ amount: '1000' });
      expect($(el, '[part="title"]').textContent?.trim()).to.equal('Buy USDC');
      expect($(el, '[data-testid="direction-buy"]').checked).to.equal(true);
      expect($<HTMLSelectElement>(el, '[data-testid="currency-pay"]').value).to.equal('BRL');
      expect($<HTMLSelectElement>(el, '[data-testid="currency-receive"]').value).to.equal('USDC');
      expect($<HTMLSelectElement>(el, '#blockchain').value).to.equal('');
      expect($(el, '[data-testid="amount-pay"]').value).to.equal('1,000');
      expect($(el, '[data-testid="time-lock-30s"]').checked).to.equal(true);
      await quoted(el);
      expect(bodies(log)[0]).to.deep.equal({ type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1000' });
      expect(log.last!.headers.authorization).to.equal('Bearer bound-session');
      expect($<HTMLSelectElement>(el, '#blockchain').value, 'the chain the server named').to.equal('ETHEREUM');
      expect(text(el, 'route')).to.equal('Pay by PIX · receive on Ethereum');
    });

    it('without a session nothing is asked for', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const el = await fixture<RampQuote>(html`<ramp-quote api-base="/bff" amount="100" lang="en"></ramp-quote>`);
      await visible(el);
      await aTimeout(100);
      expect(log.entries).to.have.length(0);
      expect(text(el, 'quote-empty')).to.equal('Type an amount to see a quote.');
    });
  });

  describe('floating quotes', () => {
    it('a floating quote is asked for once typing settles for 300 ms, not on every keystroke', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const el = await mount({ clock });
      await visible(el, clock);
      await typeInto(el, '[data-testid="amount-pay"]', '25');
      clock.advance(200);
      await typeInto(el, '[data-testid="amount-pay"]', '00');
      clock.advance(299);
      await aTimeout(50);
      expect(log.entries, 'nothing before the pause').to.have.length(0);
      clock.advance(1);
      await waitUntil(() => log.entries.length === 1, 'one request after the pause');
      expect(bodies(log)[0]).to.include({ type: 'FLOATING', sourceAmount: '2500' });
      await quoted(el);
      expect(text(el, 'final-amount')).to.equal('496.25 USDC');
      expect($(el, '[data-testid="amount-receive"]').value).to.equal('496.25');
    });

    it('the floating quote is refreshed every refresh-interval while the panel is visible', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const el = await mount({ amount: '1000', clock, interval: 5_000 });
      await visible(el, clock);
      await waitUntil(() => log.entries.length === 1);
      await quoted(el);
      clock.advance(4_999);
      await aTimeout(50);
      expect(log.entries).to.have.length(1);
      clock.advance(1);
      await waitUntil(() => log.entries.length === 2, 'the first refresh');
      await waitUntil(() => clock.pending === 1, 'the answer plans the next refresh');
      clock.advance(5_000);
      await waitUntil(() => log.entries.length === 3, 'the second refresh');
      expect(bodies(log).every((b) => b.sourceAmount === '1000' && b.type === 'FLOATING')).to.equal(true);
    });

    it('no quote is asked for while the panel is off screen or the page is hidden; coming back refreshes at once', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const wrapper = await fixture<HTMLDivElement>(html`
        <div>
          <div style="height: 3000px"></div>
          <ramp-quote session="s" api-base="/bff" lang="en" amount="1000" refresh-interval="5000" .clock=${clock}></ramp-quote>
        </div>
      `);
      const el = wrapper.querySelector('ramp-quote')!;
      await aTimeout(200);
      clock.advance(20_000);
      await aTimeout(50);
      expect(log.entries, 'off screen').to.have.length(0);
      el.scrollIntoView();
      await visible(el, clock);
      await waitUntil(() => log.entries.length === 1, 'once on screen');
      await quoted(el);

      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      try {
        document.dispatchEvent(new Event('visibilitychange'));
        clock.advance(20_000);
        await aTimeout(50);
        expect(log.entries, 'page hidden').to.have.length(1);
      } finally {
        delete (document as unknown as Record<string, unknown>).visibilityState;
      }
      document.dispatchEvent(new Event('visibilitychange'));
      clock.advance(0);
      await waitUntil(() => log.entries.length === 2, 'the old quote is refreshed at once');
      window.scrollTo(0, 0);
    });

    it('a newer quote request aborts the one in flight, and a late answer never overwrites a newer one', async () => {
      const arrived: string[] = [];
      worker.use(
        http.post('*/bff/exchange-rates', async ({ request }) => {
          const body = (await request.clone().json()) as BffQuoteRequest;
          arrived.push(body.sourceAmount!);
          if (body.sourceAmount === '1') await delay(600); // the first answer is slow and comes last
          return HttpResponse.json(priceMockQuote(body) as object);
        }),
      );
      // The signals the component hands to fetch (msw does not see aborts), to see the older request cancelled.
      const signals: AbortSignal[] = [];
      const realFetch = window.fetch;
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        // Quote requests only: the panel also reads the customer (limits, balances) once.
        const url = input instanceof Request ? input.url : String(input);
        if (url.includes('exchange-rates')) signals.push(input instanceof Request ? input.signal : init!.signal!);
        return realFetch(input, init);
      };
      try {
        const clock = new FakeClock();
        const el = await mount({ clock });
        await visible(el, clock);
        await typeInto(el, '[data-testid="amount-pay"]', '1');
        clock.advance(300);
        await waitUntil(() => arrived.length === 1);
        await typeInto(el, '[data-testid="amount-pay"]', '0');
        clock.advance(300);
        await waitUntil(() => arrived.length === 2);
        await quoted(el);
        expect(text(el, 'final-amount')).to.equal('1.985 USDC');
        await aTimeout(800); // the slow answer for "1" has now come back
        expect(text(el, 'final-amount')).to.equal('1.985 USDC');
        expect($(el, '[data-testid="amount-receive"]').value).to.equal('1.985');
        expect(arrived).to.deep.equal(['1', '10']);
      } finally {
        window.fetch = realFetch;
      }
      expect(signals.map((s) => s.aborted), 'the older request was aborted, the newer not').to.deep.equal([true, false]);
    });

    it('a quote for another pair never shows: switching to sell clears the figures and asks for USDC → BRL', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log, delayMs: 100 }));
      const el = await mount({ amount: '100' });
      await quoted(el);
      $(el, '[data-testid="direction-sell"]').click();
      await el.updateComplete;
      expect(part(el, '[data-testid="breakdown"]'), 'no stale figures under the new pair').to.equal(null);
      expect(el.direction).to.equal('sell');
      expect($(el, '[part="title"]').textContent?.trim()).to.equal('Sell USDC');
      expect($<HTMLSelectElement>(el, '[data-testid="currency-pay"]').value).to.equal('USDC');
      expect($<HTMLSelectElement>(el, '[data-testid="currency-receive"]').value).to.equal('BRL');
      await waitUntil(() => text(el, 'final-amount') === 'R$495.25', 'the sell quote');
      expect(bodies(log).at(-1)).to.deep.equal({ type: 'FLOATING', rail: 'PIX', sourceCurrency: 'USDC', targetCurrency: 'BRL', sourceAmount: '100' });
      expect(text(el, 'route')).to.equal('Send on Ethereum · paid out by PIX');
    });

    it('the rail follows the fiat, and a chosen chain and stablecoin are sent', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const el = await mount({ amount: '100' });
      await quoted(el);
      const fiat = $<HTMLSelectElement>(el, '[data-testid="currency-pay"]');
      expect([...fiat.options].map((o) => o.text)).to.deep.equal(['BRL · PIX', 'EUR · SEPA', 'USD · SWIFT']);
      fiat.value = 'EUR';
      fiat.dispatchEvent(new Event('change'));
      const coin = $<HTMLSelectElement>(el, '[data-testid="currency-receive"]');
      coin.value = 'USDT';
      coin.dispatchEvent(new Event('change'));
      const chain = $<HTMLSelectElement>(el, '#blockchain');
      chain.value = 'POLYGON';
      chain.dispatchEvent(new Event('change'));
      await el.updateComplete;
      await waitUntil(() => bodies(log).at(-1)?.blockchain === 'POLYGON', 'a quote on the chosen chain');
      expect(bodies(log).at(-1)).to.deep.equal({ type: 'FLOATING', rail: 'SEPA', sourceCurrency: 'EUR', targetCurrency: 'USDT', sourceAmount: '100', blockchain: 'POLYGON' });
      await waitUntil(() => text(el, 'route') === 'Pay by SEPA · receive on Polygon');
    });
  });

  describe('fee breakdown', () => {
    it('shows the base rate, the service and partner fees with their rates in %, the rate after fees and what the user receives', async () => {
      worker.use(...quoteScenarios.success());
      const el = await mount({ amount: '1000' });
      await quoted(el);
      expect(text(el, 'base-rate')).to.equal('1 BRL = 0.20 USDC');
      expect(text(el, 'service-fee-label')).to.equal('Service fee (0.50%)');
      expect(text(el, 'base-amount')).to.equal('200.00 USDC');
      expect(text(el, 'service-fee')).to.equal('− 1.00 USDC');
      expect(text(el, 'partner-fee-label')).to.equal('Partner fee (0.25%)');
      expect(text(el, 'partner-fee')).to.equal('− 0.50 USDC');
      expect(text(el, 'final-rate')).to.equal('1 BRL = 0.1985 USDC');
      expect(text(el, 'final-amount')).to.equal('198.50 USDC');
    });

    it('an off-ramp shows fees in the fiat it pays out, flat amounts included', async () => {
      worker.use(...quoteScenarios.success());
      const el = await mount({ amount: '100', direction: 'sell' });
      await quoted(el);
      // 100 USDC × 5 = 500 BRL; service 0.60 % + 0.50 = 3.50; partner 0.25 % = 1.25; final 495.25.
      expect(text(el, 'base-amount')).to.equal('R$500.00');
      expect(text(el, 'service-fee-label')).to.equal('Service fee (0.60% + R$0.50)');
      expect(text(el, 'service-fee')).to.equal('− R$3.50');
      expect(text(el, 'partner-fee')).to.equal('− R$1.25');
      expect(text(el, 'final-amount')).to.equal('R$495.25');
    });
  });

  describe('"you receive" as the driver', () => {
    it('typing what to receive solves "you pay" as an estimate, and the lock sends targetAmount', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const el = await mount({ amount: '1000', clock });
      await visible(el, clock);
      await quoted(el);
      await clearAndType(el, '[data-testid="amount-receive"]', '300');
      expect($(el, '[data-testid="amount-pay"]').value, 'solved at once from the terms on screen').to.equal('1,511.34');
      expect(part(el, '#pay-hint')?.textContent).to.contain('Estimate');
      clock.advance(300);
      // The smallest whole-cent source delivers the target plus dust; the lock then delivers it exactly.
      await waitUntil(() => text(el, 'final-amount') === '300.00099 USDC', 'the floating quote at the solved source');
      expect(bodies(log).at(-1)).to.include({ type: 'FLOATING', sourceAmount: '1511.34' });
      await lockWith(el, '30s');
      expect(bodies(log).at(-1)).to.deep.equal({
        type: 'LOCKED',
        rail: 'PIX',
        sourceCurrency: 'BRL',
        targetCurrency: 'USDC',
        targetAmount: '300',
        blockchain: 'ETHEREUM',
        timeLock: '30s',
      });
      expect(text(el, 'locked-amount')).to.equal('You receive 300.00 USDC');
      expect(text(el, 'locked-source')).to.equal('R$1,511.34');
    });

    it('with no quote on screen yet, a reference quote gives the terms first', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const el = await mount({ clock });
      await visible(el, clock);
      await typeInto(el, '[data-testid="amount-receive"]', '99');
      clock.advance(300);
      await waitUntil(() => text(el, 'final-amount') === '99.001875 USDC');
      expect(bodies(log).map((b) => b.sourceAmount)).to.deep.equal(['1000', '498.75']);
      expect($(el, '[data-testid="amount-pay"]').value).to.equal('498.75');
    });
  });

  describe('locking', () => {
    for (const [timeLock, premium, spoken] of [
      ['30s', 'Free', '30 seconds'],
      ['1m', '− 0.20 USDC', '1 minute'],
      ['5m', '− 0.60 USDC', '5 minutes'],
    ] as const) {
      it(`locking for ${timeLock} sends timeLock ${timeLock} with the amount typed, and shows the premium over the floating quote`, async () => {
        const log = new RequestLog();
        worker.use(...quoteScenarios.success({ log }));
        const el = await mount({ amount: '1000' });
        await quoted(el);
        await lockWith(el, timeLock);
        expect(bodies(log).at(-1)).to.deep.equal({
          type: 'LOCKED',
          rail: 'PIX',
          sourceCurrency: 'BRL',
          targetCurrency: 'USDC',
          sourceAmount: '1000',
          blockchain: 'ETHEREUM',
          timeLock,
        });
        expect(log.last!.headers['idempotency-key']).to.match(/^[0-9a-f-]{36}$/);
        expect(text(el, 'lock-premium')).to.equal(premium);
        // The premium is priced into the server's service fee: shown once, as its own row, not again inside the service fee.
        expect(text(el, 'service-fee-label')).to.equal('Service fee (0.50%)');
        const amount = (id: string) => Number((text(el, id) ?? '0').replace(/[^\d.]/g, '') || '0');
        const fees = Math.round((amount('service-fee') + amount('partner-fee') + (timeLock === '30s' ? 0 : amount('lock-premium'))) * 100);
        expect(fees, 'the rows add up to base − final').to.equal(Math.round((amount('base-amount') - amount('final-amount')) * 100));
        expect(statusText(el)).to.contain(`Rate locked for ${spoken}.`);
      });
    }

    it('a lock highlights the guaranteed amount, starts the countdown, takes focus and fires ramp-quote-locked once', async () => {
      worker.use(...quoteScenarios.success());
      const clock = new FakeClock();
      const el = await mount({ amount: '1000', clock });
      const onDocument = collect(document, 'ramp-quote-locked');
      await visible(el, clock);
      await quoted(el);
      await lockWith(el, '1m');
      await aTimeout(20);
      expect(text(el, 'locked-amount')).to.equal('You receive 198.30 USDC');
      expect(text(el, 'countdown')).to.equal('1:00');
      expect($(el, '[data-testid="countdown"]').getAttribute('role')).to.equal('timer');
      expect(focused(el)?.id).to.equal('locked-title');
      expect(statusText(el)).to.equal('Rate locked for 1 minute. You receive 198.30 USDC.');
      expect(onDocument).to.have.length(1);
      const { detail, bubbles, composed } = onDocument[0]!;
      expect([bubbles, composed]).to.deep.equal([true, true]);
      expect(detail.exchangeRateId).to.equal(detail.quote.id);
      expect(detail.exchangeRateId).to.match(/^[0-9a-f-]{36}$/);
      expect(detail.expiresAt).to.equal(detail.quote.expiresAt);
      expect(detail.quote.type).to.equal('LOCKED');
      expect(text(el, 'exchange-rate-id')).to.equal(detail.exchangeRateId);
      expect(el.state).to.equal('locked');
    });

    it('a double click while locking locks once: one request, one event', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.floating(), ...quoteScenarios.locked({ log, delayMs: 300 }));
      const el = await mount({ amount: '1000' });
      const locked = collect(el, 'ramp-quote-locked');
      await quoted(el);
      const button = $(el, '[data-testid="lock"]');
      button.click();
      button.click();
      await el.updateComplete;
      expect(button.getAttribute('aria-disabled')).to.equal('true');
      expect(button.textContent?.trim()).to.equal('Locking…');
      await waitUntil(() => part(el, '[data-testid="locked"]'));
      await aTimeout(50);
      expect(log.entries).to.have.length(1);
      expect(locked).to.have.length(1);
    });

    it('no floating quote is asked for while a lock is on', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const el = await mount({ amount: '1000', clock, interval: 1_000 });
      await visible(el, clock);
      await quoted(el);
      await lockWith(el, '5m');
      const after = log.entries.length;
      clock.advance(60_000);
      await aTimeout(50);
      expect(log.entries.length).to.equal(after);
    });
  });

  describe('before locking: what the payment would refuse', () => {
    function account(o: { status?: string; single?: string; daily?: string; monthly?: string; balance?: string } = {}) {
      const requests: string[] = [];
      worker.use(
        http.get('*/bff/customer', ({ request }) => {
          requests.push(new URL(request.url).search);
          return HttpResponse.json({
            id: '0193a0a0-0000-7000-8000-000000000001',
            type: 'INDIVIDUAL',
            name: 'Ana',
            taxId: '52998224725',
            wallets: [
              { blockchain: 'ETHEREUM', address: '0xabc', blockExplorerUrl: 'https://etherscan.io/address/0xabc', isDefault: true, balances: [{ stablecoin: 'USDC', balance: o.balance ?? '0.000000' }, { stablecoin: 'USDT', balance: '0.000000' }] },
            ],
            verification: { status: o.status ?? 'APPROVED', level: 'STANDARD' },
            requirements: [],
            transactionLimits: {
              single: { max: o.single ?? '10000.00' },
              daily: { max: '20000.00', used: '0.00', remaining: o.daily ?? '20000.00' },
              monthly: { max: '50000.00', used: '0.00', remaining: o.monthly ?? '50000.00' },
            },
            createdAt: '2026-01-01T00:00:00.000Z',
            updatedAt: '2026-01-01T00:00:00.000Z',
          });
        }),
      );
      return requests;
    }
    const locks = (log: RequestLog) => bodies(log).filter((b) => b.type === 'LOCKED');

    async function tryLock(el: RampQuote): Promise<void> {
      $(el, '[data-testid="lock"]').click();
      await el.updateComplete;
      await aTimeout(50);
    }

    for (const [name, o, kind, says] of [
      ['a customer not yet approved', { status: 'UNDER_VERIFICATION' }, 'notApproved', 'not approved yet'],
      ['a finally rejected customer', { status: 'FINAL_REJECTION' }, 'rejected', 'was refused'],
      ['an amount over the single limit', { single: '100.00' }, 'single', '$100.00 per payment'],
      ['an amount over what remains today', { daily: '150.00' }, 'daily', 'still pay today ($150.00)'],
      ['an amount over what remains this month', { monthly: '20.00' }, 'monthly', 'this month ($20.00)'],
    ] as const) {
      it(`${name}: the lock is refused here, the reason is said and tied to the button, nothing is locked`, async () => {
        const requests = account(o);
        const log = new RequestLog();
        worker.use(...quoteScenarios.success({ log }));
        const el = await mount({ amount: '1000' });
        await quoted(el);
        await waitUntil(() => part(el, '[data-testid="lock-block"]'), 'the reason should show');
        expect(requests.length).to.be.greaterThan(0);
        expect(new Set(requests)).to.deep.equal(new Set(['?include=limits,balances']));
        expect($(el, '[data-testid="lock-block"]').dataset.kind).to.equal(kind);
        expect(text(el, 'lock-block')).to.contain(says);
        expect($(el, '[data-testid="lock"]').getAttribute('aria-describedby')).to.equal('lock-block');
        expect($(el, '[data-testid="lock"]').getAttribute('aria-disabled')).to.equal('true');
        await tryLock(el);
        // The refusal is announced when the click has been handled: waited for, not assumed after a fixed pause.
        await waitUntil(() => (statusText(el) ?? '').includes(says), `the status should say "${says}"`);
        expect(locks(log)).to.have.length(0);
        await expect(el).to.be.accessible();
      });
    }

    it('a customer approved since the last read is not held back: the verdict is taken on a fresh read', async () => {
      account({ status: 'UNDER_VERIFICATION' });
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const el = await mount({ amount: '1000' });
      await quoted(el);
      await waitUntil(() => part(el, '[data-testid="lock-block"]'), 'the reason should show');
      account({ status: 'APPROVED' });
      await lockWith(el);
      expect(locks(log)).to.have.length(1);
    });

    it('within the limits the remaining ones are shown and the lock goes through', async () => {
      account({ daily: '900.00', single: '500.00' });
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const el = await mount({ amount: '1000' });
      await quoted(el);
      await waitUntil(() => part(el, '[data-testid="limits"]'), 'the limits should show');
      expect(text(el, 'limits')).to.equal('You can still pay $900.00 today, at most $500.00 per payment.');
      expect(part(el, '[data-testid="balance"]')).to.equal(null);
      expect(part(el, '[data-testid="lock-block"]')).to.equal(null);
      await lockWith(el);
      expect(locks(log)).to.have.length(1);
    });

    it('a sale shows the balance of the coin on the chain, and a sale above it is refused before locking', async () => {
      account({ balance: '50.000000' });
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const el = await mount({ amount: '100', direction: 'sell' });
      await quoted(el);
      await waitUntil(() => part(el, '[data-testid="lock-block"]'), 'the reason should show');
      expect(text(el, 'balance')).to.equal('Your balance: 50.00 USDC on Ethereum.');
      expect($(el, '[data-testid="lock-block"]').dataset.kind).to.equal('balance');
      await tryLock(el);
      expect(locks(log)).to.have.length(0);
      await clearAndType(el, '#pay-amount', '40');
      await waitUntil(() => !part(el, '[data-testid="lock-block"]') && bodies(log).at(-1)?.sourceAmount === '40', 'a new quote within the balance', { timeout: 10_000 });
      await waitUntil(() => part(el, '[data-testid="breakdown"]')?.getAttribute('data-stale') === 'false', 'the new quote on screen', { timeout: 10_000 });
      await lockWith(el);
      expect(locks(log)).to.have.length(1);
    });
  });

  describe('countdown and expiry', () => {
    it('the countdown is spoken at 30 s, 10 s and expiry, not every second', async () => {
      worker.use(...quoteScenarios.success());
      const clock = new FakeClock();
      const el = await mount({ amount: '1000', clock });
      await visible(el, clock);
      await quoted(el);
      await lockWith(el, '1m');
      const locked = statusText(el);
      const heard: string[] = [];
      const region = $(el, '[data-testid="status"]');
      const observer = new MutationObserver(() => heard.push(region.textContent!.trim()));
      observer.observe(region, { childList: true, characterData: true, subtree: true });
      for (let s = 0; s < 29; s++) {
        clock.advance(1_000);
        await el.updateComplete;
      }
      expect(text(el, 'countdown')).to.equal('0:31');
      expect(statusText(el), 'nothing new for 29 seconds').to.equal(locked);
      clock.advance(1_000);
      await el.updateComplete;
      expect(text(el, 'countdown')).to.equal('0:30');
      expect(statusText(el)).to.equal('30 seconds left on this rate.');
      clock.advance(20_000);
      await el.updateComplete;
      expect(statusText(el)).to.equal('10 seconds left on this rate.');
      clock.advance(10_000);
      await el.updateComplete;
      expect(statusText(el)).to.equal('The quote has expired. Get a new quote to continue.');
      observer.disconnect();
      expect(heard).to.deep.equal(['30 seconds left on this rate.', '10 seconds left on this rate.', 'The quote has expired. Get a new quote to continue.']);
    });

    describe('one clock for a payment', () => {
      /** What a checkout (or off-ramp) anywhere on the page says once it created a payment with `exchangeRateId`. */
      const paymentMade = (exchangeRateId: string) =>
        document.body.dispatchEvent(
          new CustomEvent('ramp-transaction-created', { bubbles: true, composed: true, detail: { id: 'tx-1', type: 'ON_RAMP', request: { exchangeRateId }, state: { status: 'AWAITING_FUNDS' } } }),
        );

      it('once a payment exists with the lock, the panel stops its countdown, says the rate is held for it, and never expires it', async () => {
        worker.use(...quoteScenarios.success());
        const clock = new FakeClock();
        const el = await mount({ amount: '1000', clock });
        const expired = collect(document, 'ramp-quote-expired');
        const locked = collect(el, 'ramp-quote-locked');
        await visible(el, clock);
        await quoted(el);
        await lockWith(el, '30s');
        clock.advance(10_000);
        await el.updateComplete;
        // Another lock's payment changes nothing.
        paymentMade('01936f2a-0000-7000-8000-00000000dead');
        await el.updateComplete;
        expect(el.state).to.equal('locked');
        paymentMade(locked[0]!.detail.exchangeRateId);
        await el.updateComplete;
        expect(el.state).to.equal('held');
        expect(part(el, '[data-testid="countdown"]'), 'no countdown of its own').to.equal(null);
        expect(text(el, 'held')).to.contain('Rate held for your payment');
        expect(statusText(el)).to.equal('Rate held for your payment');
        clock.advance(120_000);
        await el.updateComplete;
        expect(el.state, 'the lock’s end changes nothing: the payment’s window governs').to.equal('held');
        expect(expired).to.have.length(0);
        expect(statusText(el)).to.equal('Rate held for your payment');
      });

      it('while a checkout follows the lock it speaks the countdown; the panel stays silent, and speaks again once the checkout is gone', async () => {
        worker.use(...quoteScenarios.success());
        const clock = new FakeClock();
        const el = await mount({ amount: '1000', clock });
        const locked = collect(el, 'ramp-quote-locked');
        await visible(el, clock);
        await quoted(el);
        await lockWith(el, '1m');
        const { quote, exchangeRateId } = locked[0]!.detail;
        const checkout = await fixture(html`<ramp-pix-checkout session="bound-session" api-base="/bff" lang="en" exchange-rate-id=${exchangeRateId} .quote=${quote}></ramp-pix-checkout>`);
        await (checkout as unknown as { updateComplete: Promise<unknown> }).updateComplete;
        const heard: string[] = [];
        const region = $(el, '[data-testid="status"]');
        const observer = new MutationObserver(() => heard.push(region.textContent!.trim()));
        observer.observe(region, { childList: true, characterData: true, subtree: true });
        clock.advance(30_000);
        await el.updateComplete;
        expect(text(el, 'countdown'), 'the panel still shows its countdown').to.equal('0:30');
        expect(heard, 'but leaves the words to the checkout').to.deep.equal([]);
        checkout.remove();
        clock.advance(20_000);
        await el.updateComplete;
        expect(heard).to.deep.equal(['10 seconds left on this rate.']);
        observer.disconnect();
      });
    });

    it('on expiry: a clear expired state, ramp-quote-expired once, focus on "Get a new quote", which returns to floating quotes', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const el = await mount({ amount: '1000', clock });
      const expired = collect(document, 'ramp-quote-expired');
      const locked = collect(el, 'ramp-quote-locked');
      await visible(el, clock);
      await quoted(el);
      await lockWith(el, '30s');
      clock.advance(29_999);
      await el.updateComplete;
      expect(text(el, 'countdown')).to.equal('0:01');
      expect(expired).to.have.length(0);
      clock.advance(1);
      await el.updateComplete;
      expect(part(el, '[data-testid="locked"]')).to.equal(null);
      expect(text(el, 'expired')).to.contain('This quote has expired');
      expect(el.state).to.equal('expired');
      await aTimeout(0);
      expect(focused(el)?.getAttribute('data-testid')).to.equal('requote');
      clock.advance(120_000);
      await el.updateComplete;
      expect(expired).to.have.length(1);
      expect(expired[0]!.detail).to.deep.equal({ exchangeRateId: locked[0]!.detail.exchangeRateId, reason: 'timeout' });
      expect([expired[0]!.bubbles, expired[0]!.composed]).to.deep.equal([true, true]);

      const before = log.entries.length;
      $(el, '[data-testid="requote"]').click();
      await el.updateComplete;
      await aTimeout(0);
      clock.advance(0);
      await waitUntil(() => log.entries.length === before + 1, 'a floating quote again');
      expect(bodies(log).at(-1)!.type).to.equal('FLOATING');
      await quoted(el);
      expect(el.state).to.equal('floating');
      expect(focused(el)?.id).to.equal('pay-amount');
    });

    it('events are counted: one ramp-quote-locked per lock, one ramp-quote-expired per lock, giving a lock up included', async () => {
      worker.use(...quoteScenarios.success());
      const clock = new FakeClock();
      const el = await mount({ amount: '1000', clock });
      const locked = collect(el, 'ramp-quote-locked');
      const expired = collect(el, 'ramp-quote-expired');
      await visible(el, clock);
      await quoted(el);
      await lockWith(el, '5m');
      $(el, '[data-testid="release"]').click();
      await el.updateComplete;
      await aTimeout(0);
      clock.advance(0);
      await quoted(el);
      await lockWith(el, '30s');
      clock.advance(30_000);
      await el.updateComplete;
      clock.advance(600_000);
      expect(locked.map((e) => e.detail.quote.timeLock)).to.deep.equal(['5m', '30s']);
      expect(expired.map((e) => e.detail)).to.deep.equal([
        { exchangeRateId: locked[0]!.detail.exchangeRateId, reason: 'released' },
        { exchangeRateId: locked[1]!.detail.exchangeRateId, reason: 'timeout' },
      ]);
    });

    it('setting properties from script fires no event, even while a lock is on', async () => {
      worker.use(...quoteScenarios.success());
      const el = await mount({ amount: '1000' });
      const fired: Event[] = [];
      for (const type of ['ramp-quote-locked', 'ramp-quote-expired', 'ramp-error'] as const) el.addEventListener(type, (e) => fired.push(e));
      await quoted(el);
      el.amount = '500';
      el.fiat = 'EUR';
      el.direction = 'sell';
      await el.updateComplete;
      await quoted(el);
      await lockWith(el);
      fired.length = 0;
      el.stablecoin = 'USDT';
      el.amount = '20';
      el.session = 'other';
      await el.updateComplete;
      await aTimeout(50);
      expect(fired).to.have.length(0);
      expect(el.state, 'the lock stays').to.equal('locked');
    });
  });

  describe('problems', () => {
    it('"too small to cover fees" lands on the amount with the minimum, stops refreshing, and clears when the amount is edited', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const errors = collect(document, 'ramp-error');
      // Selling 0.1 USDC: 0.50 BRL, all of it taken by the 0.50 BRL flat fee and the rates.
      const el = await mount({ amount: '0.1', direction: 'sell', clock, interval: 1_000 });
      await visible(el, clock);
      await waitUntil(() => text(el, 'amount-error'), 'the amount error');
      expect(text(el, 'amount-error')).to.equal('Too small to cover the fees. The minimum you can pay is 0.104 USDC.');
      expect($(el, '#pay-amount').getAttribute('aria-invalid')).to.equal('true');
      expect(statusText(el)).to.equal('You pay: Too small to cover the fees. The minimum you can pay is 0.104 USDC.');
      expect(part(el, '[data-testid="alert"]')).to.equal(null);
      clock.advance(10_000);
      await aTimeout(50);
      expect(log.entries, 'no refresh of a refused amount').to.have.length(1);
      await clearAndType(el, '[data-testid="amount-pay"]', '10');
      expect(text(el, 'amount-error'), 'editing to a valid amount clears it').to.equal(undefined);
      clock.advance(300);
      await quoted(el);
      expect(errors).to.have.length(0);
    });

    it("the server's amount codes are said in the user's language, on the amount the user typed (its English text is never read)", async () => {
      worker.use(quoteAmountInvalid({ path: 'sourceAmount', message: 'server wording the panel never reads', code: 'TOO_MANY_DECIMALS' }, { only: 'LOCKED' }), ...quoteScenarios.floating());
      const el = await mount({ amount: '1000', lang: 'pt-BR' });
      await quoted(el);
      $(el, '[data-testid="lock"]').click();
      await waitUntil(() => text(el, 'amount-error'));
      expect(text(el, 'amount-error')).to.equal('Valores em BRL têm no máximo 2 casas decimais.');
      expect(statusText(el)).to.equal('Você paga: Valores em BRL têm no máximo 2 casas decimais.');
      expect(part(el, '[data-testid="alert"]')).to.equal(null);
    });

    it('too many decimals is caught before any request, in the currency typed', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const el = await mount({ clock, direction: 'sell' });
      await visible(el, clock);
      await typeInto(el, '[data-testid="amount-pay"]', '1.1234567');
      clock.advance(300);
      await el.updateComplete;
      expect(text(el, 'amount-error')).to.equal('USDC amounts have at most 6 decimal places.');
      expect(log.entries).to.have.length(0);
      $(el, '[data-testid="lock"]').click();
      await el.updateComplete;
      expect(log.entries, 'nor on lock').to.have.length(0);
      expect(focused(el)?.id).to.equal('pay-amount');
    });

    it('a 400 on another field is a form-level alert in the user\'s language; the server\'s detail and messages are never shown', async () => {
      worker.use(
        http.post('*/bff/exchange-rates', () =>
          problemResponse(400, 'VALIDATION_FAILED', 'opaque detail', {
            errors: [
              { path: 'blockchain', message: 'opaque server text', code: 'NOT_ONE_OF' },
              { path: 'partnerFeeId', message: 'kept as it came' },
            ],
          }),
        ),
      );
      const el = await mount({ amount: '100', lang: 'pt-BR' });
      await waitUntil(() => part(el, '[data-testid="alert"]'), 'the alert');
      expect($(el, '[data-testid="alert"]').dataset.kind).to.equal('VALIDATION_FAILED');
      expect(text(el, 'alert')).to.equal('O pedido de cotação não foi aceito. Confira suas escolhas e tente de novo.');
      expect(el.shadowRoot!.textContent).not.to.contain('kept as it came');
      el.lang = 'en';
      await el.updateComplete;
      await waitUntil(() => text(el, 'alert')?.startsWith('The quote request'), 'English');
      expect(text(el, 'alert')).to.equal('The quote request was not accepted. Check your choices and try again.');
      expect(el.shadowRoot!.textContent).not.to.contain('opaque');
    });

    it('422 UNSUPPORTED_PAIR is a form-level alert without retry, gone once another pair is chosen', async () => {
      worker.use(...quoteScenarios.unsupportedPair());
      const el = await mount({ amount: '100' });
      const errors = collect(el, 'ramp-error');
      await waitUntil(() => part(el, '[data-testid="alert"]'), 'the alert');
      expect($(el, '[data-testid="alert"]').dataset.kind).to.equal('UNSUPPORTED_PAIR');
      expect(text(el, 'alert')).to.equal('This combination is not available. Choose another currency or network.');
      expect(part(el, '[data-testid="retry"]')).to.equal(null);
      expect(errors).to.have.length(0);
      worker.resetHandlers();
      worker.use(...quoteScenarios.success());
      const chain = $<HTMLSelectElement>(el, '#blockchain');
      chain.value = 'BASE';
      chain.dispatchEvent(new Event('change'));
      await quoted(el);
      expect(part(el, '[data-testid="alert"]')).to.equal(null);
    });

    it('an expired session is a form-level alert with retry, reported once as ramp-error, and the retry asks again', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.expiredSession({ log }));
      const clock = new FakeClock();
      const el = await mount({ amount: '100', clock, interval: 1_000 });
      const errors = collect(document, 'ramp-error');
      await visible(el, clock);
      await waitUntil(() => part(el, '[data-testid="alert"]'));
      expect($(el, '[data-testid="alert"]').getAttribute('role')).to.equal('alert');
      expect(text(el, 'alert')).to.contain('Your session has expired.');
      clock.advance(30_000);
      await aTimeout(50);
      expect(log.entries, 'no retry behind the user').to.have.length(1);
      expect(errors.map((e) => e.detail)).to.deep.equal([
        { code: 'UNAUTHENTICATED', status: 401, detail: 'The widget session is missing, invalid or expired.', requestId: 'req_mock', operation: 'floatingQuote' },
      ]);
      worker.resetHandlers();
      worker.use(...quoteScenarios.success({ log }));
      $(el, '[data-testid="retry"]').click();
      clock.advance(0);
      await quoted(el);
      expect(part(el, '[data-testid="alert"]')).to.equal(null);
    });

    it('a new session from the partner clears the expired-session alert and quotes again', async () => {
      const log = new RequestLog();
      worker.use(
        http.post('*/bff/exchange-rates', async ({ request }) => {
          await log.record(request);
          if (request.headers.get('authorization') !== 'Bearer fresh') return problemResponse(401, 'UNAUTHENTICATED', 'expired');
          return HttpResponse.json(priceMockQuote((await request.json()) as BffQuoteRequest) as object);
        }),
      );
      const el = await mount({ amount: '100' });
      await waitUntil(() => part(el, '[data-testid="alert"]'));
      el.session = 'fresh';
      await quoted(el);
      expect(part(el, '[data-testid="alert"]')).to.equal(null);
      expect(log.last!.headers.authorization).to.equal('Bearer fresh');
    });

    describe('a network blip heals by itself', () => {
      /** ky repeats a call that got no answer twice by itself: three lost answers make one failure the panel sees. */
      const FAILURE = 3;

      it('a floating quote that got no answer is asked for again after 1 s, then 2 s; the alert goes once one lands; ramp-error once', async () => {
        const log = new RequestLog();
        worker.use(quoteNetworkFails(2 * FAILURE, { log }), quoteSucceeds({ log }));
        const clock = new FakeClock();
        const el = await mount({ amount: '1000', clock });
        const errors = collect(el, 'ramp-error');
        await visible(el, clock);
        await waitUntil(() => part(el, '[data-testid="alert"]'), 'network alert', { timeout: 5_000 });
        expect($(el, '[data-testid="alert"]').dataset.kind).to.equal('NETWORK');
        expect(log.entries).to.have.length(FAILURE);
        clock.advance(999);
        await aTimeout(100);
        expect(log.entries, 'nothing before 1 s').to.have.length(FAILURE);
        clock.advance(1);
        await waitUntil(() => log.entries.length === 2 * FAILURE, 'the first retry (it fails too)', { timeout: 5_000 });
        await aTimeout(100);
        await el.updateComplete;
        expect($(el, '[data-testid="alert"]').dataset.kind, 'still offline').to.equal('NETWORK');
        clock.advance(1_999);
        await aTimeout(100);
        expect(log.entries, 'the second waits 2 s').to.have.length(2 * FAILURE);
        clock.advance(1);
        await quoted(el);
        expect(part(el, '[data-testid="alert"]'), 'the alert is gone by itself').to.equal(null);
        expect(errors.map((e) => e.detail.code)).to.deep.equal(['NETWORK_ERROR']);
      });

      it('the retries back off to at most 30 s apart', async () => {
        const log = new RequestLog();
        worker.use(quoteNetworkFails(Number.POSITIVE_INFINITY, { log }));
        const clock = new FakeClock();
        // The waits the panel plans after each failure (the floating period is held while the alert is up).
        const waits: number[] = [];
        const setTimer = clock.setTimeout.bind(clock);
        clock.setTimeout = (callback: () => void, ms: number) => {
          if (ms >= 1_000) waits.push(ms);
          return setTimer(callback, ms);
        };
        const el = await mount({ amount: '1000', clock });
        await visible(el, clock);
        for (let n = 1; n <= 7; n++) {
          await waitUntil(() => waits.length === n, `the wait after failure ${n}`, { timeout: 5_000 });
          expect(log.entries).to.have.length(n * FAILURE);
          clock.advance(waits[n - 1]! - 1);
          await aTimeout(30);
          expect(log.entries, `nothing before ${waits[n - 1]} ms`).to.have.length(n * FAILURE);
          clock.advance(1);
        }
        expect(waits).to.deep.equal([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
        el.remove();
      });

      it('coming back online asks again at once, without waiting for the next retry', async () => {
        const log = new RequestLog();
        worker.use(quoteNetworkFails(FAILURE, { log }), quoteSucceeds({ log }));
        const clock = new FakeClock();
        const el = await mount({ amount: '1000', clock });
        await visible(el, clock);
        await waitUntil(() => part(el, '[data-testid="alert"]'), 'network alert', { timeout: 5_000 });
        window.dispatchEvent(new Event('online'));
        // At once: no time passes on the panel's clock (the planned retry was 1 s away).
        clock.advance(0);
        await quoted(el);
        expect(part(el, '[data-testid="alert"]')).to.equal(null);
      });

      it('a verification change anywhere on the page reads the customer again: "not approved yet" goes at once', async () => {
        let status = 'UNDER_VERIFICATION';
        worker.use(
          http.get('*/bff/customer', () =>
            HttpResponse.json({
              id: '0193a0a0-0000-7000-8000-000000000001',
              type: 'INDIVIDUAL',
              name: 'Ana',
              taxId: '52998224725',
              wallets: [],
              verification: { status, level: 'STANDARD' },
              requirements: [],
              createdAt: '2026-01-01T00:00:00.000Z',
              updatedAt: '2026-01-01T00:00:00.000Z',
            }),
          ),
          ...quoteScenarios.success(),
        );
        const el = await mount({ amount: '100' });
        await quoted(el);
        await waitUntil(() => part(el, '[data-testid="lock-block"]'), 'the lock is refused before approval', { timeout: 4_000 });
        expect($(el, '[data-testid="lock-block"]').dataset.kind).to.equal('notApproved');
        status = 'APPROVED';
        document.body.dispatchEvent(new CustomEvent('ramp-verification-changed', { bubbles: true, composed: true, detail: { customerId: 'c', status: 'APPROVED' } }));
        await waitUntil(() => !part(el, '[data-testid="lock-block"]'), 'the refusal goes without waiting for the next quote', { timeout: 1_000 });
      });
    });

    it('a lock that got no answer is retried with the same Idempotency-Key, so the server keeps one lock', async () => {
      const log = new RequestLog();
      // ky repeats a call that got no answer twice by itself: three failures reach the user.
      worker.use(quoteNetworkFails(3, { log, only: 'LOCKED' }), quoteSucceeds({ log }));
      const el = await mount({ amount: '1000' });
      const errors = collect(el, 'ramp-error');
      await quoted(el);
      $(el, '[data-testid="lock"]').click();
      await waitUntil(() => part(el, '[data-testid="alert"]'), 'network alert', { timeout: 5_000 });
      expect($(el, '[data-testid="alert"]').dataset.kind).to.equal('NETWORK');
      expect(errors.map((e) => [e.detail.code, e.detail.operation])).to.deep.equal([['NETWORK_ERROR', 'lockQuote']]);
      $(el, '[data-testid="retry"]').click();
      await waitUntil(() => part(el, '[data-testid="locked"]'));
      const keys = log.entries.filter((e) => (e.body as BffQuoteRequest).type === 'LOCKED').map((e) => e.headers['idempotency-key']);
      expect(keys.length).to.be.greaterThan(1);
      expect(new Set(keys).size).to.equal(1);
    });

    it('a 403 on the lock is an alert naming the session, and the floating figures stay', async () => {
      worker.use(http.post('*/bff/exchange-rates', async ({ request }) => {
        const body = (await request.clone().json()) as BffQuoteRequest;
        return body.type === 'LOCKED' ? problemResponse(403, 'FORBIDDEN', 'not allowed') : HttpResponse.json(priceMockQuote(body) as object);
      }));
      const el = await mount({ amount: '1000' });
      await quoted(el);
      $(el, '[data-testid="lock"]').click();
      await waitUntil(() => part(el, '[data-testid="alert"]'));
      expect(text(el, 'alert')).to.contain('This session is not allowed to get quotes.');
      expect(text(el, 'final-amount')).to.equal('198.50 USDC');
    });
  });

  describe('languages', () => {
    it('pt-BR: the amount is formatted as typed ("1.234,5") and sent as a decimal string ("1234.5"); figures read the Brazilian way', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const clock = new FakeClock();
      const el = await mount({ clock, lang: 'pt-BR' });
      await visible(el, clock);
      await typeInto(el, '[data-testid="amount-pay"]', '1234,5');
      expect($(el, '[data-testid="amount-pay"]').value).to.equal('1.234,5');
      clock.advance(300);
      await quoted(el);
      expect(bodies(log)[0]!.sourceAmount).to.equal('1234.5');
      expect($(el, '[part="title"]').textContent?.trim()).to.equal('Comprar USDC');
      expect(text(el, 'base-rate')).to.equal('1 BRL = 0,20 USDC');
      expect(text(el, 'service-fee-label')).to.equal('Taxa de serviço (0,50%)');
      expect(text(el, 'final-amount')).to.equal('245,04825 USDC');
      expect($(el, '[data-testid="amount-receive"]').value).to.equal('245,04825');
      expect($(el, '[data-testid="time-lock-30s"]').parentElement!.textContent?.trim()).to.equal('30 s · grátis');
    });

    it('a pasted amount in either convention reads right', async () => {
      const clock = new FakeClock();
      const el = await mount({ clock, lang: 'pt-BR' });
      const input = $(el, '[data-testid="amount-pay"]');
      input.focus();
      input.value = '1,234.56';
      input.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true, composed: true }));
      await el.updateComplete;
      expect(input.value).to.equal('1.234,56');
    });

    it('switching the language rewrites the typed amount in the new convention', async () => {
      const el = await mount({ amount: '1234.5' });
      expect($(el, '[data-testid="amount-pay"]').value).to.equal('1,234.5');
      el.lang = 'pt-BR';
      await el.updateComplete;
      expect($(el, '[data-testid="amount-pay"]').value).to.equal('1.234,5');
    });
  });

  describe('keyboard only', () => {
    it('a rate can be quoted and locked for 1 minute with the keyboard alone', async () => {
      const log = new RequestLog();
      worker.use(...quoteScenarios.success({ log }));
      const wrapper = await fixture<HTMLDivElement>(html`
        <div>
          <button id="before">before</button>
          <ramp-quote session="s" api-base="/bff" lang="en"></ramp-quote>
        </div>
      `);
      const el = wrapper.querySelector('ramp-quote')!;
      await visible(el);
      wrapper.querySelector<HTMLButtonElement>('#before')!.focus();
      await sendKeys({ press: 'Tab' });
      expectFocus(focused(el), part(el, '[data-testid="direction-buy"]'));
      await sendKeys({ press: 'Tab' });
      expect(focused(el)?.id).to.equal('pay-amount');
      await sendKeys({ type: '500' });
      await waitUntil(() => text(el, 'final-amount') === '99.25 USDC', 'the floating quote');
      await sendKeys({ press: 'Tab' }); // currency
      await sendKeys({ press: 'Tab' }); // you receive
      await sendKeys({ press: 'Tab' }); // its currency
      await sendKeys({ press: 'Tab' }); // network
      expect(focused(el)?.id).to.equal('blockchain');
      await sendKeys({ press: 'Tab' });
      expectFocus(focused(el), part(el, '[data-testid="time-lock-30s"]'));
      await sendKeys({ press: 'ArrowRight' });
      await el.updateComplete;
      expect($(el, '[data-testid="time-lock-1m"]').checked, 'arrow keys move through the lock windows').to.equal(true);
      await sendKeys({ press: 'Tab' });
      expectFocus(focused(el), part(el, '[data-testid="lock"]'));
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => part(el, '[data-testid="locked"]'), 'locked');
      expect(bodies(log).at(-1)).to.include({ type: 'LOCKED', sourceAmount: '500', timeLock: '1m' });
      await el.updateComplete;
      expect(focused(el)?.id).to.equal('locked-title');
      await sendKeys({ press: 'Tab' });
      expectFocus(focused(el), part(el, '[part="reference"] summary'), 'the quote id for support, behind its disclosure');
      await sendKeys({ press: 'Tab' });
      expectFocus(focused(el), part(el, '[data-testid="release"]'));
    });
  });

  describe('theme', () => {
    const background = (el: RampQuote) => getComputedStyle($(el, '[part="base"]')).backgroundColor;

    it('is light or dark by attribute, and the partner tokens win', async () => {
      expect(background(await mount({ theme: 'light' }))).to.equal('rgb(255, 255, 255)');
      expect(background(await mount({ theme: 'dark' }))).to.equal('rgb(21, 24, 31)');
      const branded = await fixture<RampQuote>(html`<ramp-quote style="--ramp-color-surface: rgb(1, 2, 3); --ramp-quote-background: rgb(4, 5, 6)"></ramp-quote>`);
      expect(background(branded), 'tier 2 over tier 1').to.equal('rgb(4, 5, 6)');
    });

    it('exposes parts for styling', async () => {
      worker.use(...quoteScenarios.success());
      const el = await mount({ amount: '1000' });
      await quoted(el);
      for (const name of ['base', 'title', 'form', 'direction-group', 'field', 'label', 'input', 'amount-input', 'select', 'breakdown', 'row', 'final-amount', 'lock-group', 'lock-button', 'status']) {
        expect(part(el, `[part~="${name}"]`), name).to.exist;
      }
    });
  });

  describe('a 320 px phone', () => {
    afterEach(() => setViewport({ width: 800, height: 600 }));
    for (const lang of ['pt-BR', 'es'] as const) {
      it(`nothing reaches past the card's content and a fee label takes at most two lines (${lang})`, async () => {
        await setViewport({ width: 320, height: 800 });
        worker.use(...quoteScenarios.success());
        // The page's own margin: a 304 px card, as on a phone.
        const el = await mount({ amount: '1000', lang });
        el.fiat = 'USD';
        await quoted(el);
        await el.updateComplete;
        const card = $(el, '[part~="base"]');
        const box = card.getBoundingClientRect();
        const cs = getComputedStyle(card);
        const left = box.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
        const right = box.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight);
        const past = [...card.querySelectorAll('*')]
          .filter((e) => !(e.localName === 'input' && getComputedStyle(e).position === 'absolute'))
          .map((e) => [e, e.getBoundingClientRect()] as const)
          .filter(([, r]) => r.width > 1 && (r.left < left - 0.5 || r.right > right + 0.5))
          .map(([e, r]) => `${e.localName}[${e.getAttribute('part') ?? ''}] ${Math.round(r.left)}…${Math.round(r.right)}`);
        expect(past, `inside ${Math.round(left)}…${Math.round(right)}`).to.deep.equal([]);
        for (const dt of card.querySelectorAll<HTMLElement>('[part~="row"] dt')) {
          const lines = Math.round(dt.getBoundingClientRect().height / parseFloat(getComputedStyle(dt).lineHeight));
          expect(lines, dt.textContent!.trim()).to.be.at.most(2);
        }
      });
    }
  });

  describe('registration', () => {
    it('define.ts registers <ramp-quote>', () => {
      expect(customElements.get('ramp-quote')).to.equal(RampQuote);
      expect(document.createElement('ramp-quote')).to.be.instanceOf(RampQuote);
    });
  });
});

// <ramp-widget>: resumes from the server's state, hands its session to the components inside by context, and renews a
// refused session through `ramp-session-expired` without losing its place.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/widget';
import type { RampWidget } from '../../../src/components/widget/widget';
import type { RampOnboarding } from '../../../src/components/onboarding/onboarding';
import { RampQuoteLockedEvent } from '../../../src/events/quote-locked';
import { RampVerificationChangedEvent } from '../../../src/events/verification-changed';
import { setViewport } from '@web/test-runner-commands';
import { mockBuyQuote, mockSellQuote } from '../mocks/money-scenarios';
import { expectFocus } from '../support/focus';

type Answer = { status: number; body: unknown };
const realFetch = window.fetch;
let calls: { url: string; auth: string | null }[] = [];

/** A scripted BFF: each path answers from its queue (the last answer repeats). */
function stubBff(answers: Record<string, Answer[]>): void {
  calls = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url, location.href);
    // The client sends a Request (ky), whose headers travel on it rather than in `init`.
    const auth = (input instanceof Request ? input.headers : new Headers(init?.headers)).get('authorization');
    calls.push({ url: url.pathname, auth });
    const queue = answers[url.pathname.replace(/^\/bff\//, '')];
    const answer = queue && (queue.length > 1 ? queue.shift()! : queue[0]!);
    if (!answer) return new Response(JSON.stringify({ status: 404, code: 'NOT_FOUND' }), { status: 404, headers: { 'content-type': 'application/problem+json' } });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': answer.status < 300 ? 'application/json' : 'application/problem+json' } });
  };
}

const unauthenticated: Answer = { status: 401, body: { status: 401, code: 'UNAUTHENTICATED', title: 'Unauthenticated', detail: 'The session expired' } };
const boundSession: Answer = { status: 200, body: { customerId: 'c-1', expiresAt: new Date(Date.now() + 900_000).toISOString() } };
const approved: Answer = { status: 200, body: { id: 'c-1', verification: { status: 'APPROVED' } } };
/** What the quote inside reads too (limits and balances): an approved customer with an empty wallet. */
const approvedWithWallet: Answer = { status: 200, body: { id: 'c-1', verification: { status: 'APPROVED' }, wallets: [] } };
/** The focused element, followed through shadow roots. */
function deepFocus(): Element | null {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

const onboardingSession: Answer = { status: 200, body: { customerId: null, expiresAt: new Date(Date.now() + 900_000).toISOString() } };

describe('<ramp-widget>', () => {
  afterEach(() => {
    window.fetch = realFetch;
  });

  it('an onboarding session opens the onboarding, which gets session, API base and language by context', async () => {
    stubBff({ session: [onboardingSession] });
    const el = await fixture<RampWidget>(html`<ramp-widget session="s-1" api-base="/bff" lang="pt-BR"></ramp-widget>`);
    await waitUntil(() => el.currentView === 'onboarding', 'should open the onboarding', { timeout: 4000 });
    await el.updateComplete;
    const inner = el.shadowRoot!.querySelector('ramp-onboarding') as RampOnboarding;
    expect(inner).to.exist;
    await inner.updateComplete;
    expect(inner.session).to.equal('s-1');
    expect(inner.apiBase).to.equal('/bff');
    expect(inner.shadowRoot!.querySelector('#title')?.textContent).to.equal('Abra sua conta');

    // A new token on the widget reaches the component inside.
    el.session = 's-2';
    await el.updateComplete;
    expect(inner.session).to.equal('s-2');
  });

  it('a refused session fires ramp-session-expired (bubbling, composed); the new token is used to repeat the call', async () => {
    // Only the repeated call can tell the widget the customer is approved (a failed one leaves it on the onboarding).
    stubBff({ session: [unauthenticated, boundSession], customer: [approved] });
    const expired: Event[] = [];
    const onExpired = (event: Event) => {
      expired.push(event);
      (event.target as RampWidget).session = 'fresh';
    };
    document.addEventListener('ramp-session-expired', onExpired);
    try {
      const el = await fixture<RampWidget>(html`<ramp-widget session="stale" api-base="/bff" lang="en"></ramp-widget>`);
      await waitUntil(() => el.currentView === 'home', 'should resume after the renewal', { timeout: 4000 });
      expect(expired).to.have.length(1);
      expect(expired[0]!.bubbles && expired[0]!.composed).to.equal(true);
      expect((expired[0] as CustomEvent).detail.expiredSession).to.equal('stale');
      expect(calls.filter((c) => c.url === '/bff/session').map((c) => c.auth).slice(0, 2)).to.deep.equal(['Bearer stale', 'Bearer fresh']);
      expect(calls.every((c) => c.auth === 'Bearer stale' || c.auth === 'Bearer fresh')).to.equal(true);
    } finally {
      document.removeEventListener('ramp-session-expired', onExpired);
    }
  });

  it('requests refused together ask the page once; one refused with a token already replaced asks no more', async () => {
    stubBff({ session: [onboardingSession] });
    const el = await fixture<RampWidget>(html`<ramp-widget session="stale" api-base="/bff"></ramp-widget>`);
    let asked = 0;
    el.addEventListener('ramp-session-expired', (event) => {
      asked += 1;
      event.preventDefault();
      setTimeout(() => (el.session = 'fresh'), 50);
    });
    const renew = (el as unknown as { renewSession(refused?: string): Promise<boolean> }).renewSession;
    expect(await Promise.all([renew('stale'), renew('stale'), renew('stale')])).to.deep.equal([true, true, true]);
    expect(asked).to.equal(1);
    // A request sent with the old token that comes back refused after the renewal is sent again with the new one.
    expect(await renew('stale')).to.equal(true);
    expect(asked).to.equal(1);
  });

  it('a view that replaces the one holding focus (approval, lock) takes focus to its heading, not to the page', async () => {
    stubBff({ session: [onboardingSession] });
    const el = await fixture<RampWidget>(html`<ramp-widget session="s-1" api-base="/bff" lang="en"></ramp-widget>`);
    await waitUntil(() => el.currentView === 'onboarding', 'should open the onboarding', { timeout: 4000 });
    await el.updateComplete;
    const onboarding = el.shadowRoot!.querySelector('ramp-onboarding')!;
    await onboarding.updateComplete;
    onboarding.shadowRoot!.querySelector<HTMLElement>('#title')!.focus();

    onboarding.dispatchEvent(new RampVerificationChangedEvent({ customerId: 'c-1', status: 'APPROVED' }));
    const heading = (tag: 'ramp-quote' | 'ramp-pix-checkout') => el.shadowRoot!.querySelector(tag)?.shadowRoot?.querySelector('#title') ?? undefined;
    await waitUntil(() => heading('ramp-quote'), 'should show the quote', { timeout: 4000 });
    await waitUntil(() => deepFocus() === heading('ramp-quote'), 'focus should reach the quote', { timeout: 2000 });
    const quote = el.shadowRoot!.querySelector('ramp-quote')!;

    const locked = mockBuyQuote();
    quote.dispatchEvent(new RampQuoteLockedEvent({ exchangeRateId: locked.id!, expiresAt: locked.expiresAt!, quote: locked }));
    await waitUntil(() => heading('ramp-pix-checkout'), 'should show the checkout', { timeout: 4000 });
    await waitUntil(() => deepFocus() === heading('ramp-pix-checkout'), 'focus should reach the checkout', { timeout: 2000 });
  });

  it('a view change while focus is elsewhere on the page leaves it there', async () => {
    stubBff({ session: [onboardingSession] });
    const outside = await fixture<HTMLButtonElement>(html`<button>partner</button>`);
    const el = await fixture<RampWidget>(html`<ramp-widget session="s-1" api-base="/bff" lang="en"></ramp-widget>`);
    await waitUntil(() => el.currentView === 'onboarding', 'should open the onboarding', { timeout: 4000 });
    await el.updateComplete;
    outside.focus();
    el.shadowRoot!.querySelector('ramp-onboarding')!.dispatchEvent(new RampVerificationChangedEvent({ customerId: 'c-1', status: 'APPROVED' }));
    await waitUntil(() => el.shadowRoot!.querySelector('ramp-quote'), 'should show the quote', { timeout: 4000 });
    await el.shadowRoot!.querySelector('ramp-quote')!.updateComplete;
    expectFocus(document.activeElement, outside);
  });

  it('with session-url, a refused session is renewed from the partner backend without an event', async () => {
    stubBff({ session: [unauthenticated, boundSession], customer: [approved], 'partner/session': [{ status: 200, body: { token: 'from-backend' } }] });
    // The partner URL is not under /bff: route it through the same stub.
    const el = await fixture<RampWidget>(html`<ramp-widget session="stale" session-url="/bff/partner/session" api-base="/bff"></ramp-widget>`);
    await waitUntil(() => el.currentView === 'home', 'should resume after the renewal', { timeout: 4000 });
    expect(el.session).to.equal('from-backend');
    expect(calls.filter((c) => c.url === '/bff/session').map((c) => c.auth).slice(0, 2)).to.deep.equal(['Bearer stale', 'Bearer from-backend']);
  });

  it('an approved customer lands on buy, sell and history', async () => {
    stubBff({
      session: [{ status: 200, body: { customerId: 'c-1', expiresAt: new Date(Date.now() + 900_000).toISOString() } }],
      customer: [{ status: 200, body: { id: 'c-1', verification: { status: 'APPROVED' } } }],
      transactions: [{ status: 200, body: { data: [], pagination: {} } }],
    });
    const el = await fixture<RampWidget>(html`<ramp-widget session="bound" api-base="/bff" lang="en"></ramp-widget>`);
    await waitUntil(() => el.currentView === 'home', 'should land on home', { timeout: 4000 });
    await el.updateComplete;
    // Inside the widget's shadow root, out of the loader's sight: the widget itself fetched and defined it.
    expect(el.shadowRoot!.querySelector('ramp-quote')).to.be.instanceOf(customElements.get('ramp-quote')!);
    (el.shadowRoot!.querySelector('[data-view="history"]') as HTMLButtonElement).click();
    await waitUntil(() => el.shadowRoot!.textContent?.includes('No transactions yet.'), 'history shows', { timeout: 4000 });
  });

  describe('locks go where their quote says', () => {
    async function approvedWidget(lang = 'en'): Promise<RampWidget> {
      stubBff({ session: [boundSession], customer: [approvedWithWallet] });
      const el = await fixture<RampWidget>(html`<ramp-widget session="bound" api-base="/bff" lang=${lang}></ramp-widget>`);
      await waitUntil(() => el.currentView === 'home', 'should land on home', { timeout: 4000 });
      await el.updateComplete;
      return el;
    }
    const inner = (el: RampWidget, tag: string) => el.shadowRoot!.querySelector(tag) as (HTMLElement & { updateComplete: Promise<unknown> }) | null;
    const lockFrom = (el: RampWidget, quote: ReturnType<typeof mockBuyQuote>) =>
      inner(el, 'ramp-quote')!.dispatchEvent(new RampQuoteLockedEvent({ exchangeRateId: quote.id!, expiresAt: quote.expiresAt!, quote }));

    it('a EUR·SEPA lock opens the bank-transfer checkout, not PIX', async () => {
      const el = await approvedWidget();
      lockFrom(el, mockBuyQuote(new Date(), { rail: 'SEPA', sourceCurrency: 'EUR', sourceAmount: '100.00' }));
      await waitUntil(() => el.currentView === 'pay', 'the checkout', { timeout: 4000 });
      await waitUntil(() => inner(el, 'ramp-pix-checkout')?.shadowRoot?.querySelector('#title'), 'the checkout renders', { timeout: 4000 });
      expect(inner(el, 'ramp-pix-checkout')!.shadowRoot!.querySelector('#title')!.textContent!.trim()).to.equal('Pay by bank transfer');
      // Paying is part of buying: the Buy tab stays the selected one.
      expect(el.shadowRoot!.querySelector('[data-view="buy"]')!.getAttribute('aria-pressed')).to.equal('true');
    });

    it('`sandbox` reaches the checkout inside set as a property (React 19, Vue) or as an attribute, and turns off again', async () => {
      const el = await approvedWidget();
      lockFrom(el, mockBuyQuote(new Date()));
      await waitUntil(() => inner(el, 'ramp-pix-checkout'), 'the checkout', { timeout: 4000 });
      const checkout = () => inner(el, 'ramp-pix-checkout') as HTMLElement & { sandbox: boolean; updateComplete: Promise<unknown> };
      const settle = async () => {
        await el.updateComplete;
        await checkout().updateComplete;
      };
      expect(checkout().sandbox).to.equal(false);
      el.sandbox = true;
      await settle();
      expect([checkout().sandbox, checkout().hasAttribute('sandbox')]).to.deep.equal([true, true]);
      el.sandbox = false;
      await settle();
      expect([checkout().sandbox, checkout().hasAttribute('sandbox')]).to.deep.equal([false, false]);
      el.setAttribute('sandbox', '');
      await settle();
      expect(checkout().sandbox).to.equal(true);
      el.removeAttribute('sandbox');
      await settle();
      expect(checkout().sandbox).to.equal(false);
    });

    it('a sell lock goes to the bank picker, whichever tab it came from', async () => {
      const el = await approvedWidget();
      expect(el.currentView).to.equal('home');
      lockFrom(el, mockSellQuote());
      await waitUntil(() => el.currentView === 'cash-out', 'the off-ramp', { timeout: 4000 });
      await waitUntil(() => inner(el, 'ramp-offramp'), 'the off-ramp renders', { timeout: 4000 });
      expect(inner(el, 'ramp-pix-checkout')).to.equal(null);
      expect(el.shadowRoot!.querySelector('[data-view="sell"]')!.getAttribute('aria-pressed')).to.equal('true');
    });

    it('a buy lock made on the Sell tab goes to the checkout', async () => {
      const el = await approvedWidget();
      (el.shadowRoot!.querySelector('[data-view="sell"]') as HTMLButtonElement).click();
      await waitUntil(() => el.currentView === 'sell', 'the sell tab', { timeout: 4000 });
      await el.updateComplete;
      lockFrom(el, mockBuyQuote());
      await waitUntil(() => el.currentView === 'pay', 'the checkout', { timeout: 4000 });
    });
  });

  describe('one direction switch', () => {
    afterEach(() => setViewport({ width: 800, height: 600 }));
    for (const [lang, nav, buy, sell] of [
      ['en', 'Ramp: buy, sell, wallet and history', 'Buy', 'Sell'],
      ['pt-BR', 'Ramp: comprar, vender, carteira e histórico', 'Comprar', 'Vender'],
      ['es', 'Ramp: comprar, vender, billetera e historial', 'Comprar', 'Vender'],
    ] as const) {
      for (const width of [1280, 320]) {
        it(`the tabs are a labelled nav with the selected one visibly marked, and the quote has no switch of its own (${lang}, ${width} px)`, async () => {
          await setViewport({ width, height: 800 });
          stubBff({ session: [boundSession], customer: [approvedWithWallet] });
          const el = await fixture<RampWidget>(html`<ramp-widget session="bound" api-base="/bff" lang=${lang}></ramp-widget>`);
          await waitUntil(() => el.currentView === 'home', 'should land on home', { timeout: 4000 });
          await el.updateComplete;
          const navEl = el.shadowRoot!.querySelector('nav')!;
          expect(navEl.getAttribute('aria-label')).to.equal(nav);
          const tab = (view: string) => el.shadowRoot!.querySelector<HTMLButtonElement>(`[data-view="${view}"]`)!;
          expect(tab('buy').textContent!.trim()).to.equal(buy);
          expect(tab('sell').textContent!.trim()).to.equal(sell);
          const look = (b: HTMLElement) => getComputedStyle(b).backgroundColor;
          expect(tab('buy').getAttribute('aria-pressed')).to.equal('true');
          expect(look(tab('buy'))).not.to.equal(look(tab('sell')));
          // The one switch: the quote inside hides its buy / sell choice.
          const quote = el.shadowRoot!.querySelector('ramp-quote')!;
          await quote.updateComplete;
          await waitUntil(() => quote.shadowRoot!.querySelector('[data-testid="amount-pay"]'), 'the quote form', { timeout: 4000 });
          expect(quote.shadowRoot!.querySelector('[part~="direction-group"]')).to.equal(null);
          // Switching tabs moves the mark and the quote's direction with it.
          tab('sell').click();
          await waitUntil(() => el.currentView === 'sell', 'the sell tab', { timeout: 4000 });
          await el.updateComplete;
          expect(tab('sell').getAttribute('aria-pressed')).to.equal('true');
          expect(tab('buy').getAttribute('aria-pressed')).to.equal('false');
          expect(look(tab('sell'))).not.to.equal(look(tab('buy')));
          expect(el.shadowRoot!.querySelector('ramp-quote')!.direction).to.equal('sell');
          // Keyboard: the tabs are buttons in the tab order.
          tab('buy').focus();
          expect(el.shadowRoot!.activeElement).to.equal(tab('buy'));
          // Nothing past the widget's own width at 320 px.
          expect(navEl.scrollWidth).to.be.at.most(navEl.clientWidth);
        });
      }
    }
  });

  it('fires ramp-session-expiring a minute before the token expires, and a session-url renews it ahead of time', async () => {
    stubBff({ session: [onboardingSession], 'partner/session': [{ status: 200, body: { token: 'next' } }] });
    const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const expiresAt = Math.floor(Date.now() / 1000) + 61;
    const token = `${b64({ alg: 'HS256' })}.${b64({ exp: expiresAt })}.sig`;
    const expiring: CustomEvent[] = [];
    const el = await fixture<RampWidget>(html`<ramp-widget session=${token} session-url="/bff/partner/session" api-base="/bff"></ramp-widget>`);
    el.addEventListener('ramp-session-expiring', (e) => expiring.push(e as CustomEvent));
    await waitUntil(() => expiring.length === 1, 'ramp-session-expiring should fire', { timeout: 3000 });
    expect(expiring[0]!.detail.expiresAt).to.equal(new Date(expiresAt * 1000).toISOString());
    expect(expiring[0]!.bubbles && expiring[0]!.composed).to.equal(true);
    await waitUntil(() => el.session === 'next', 'the session-url should hand a new token', { timeout: 3000 });
  });

  it('an element that leaves and comes back before the page is idle warns of its expiry once, not once per visit', async () => {
    stubBff({ session: [onboardingSession] });
    const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const token = `${b64({ alg: 'HS256' })}.${b64({ exp: Math.floor(Date.now() / 1000) + 61 })}.sig`;
    const expiring: Event[] = [];
    const el = await fixture<RampWidget>(html`<ramp-widget session=${token} api-base="/bff"></ramp-widget>`);
    el.addEventListener('ramp-session-expiring', (e) => expiring.push(e));
    // Out and back in within the same task, then an update: a second schedule for the same session.
    const parent = el.parentElement!;
    el.remove();
    parent.append(el);
    el.requestUpdate();
    await el.updateComplete;
    await waitUntil(() => expiring.length > 0, 'ramp-session-expiring should fire', { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(expiring.length).to.equal(1);
  });

  it('a listener may take its time after preventDefault(); without one the call fails at once', async () => {
    stubBff({ session: [unauthenticated, boundSession], customer: [approved] });
    const onExpired = (event: Event) => {
      event.preventDefault();
      setTimeout(() => ((event.target as RampWidget).session = 'later'), 200);
    };
    document.addEventListener('ramp-session-expired', onExpired);
    try {
      const el = await fixture<RampWidget>(html`<ramp-widget session="stale" api-base="/bff"></ramp-widget>`);
      await waitUntil(() => el.currentView === 'home', 'should resume after the late renewal', { timeout: 4000 });
      expect(calls.filter((c) => c.url === '/bff/session').map((c) => c.auth).slice(0, 2)).to.deep.equal(['Bearer stale', 'Bearer later']);
    } finally {
      document.removeEventListener('ramp-session-expired', onExpired);
    }
  });

  it('with session-url and no session, asks it for the first one (a partner without a backend: RAMP_PUBLIC_ONBOARDING)', async () => {
    stubBff({ 'public-session': [{ status: 201, body: { token: 'anonymous', expiresAt: new Date(Date.now() + 900_000).toISOString() } }], session: [onboardingSession] });
    const el = await fixture<RampWidget>(html`<ramp-widget session-url="/bff/public-session" api-base="/bff"></ramp-widget>`);
    await waitUntil(() => el.currentView === 'onboarding', 'should open the onboarding', { timeout: 4000 });
    expect(el.session).to.equal('anonymous');
    expect(calls.find((c) => c.url === '/bff/session')?.auth).to.equal('Bearer anonymous');
  });
});

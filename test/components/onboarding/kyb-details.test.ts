// <ramp-onboarding>'s business path in its details: the step named for a company, the amounts in one group, ownership
// totals and the threshold explained, removal confirmed, and what to do after a final rejection; en, pt-BR, es; 320 px.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { nothing } from 'lit';
import { http, HttpResponse } from 'msw';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../../src/define';
import { supportLink } from '../../../src/components/onboarding/support-contact';
import { previousStep } from '../../../src/components/onboarding/back-button';
import { stepsFor } from '../../../src/components/onboarding/steps';
import type { StepContext } from '../../../src/components/onboarding/step-context';
import type { RampOnboarding } from '../../../src/components/onboarding/onboarding';
import { KycBackend, kycCustomer, RequestLog } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';
import { $, atStep, click, fill, q, text } from './dom';

const ANA_CPF = '52998224725';
const BRUNO_CPF = '11144477735';
type Lang = 'en' | 'pt-BR' | 'es';

// ── helpers ──

async function mount(lang: Lang = 'en', supportContact?: string): Promise<RampOnboarding> {
  const el = await fixture<RampOnboarding>(
    html`<ramp-onboarding session="bound-session" api-base="/bff" lang=${lang} support-contact=${supportContact ?? nothing}></ramp-onboarding>`,
  );
  el.pollIntervalMs = 40;
  await el.updateComplete;
  return el;
}

function business(opts: { infoSent?: boolean; log?: RequestLog } = {}): KycBackend {
  const backend = new KycBackend({ customer: kycCustomer({ type: 'BUSINESS', taxId: '11222333000180' }), reviewMs: 150, ...(opts.log ? { log: opts.log } : {}) });
  if (opts.infoSent) backend.customer = { ...backend.customer!, additionalInformation: { type: 'BUSINESS' } };
  worker.use(...backend.handlers());
  return backend;
}

async function addShareholder(el: RampOnboarding, name: string, taxId: string, ownership: string): Promise<void> {
  await click(el, '[data-testid="add-party"]');
  await click(el, '[data-testid="party-type-INDIVIDUAL"]');
  await click(el, '[data-testid="party-role-SHAREHOLDER"]');
  await fill(el, 'party-ownershipPercentage', ownership);
  await fill(el, 'party-name', name);
  await fill(el, 'party-taxId', taxId);
  await fill(el, 'party-birthDate', '1980-02-03');
  await fill(el, 'party-email', `${name.split(' ')[0]!.toLowerCase()}@example.com`);
  await fill(el, 'party-address-line1', 'Av. Paulista, 1000');
  await fill(el, 'party-address-city', 'São Paulo');
  await fill(el, 'party-address-state', 'SP');
  await fill(el, 'party-address-postalCode', '01310-100');
}

async function saveParty(el: RampOnboarding, name: string): Promise<void> {
  await click(el, '[data-testid="party-save"]');
  await waitUntil(() => [...el.shadowRoot!.querySelectorAll('.party-name')].some((n) => n.textContent === name), `${name} should be listed`, { timeout: 4000 });
}

async function fillBusinessInfo(el: RampOnboarding): Promise<void> {
  await fill(el, 'info-companyType', 'PAYMENT_GATEWAY');
  await fill(el, 'info-website', 'acme.example');
  await fill(el, 'info-servicesProvided', 'Payments for online shops.');
  await fill(el, 'info-phone', '11 3333-4444');
  await fill(el, 'info-address-line1', 'Av. Paulista, 1000');
  await fill(el, 'info-address-city', 'São Paulo');
  await fill(el, 'info-address-state', 'SP');
  await fill(el, 'info-address-postalCode', '01310-100');
  await fill(el, 'info-annualRevenue', '1200000');
  await fill(el, 'info-monthlyTransactionVolume', '100000');
  await fill(el, 'info-monthlyVolumeInUSD', '50000');
  await fill(el, 'info-transactionVolumeInUSD', '2500');
  await click(el, '[data-testid="jurisdictions-BRA"]');
  await click(el, '[data-testid="involvedActivities-NONE"]');
  await click(el, '[data-testid="transactionCounterparties-MERCHANTS_SUPPLIERS"]');
  await fill(el, 'info-sourceOfFunds', 'COMPANY');
  await fill(el, 'info-complianceAndAML', 'A compliance officer reviews every merchant.');
}

/** Every element of the card that reaches past its content box, as `tag[part] left…right`. */
function pastTheCard(el: RampOnboarding): string[] {
  const card = $(el, '[part~="base"]');
  const box = card.getBoundingClientRect();
  const cs = getComputedStyle(card);
  const left = box.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
  const right = box.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight);
  return [...card.querySelectorAll('*')]
    // Visually hidden text (clipped to nothing) is read out, not seen.
    .filter((e) => !(e.localName === 'input' && getComputedStyle(e).position === 'absolute') && getComputedStyle(e).clipPath === 'none' && !e.closest('.visually-hidden'))
    .map((e) => [e, e.getBoundingClientRect()] as const)
    .filter(([, r]) => r.width > 1 && (r.left < left - 0.5 || r.right > right + 0.5))
    .map(([e, r]) => `${e.localName}[${e.getAttribute('part') ?? e.className}] ${Math.round(r.left)}…${Math.round(r.right)}`);
}

const WORDS = {
  en: { step: 'About the company', legend: 'Money the company moves (US$)', monthly: 'Through this account, per month', names: 'Ana Souza and Bruno Lima', total: '110%', min: '25%' },
  'pt-BR': { step: 'Sobre a empresa', legend: 'Valores que a empresa movimenta (US$)', monthly: 'Por esta conta, por mês', names: 'Ana Souza e Bruno Lima', total: '110%', min: '25%' },
  es: { step: 'Sobre la empresa', legend: 'Dinero que mueve la empresa (US$)', monthly: 'Por esta cuenta, al mes', names: 'Ana Souza y Bruno Lima', total: '110 %', min: '25 %' },
} as const;

// ── tests ──

describe('<ramp-onboarding> business details', () => {
  before(startMockBff);
  afterEach(async () => {
    worker.resetHandlers();
    await setViewport({ width: 1280, height: 900 });
  });
  after(() => worker.stop());

  for (const lang of ['en', 'pt-BR', 'es'] as const) {
    for (const width of [1280, 320]) {
      it(`step 2 is named for the company, and its four amounts are one group that says which is which (${lang}, ${width} px)`, async () => {
        await setViewport({ width, height: 900 });
        business();
        const el = await mount(lang);
        await atStep(el, 'info');
        expect(text(el, '[part~="step"][data-step="info"] .step-label')).to.equal(WORDS[lang].step);
        const group = $<HTMLFieldSetElement>(el, '[data-testid="info-volume"]');
        expect(group.querySelector('legend')!.textContent!.trim()).to.equal(WORDS[lang].legend);
        expect([...group.querySelectorAll('input')].map((i) => i.name)).to.deep.equal(['annualRevenue', 'monthlyTransactionVolume', 'monthlyVolumeInUSD', 'transactionVolumeInUSD']);
        expect(text(el, 'label[for="info-monthlyVolumeInUSD"]')).to.equal(WORDS[lang].monthly);
        expect(q(el, '#info-volume-hint')?.textContent).to.have.length.greaterThan(40);
        expect(pastTheCard(el)).to.deep.equal([]);
        await expect(el).to.be.accessible();
      });
    }
  }

  it('an individual’s step 2 keeps its own name and its two amounts', async () => {
    const backend = new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL' }) });
    worker.use(...backend.handlers());
    const el = await mount();
    await atStep(el, 'info');
    expect(text(el, '[part~="step"][data-step="info"] .step-label')).to.equal('About you');
    expect(q(el, '[data-testid="info-volume"]') === null).to.equal(true);
    expect(text(el, 'label[for="info-monthlyVolumeInUSD"]')).to.equal('Expected volume per month (US$)');
  });

  for (const lang of ['en', 'pt-BR', 'es'] as const) {
    it(`shareholders over 100% at one level are refused before sending, naming them and the total (${lang})`, async () => {
      const log = new RequestLog();
      business({ infoSent: true, log });
      const el = await mount(lang);
      await atStep(el, 'parties');
      await addShareholder(el, 'Ana Souza', ANA_CPF, '60');
      await saveParty(el, 'Ana Souza');
      const posts = () => log.entries.filter((e) => e.method === 'POST' && e.url.includes('associated-parties')).length;
      expect(posts()).to.equal(1);
      await addShareholder(el, 'Bruno Lima', BRUNO_CPF, '50');
      await click(el, '[data-testid="party-save"]');
      const error = text(el, '#party-ownershipPercentage-error')!;
      expect(error).to.contain(WORDS[lang].names);
      expect(error).to.contain(WORDS[lang].total);
      expect($(el, '#party-ownershipPercentage').getAttribute('aria-invalid')).to.equal('true');
      expect(el.shadowRoot!.activeElement?.id, 'focus goes to the percentage').to.equal('party-ownershipPercentage');
      expect(posts(), 'nothing is sent').to.equal(1);
      // 40 brings the level to exactly 100: accepted.
      await fill(el, 'party-ownershipPercentage', '40');
      expect(q(el, '#party-ownershipPercentage-error') === null).to.equal(true);
      await saveParty(el, 'Bruno Lima');
      expect(posts()).to.equal(2);
    });

    it(`a 15% holder is refused with the threshold and the reason (${lang})`, async () => {
      business({ infoSent: true });
      const el = await mount(lang);
      await atStep(el, 'parties');
      await addShareholder(el, 'Ana Souza', ANA_CPF, '15');
      await click(el, '[data-testid="party-save"]');
      const error = text(el, '#party-ownershipPercentage-error')!;
      expect(error).to.contain(WORDS[lang].min);
      expect(error.length, 'it says why, not only the range').to.be.greaterThan(80);
      await expect(el).to.be.accessible();
    });
  }

  for (const lang of ['en', 'pt-BR', 'es'] as const) {
    it(`removing a party asks first: Cancel (or Escape) keeps it, Remove removes it, focus managed, keyboard only (${lang})`, async () => {
      const log = new RequestLog();
      const backend = business({ infoSent: true, log });
      const el = await mount(lang);
      await atStep(el, 'parties');
      await addShareholder(el, 'Ana Souza', ANA_CPF, '60');
      await saveParty(el, 'Ana Souza');
      const id = backend.parties[0]!.id;
      const focusedTestId = () => (el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.testid;
      const deletes = () => log.entries.filter((e) => e.method === 'DELETE').length;

      $<HTMLElement>(el, `[data-testid="remove-${id}"]`).focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      const question = { en: 'Remove Ana Souza from the owners?', 'pt-BR': 'Remover Ana Souza dos sócios?', es: '¿Quitar a Ana Souza de los socios?' }[lang];
      expect(text(el, `#confirm-remove-${id}`)).to.equal(question);
      expect(focusedTestId(), 'focus goes to Cancel').to.equal(`cancel-remove-${id}`);
      expect(deletes(), 'nothing removed yet').to.equal(0);
      await expect(el).to.be.accessible();

      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(q(el, `[data-testid="confirm-remove-${id}"]`) === null, 'Cancel closes the question').to.equal(true);
      expect(focusedTestId(), 'focus is back on Remove').to.equal(`remove-${id}`);

      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      expect(q(el, `[data-testid="confirm-remove-${id}"]`) === null, 'Escape closes the question').to.equal(true);
      expect(focusedTestId()).to.equal(`remove-${id}`);
      expect(deletes()).to.equal(0);

      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      await sendKeys({ press: 'Tab' });
      expect(focusedTestId()).to.equal(`really-remove-${id}`);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => backend.parties.length === 0, 'the party should be removed');
      await waitUntil(() => q(el, `[data-party-id="${id}"]`) === null, 'it should leave the list');
      expect(deletes()).to.equal(1);
      await waitUntil(() => focusedTestId() === 'add-party', 'focus goes to the add button');
    });
  }

  describe('after a final rejection', () => {
    const NEXT = {
      en: 'If you think this is a mistake, contact support and give them the reference below:',
      'pt-BR': 'Se você acha que houve um engano, fale com o suporte e informe a referência abaixo:',
      es: 'Si crees que se trata de un error, contacta con el soporte e indica la referencia de abajo:',
    };
    const rejected = () => {
      const backend = business({ infoSent: true });
      backend.decide('FINAL_REJECTION');
    };

    for (const lang of ['en', 'pt-BR', 'es'] as const) {
      for (const width of [1280, 320]) {
        it(`says what the user can do, with the partner's support as a link (${lang}, ${width} px)`, async () => {
          await setViewport({ width, height: 900 });
          rejected();
          const el = await mount(lang, 'help@partner.example');
          await atStep(el, 'status');
          expect(text(el, '[data-testid="next-steps"] p')).to.equal(NEXT[lang]);
          const link = $<HTMLAnchorElement>(el, '[data-testid="support-link"]');
          expect(link.getAttribute('href')).to.equal('mailto:help@partner.example');
          expect(link.textContent!.trim()).to.equal('help@partner.example');
          expect(q(el, '[data-testid="status-customer-id"]'), 'the reference to give is there').to.exist;
          expect(pastTheCard(el)).to.deep.equal([]);
          await expect(el).to.be.accessible();
        });
      }
    }

    it('without a support contact it still says where to turn, with no link', async () => {
      rejected();
      const el = await mount('en');
      await atStep(el, 'status');
      expect(text(el, '[data-testid="next-steps"]')).to.contain('contact the support of the service you are signing up with');
      expect(q(el, '[data-testid="support-link"]') === null).to.equal(true);
    });

    it('a javascript: contact is never a link; a URL and a phone are', async () => {
      rejected();
      const el = await mount('en', 'javascript:alert(1)');
      await atStep(el, 'status');
      expect(q(el, '[data-testid="support-link"]') === null).to.equal(true);
      expect(el.shadowRoot!.querySelector('a[href^="javascript"]') === null).to.equal(true);
      el.supportContact = 'https://partner.example/help';
      await el.updateComplete;
      expect($<HTMLAnchorElement>(el, '[data-testid="support-link"]').getAttribute('href')).to.equal('https://partner.example/help');
    });

    it('supportLink: mailto:, tel: and https: only', () => {
      expect(supportLink('+55 (11) 3333-4444')).to.deep.equal({ href: 'tel:+551133334444', text: '+55 (11) 3333-4444' });
      expect(supportLink('https://partner.example/')).to.deep.equal({ href: 'https://partner.example/', text: 'partner.example' });
      for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', 'http://partner.example', 'vbscript:x', '12', '', ' ']) {
        expect(supportLink(bad), bad).to.equal(undefined);
      }
    });

    it('<ramp-widget support-contact> hands it to the onboarding inside', async () => {
      worker.use(http.get('*/bff/session', () => HttpResponse.json({ customerId: null, expiresAt: new Date(Date.now() + 900_000).toISOString() })));
      const widget = await fixture<HTMLElement>(html`<ramp-widget api-base="/bff" session="s" support-contact="help@partner.example"></ramp-widget>`);
      await waitUntil(() => widget.shadowRoot?.querySelector('ramp-onboarding'), 'the widget should show the onboarding', { timeout: 6000 });
      expect(widget.shadowRoot!.querySelector<RampOnboarding>('ramp-onboarding')!.supportContact).to.equal('help@partner.example');
    });
  });

  describe('back to a saved step', () => {
    it('Back from the parties shows the information as saved; a correction is sent again and leads on', async () => {
      const log = new RequestLog();
      business({ log });
      const el = await mount('en');
      await atStep(el, 'info');
      expect(q(el, '[data-testid="back"]') === null, 'no way back to the customer step').to.equal(true);
      await fillBusinessInfo(el);
      await click(el, '[data-testid="info-submit"]');
      await atStep(el, 'parties');
      await click(el, '[data-testid="back"]');
      await atStep(el, 'info');
      expect(el.shadowRoot!.activeElement?.id, 'focus goes to the step heading').to.equal('step-title');
      expect($(el, '#info-website').value).to.equal('acme.example');
      expect($<HTMLSelectElement>(el, '#info-companyType').value).to.equal('PAYMENT_GATEWAY');
      await fill(el, 'info-website', 'acme-pay.example');
      await click(el, '[data-testid="info-submit"]');
      await atStep(el, 'parties');
      const patches = log.entries.filter((e) => e.method === 'PATCH');
      expect(patches).to.have.length(2);
      expect((patches[1]!.body as { website: string }).website).to.equal('https://acme-pay.example');
    });

    it('a page loaded at the parties step goes back to the information the server holds', async () => {
      const backend = business({ infoSent: true });
      backend.customer = { ...backend.customer!, additionalInformation: { type: 'BUSINESS', website: 'https://held.example', companyType: 'E_COMMERCE' } as never };
      const el = await mount('en');
      await atStep(el, 'parties');
      await click(el, '[data-testid="back"]');
      await atStep(el, 'info');
      expect($(el, '#info-website').value).to.equal('https://held.example');
      expect($<HTMLSelectElement>(el, '#info-companyType').value).to.equal('E_COMMERCE');
    });

    for (const lang of ['en', 'pt-BR', 'es'] as const) {
      it(`Back is offered from the documents to the parties, with the keyboard, and fits 320 px (${lang})`, async () => {
        await setViewport({ width: 320, height: 900 });
        business({ infoSent: true });
        const el = await mount(lang);
        await atStep(el, 'parties');
        await addShareholder(el, 'Ana Souza', ANA_CPF, '60');
        await saveParty(el, 'Ana Souza');
        await click(el, '[data-testid="parties-continue"]');
        await atStep(el, 'documents');
        const back = $<HTMLButtonElement>(el, '[data-testid="back"]');
        expect(back.textContent!.trim()).to.equal({ en: 'Back', 'pt-BR': 'Voltar', es: 'Atrás' }[lang]);
        expect(pastTheCard(el)).to.deep.equal([]);
        back.focus();
        await sendKeys({ press: 'Enter' });
        await atStep(el, 'parties');
        expect(text(el, '.party-name')).to.equal('Ana Souza');
        await expect(el).to.be.accessible();
      });
    }

    it('Back follows the order of the steps, and never reaches the customer step', () => {
      for (const type of ['INDIVIDUAL', 'BUSINESS'] as const) {
        const ids = stepsFor(type).map((step) => step.id);
        const ctx = { customer: { type, verification: { status: 'NOT_STARTED' } } } as unknown as StepContext;
        expect(previousStep(ctx, 'info')).to.equal(undefined);
        for (let i = 2; i < ids.length - 1; i++) expect(previousStep(ctx, ids[i]!), `${type} ${ids[i]}`).to.equal(ids[i - 1]);
      }
    });

    it('no Back once the review has started', async () => {
      const backend = business({ infoSent: true });
      backend.decide('FINAL_REJECTION');
      const el = await mount('en');
      await atStep(el, 'status');
      expect(q(el, '[data-testid="back"]') === null).to.equal(true);
    });
  });

  it('at 320 px the ownership messages stay inside the card (pt-BR)', async () => {
    await setViewport({ width: 320, height: 900 });
    business({ infoSent: true });
    const el = await mount('pt-BR');
    await atStep(el, 'parties');
    await addShareholder(el, 'Ana Souza', ANA_CPF, '15');
    await click(el, '[data-testid="party-save"]');
    expect(text(el, '#party-ownershipPercentage-error')).to.contain('25%');
    expect(pastTheCard(el)).to.deep.equal([]);
  });
});

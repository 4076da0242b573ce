// <ramp-onboarding>'s first step in Chromium: accessibility, defaults, typing and validation, server problems, events, idempotent retries, pt-BR, keyboard only, theme.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/define';
import type { RampOnboarding } from '../../../src/components/onboarding/onboarding';
import type { RampCustomerCreatedEvent, RampErrorEvent } from '../../../src/events';
import { http, HttpResponse } from 'msw';
import { bffScenarios, createCustomerInvalid, mockIds, problemResponse, RequestLog } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';
import { expectFocus } from '../support/focus';

const VALID_CPF = '52998224725';
const VALID_CNPJ = '11222333000181';

// ── helpers ──

const part = <T extends Element = HTMLElement>(el: RampOnboarding, selector: string): T | null => el.shadowRoot!.querySelector<T>(selector);
const $ = <T extends Element = HTMLInputElement>(el: RampOnboarding, selector: string): T => {
  const found = part<T>(el, selector);
  if (!found) throw new Error(`${selector} not rendered`);
  return found;
};
const focused = (el: RampOnboarding) => el.shadowRoot!.activeElement;
const errorText = (el: RampOnboarding, field: string) => part(el, `#${field}-error`)?.textContent?.trim();
const statusText = (el: RampOnboarding) => $(el, '[role="status"]').textContent?.trim();

/** YYYY-MM-DD, `years` before today (UTC), plus `days`. */
function isoYearsAgo(years: number, days = 0): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
/** The keystrokes an en-US date input takes: MMDDYYYY. */
const dateKeys = (iso: string) => `${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(0, 4)}`;

async function typeInto(el: RampOnboarding, selector: string, text: string): Promise<void> {
  $(el, selector).focus();
  await sendKeys({ type: text });
  await el.updateComplete;
}

/** Tab until focus leaves the current control (a date input takes one Tab per segment). */
async function leave(el: RampOnboarding): Promise<void> {
  const start = focused(el);
  for (let i = 0; i < 4 && focused(el) === start; i++) await sendKeys({ press: 'Tab' });
  await el.updateComplete;
}

/** Tab until the control matching `selector` has focus. */
async function tabTo(el: RampOnboarding, selector: string): Promise<void> {
  for (let i = 0; i < 12 && focused(el) !== part(el, selector); i++) await sendKeys({ press: 'Tab' });
  expectFocus(focused(el), part(el, selector), `focus should reach ${selector}`);
}

async function mount(template = html`<ramp-onboarding session="onboarding-token" api-base="/bff" lang="en"></ramp-onboarding>`) {
  const el = await fixture<RampOnboarding>(template);
  await el.updateComplete;
  return el;
}

async function fillIndividual(el: RampOnboarding, birthDate = '1990-05-17'): Promise<void> {
  await typeInto(el, '#name', 'Ana Souza');
  await typeInto(el, '#taxId', VALID_CPF);
  await typeInto(el, '#birthDate', dateKeys(birthDate));
  await typeInto(el, '#email', 'ana@example.com');
}

async function submit(el: RampOnboarding): Promise<void> {
  $(el, '[part="submit"]').click();
  await el.updateComplete;
}

function collect<K extends 'ramp-customer-created' | 'ramp-error'>(target: EventTarget, type: K) {
  const events: (K extends 'ramp-customer-created' ? RampCustomerCreatedEvent : RampErrorEvent)[] = [];
  target.addEventListener(type, (e) => events.push(e as never));
  return events;
}

const succeeded = (el: RampOnboarding) => waitUntil(() => part(el, '[data-testid="success"]'), 'the success panel should show', { timeout: 5_000 });

// ── tests ──

describe('<ramp-onboarding>', () => {
  before(startMockBff);
  // An onboarding session has no customer yet: the element's look-up learns so, as from the BFF.
  beforeEach(() => worker.use(http.get('*/bff/session', () => HttpResponse.json({ customerId: null, expiresAt: new Date(Date.now() + 900_000).toISOString() }))));
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  describe('accessibility', () => {
    it('the empty form has no axe violations', async () => {
      const el = await mount();
      await expect(el).to.be.accessible();
    });

    it('the form with every error showing has no axe violations', async () => {
      const el = await mount();
      await submit(el);
      expect(errorText(el, 'name')).to.be.a('string');
      await expect(el).to.be.accessible();
    });

    it('the business form, in Portuguese and dark, has no axe violations', async () => {
      const el = await mount(html`<ramp-onboarding session="t" api-base="/bff" lang="pt-BR" theme="dark"></ramp-onboarding>`);
      $(el, '[data-testid="type-BUSINESS"]').click();
      await el.updateComplete;
      await submit(el);
      await expect(el).to.be.accessible();
    });

    it('every input has a label, and errors are tied to their field', async () => {
      const el = await mount();
      await submit(el);
      for (const input of el.shadowRoot!.querySelectorAll<HTMLInputElement>('input:not([type="radio"]), select')) {
        expect(part(el, `label[for="${input.id}"]`), `label for #${input.id}`).to.exist;
        if (input.id === 'email') continue; // optional for individuals: no error when empty
        if (input.id === 'country') continue; // an individual's country starts as Brazil: nothing to fix
        expect(input.getAttribute('aria-invalid'), input.id).to.equal('true');
        expect(input.getAttribute('aria-describedby')?.split(' '), input.id).to.include(`${input.id}-error`);
      }
    });
  });

  describe('defaults', () => {
    it('starts on the customer step with "individual" chosen and no error shown', async () => {
      const el = await mount();
      expect(el.currentStep).to.equal('customer');
      expect($(el, '[data-testid="type-INDIVIDUAL"]').checked).to.equal(true);
      const fields = [...el.shadowRoot!.querySelectorAll('input:not([type="radio"]), select')].map((i) => i.id);
      expect(fields).to.deep.equal(['name', 'country', 'taxId', 'birthDate', 'email']);
      expect($<HTMLSelectElement>(el, '#country').value, 'a person starts as Brazilian').to.equal('BRA');
      expect(el.shadowRoot!.querySelectorAll('[part="error"]')).to.have.length(0);
      expect($(el, 'label[for="email"]').textContent).to.contain('optional');
      expect($(el, '[part="submit"]').textContent?.trim()).to.equal('Create account');
      expect($(el, '[aria-current="step"]').textContent).to.contain('Your details');
    });

    it('an absent lang or session leaves no empty attribute behind', async () => {
      const el = await mount(html`<ramp-onboarding api-base="/bff"></ramp-onboarding>`);
      expect(el.hasAttribute('lang')).to.equal(false);
      expect(el.hasAttribute('session')).to.equal(false);
      expect(el.hasAttribute('theme')).to.equal(false);
    });

    it('without api-base, the BFF is /bff beside the folder the script came from', async () => {
      const el = document.createElement('ramp-onboarding');
      const scriptFolder = new URL('../../../src/client/', import.meta.url);
      expect(el.apiBase).to.equal(new URL('../bff', scriptFolder).href);
    });
  });

  describe('tax id as typed', () => {
    it('a CPF is shown as 123.456.789-09 while typing and sent as digits', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.success({ log }));
      const el = await mount();
      await typeInto(el, '#taxId', '5299822');
      expect($(el, '#taxId').value).to.equal('529.982.2');
      await sendKeys({ type: '4725' });
      expect($(el, '#taxId').value).to.equal('529.982.247-25');
      expect($(el, '#taxId').selectionStart).to.equal(14);
      await typeInto(el, '#name', 'Ana Souza');
      await typeInto(el, '#birthDate', dateKeys('1990-05-17'));
      await submit(el);
      await succeeded(el);
      expect((log.last!.body as { taxId: string }).taxId).to.equal(VALID_CPF);
    });

    it('a CNPJ is shown as 11.222.333/0001-81, and an alphanumeric one keeps its letters', async () => {
      const el = await mount();
      $(el, '[data-testid="type-BUSINESS"]').click();
      await el.updateComplete;
      await typeInto(el, '#taxId', VALID_CNPJ);
      expect($(el, '#taxId').value).to.equal('11.222.333/0001-81');
      $(el, '#taxId').value = '';
      await typeInto(el, '#taxId', '12abc34501de35');
      expect($(el, '#taxId').value).to.equal('12.ABC.345/01DE-35');
    });
  });

  describe('validation after touching', () => {
    it('an error shows only once the field is left, then is linked and announced', async () => {
      const el = await mount();
      await typeInto(el, '#taxId', '52998224726');
      expect(errorText(el, 'taxId'), 'not while typing').to.equal(undefined);
      await leave(el);
      expect(errorText(el, 'taxId')).to.equal('This CPF is not valid: check the 11 digits.');
      expect($(el, '#taxId').getAttribute('aria-invalid')).to.equal('true');
      expect($(el, '#taxId').getAttribute('aria-describedby')).to.contain('taxId-error');
      expect(statusText(el)).to.equal('CPF: This CPF is not valid: check the 11 digits.');
    });

    it('an untouched field shows nothing while another is left', async () => {
      const el = await mount();
      await typeInto(el, '#name', 'Ana');
      await leave(el);
      expect(errorText(el, 'name')).to.equal(undefined);
      expect(errorText(el, 'birthDate')).to.equal(undefined);
    });

    it('a birth date under 18 years ago is refused: the customer must be an adult', async () => {
      const el = await mount();
      await typeInto(el, '#birthDate', dateKeys(isoYearsAgo(18, 1)));
      await leave(el);
      expect(errorText(el, 'birthDate')).to.equal('You must be at least 18 years old.');
    });

    it('a date in the future is refused', async () => {
      const el = await mount();
      await typeInto(el, '#birthDate', dateKeys(isoYearsAgo(-1)));
      await leave(el);
      expect(errorText(el, 'birthDate')).to.equal('The date cannot be in the future.');
    });

    it('an email that is given must be valid', async () => {
      const el = await mount();
      await typeInto(el, '#email', 'ana@example');
      await leave(el);
      expect(errorText(el, 'email')).to.equal('Enter an email address like name@example.com.');
    });

    it('fixing a field removes its error', async () => {
      const el = await mount();
      await typeInto(el, '#email', 'ana@example');
      await leave(el);
      await typeInto(el, '#email', '.com');
      expect(errorText(el, 'email')).to.equal(undefined);
      expect($(el, '#email').getAttribute('aria-invalid')).to.equal('false');
    });

    it('submitting with errors shows them all, announces how many, focuses the first bad field and sends nothing', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.success({ log }));
      const el = await mount();
      await typeInto(el, '#name', 'Ana');
      await submit(el);
      await aTimeout(0);
      expect(errorText(el, 'taxId')).to.equal('Fill in this field.');
      expect(errorText(el, 'birthDate')).to.equal('Fill in this field.');
      expect(errorText(el, 'name')).to.equal(undefined);
      expect(statusText(el)).to.equal('2 fields need your attention.');
      expect(focused(el)?.id).to.equal('taxId');
      expect(log.entries).to.have.length(0);
    });
  });

  describe('the country of an individual', () => {
    const chooseCountry = async (el: RampOnboarding, code: string) => {
      const select = $<HTMLSelectElement>(el, '#country');
      select.focus(); // as a person does: the whole list is there once the select is used
      await el.updateComplete;
      select.value = code;
      select.dispatchEvent(new Event('change'));
      await el.updateComplete;
    };

    it('a non-Brazilian gives their own tax id, unmasked, and is created with their country', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.success({ log }));
      const el = await mount();
      expect($(el, 'label[for="country"]').textContent?.trim()).to.equal('Country of your tax ID');
      expect($(el, 'label[for="taxId"]').textContent?.trim()).to.equal('CPF');
      await chooseCountry(el, 'USA');
      expect($(el, 'label[for="taxId"]').textContent?.trim()).to.equal('Tax ID');
      expect($(el, '#taxId-hint').textContent?.trim()).to.equal('Your tax ID in that country, letters and digits');
      expect($(el, '#taxId').getAttribute('inputmode')).to.equal('text');
      await typeInto(el, '#name', 'John Doe');
      await typeInto(el, '#taxId', '123-45-6780');
      expect($(el, '#taxId').value, 'no CPF mask').to.equal('123-45-6780');
      await typeInto(el, '#birthDate', dateKeys('1985-01-31'));
      await submit(el);
      await succeeded(el);
      expect(log.last!.body).to.deep.equal({ type: 'INDIVIDUAL', name: 'John Doe', taxId: '123456780', birthDate: '1985-01-31', country: 'USA' });
    });

    it('the CPF mask and check digits apply to Brazil only: switching back re-masks and re-checks what was typed', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.success({ log }));
      const el = await mount();
      await chooseCountry(el, 'DEU');
      await typeInto(el, '#taxId', '65929970489');
      await leave(el);
      expect(errorText(el, 'taxId'), 'fine as a German id').to.equal(undefined);
      await chooseCountry(el, 'BRA');
      expect($(el, '#taxId').value).to.equal('659.299.704-89');
      expect(errorText(el, 'taxId')).to.equal('This CPF is not valid: check the 11 digits.');
      await typeInto(el, '#name', 'Ana Souza');
      await typeInto(el, '#birthDate', dateKeys('1990-05-17'));
      await submit(el);
      expect(log.entries, 'nothing is sent with a bad CPF').to.have.length(0);
    });

    it('a business chooses its own country; back to individual, an untouched country is Brazil again', async () => {
      const el = await mount();
      $(el, '[data-testid="type-BUSINESS"]').click();
      await el.updateComplete;
      expect($<HTMLSelectElement>(el, '#country').value).to.equal('');
      expect($(el, 'label[for="country"]').textContent?.trim()).to.equal('Country of incorporation');
      $(el, '[data-testid="type-INDIVIDUAL"]').click();
      await el.updateComplete;
      expect($<HTMLSelectElement>(el, '#country').value).to.equal('BRA');
    });
  });

  describe('business customers', () => {
    it('a business needs a country: leaving the select empty is an error', async () => {
      const el = await mount();
      $(el, '[data-testid="type-BUSINESS"]').click();
      await el.updateComplete;
      $(el, '#country').focus();
      await leave(el);
      expect(errorText(el, 'country')).to.equal('Choose a country.');
    });

    for (const [lang, germany] of [
      ['pt-BR', 'Alemanha'],
      ['es', 'Alemania'],
    ] as const) {
      it(`the countries are named in the UI language, Brazil first (${lang})`, async () => {
        const el = await mount(html`<ramp-onboarding session="t" api-base="/bff" lang=${lang}></ramp-onboarding>`);
        $(el, '[data-testid="type-BUSINESS"]').click();
        await el.updateComplete;
        const select = $<HTMLSelectElement>(el, '#country');
        await waitUntil(() => select.options.length > 240, 'the whole list once idle', { timeout: 3000 });
        const options = [...select.options];
        expect(options[0]!.value).to.equal('');
        expect([options[1]!.value, options[1]!.text]).to.deep.equal(['BRA', 'Brasil']);
        expect(options.find((o) => o.value === 'DEU')?.text).to.equal(germany);
      });
    }

    describe('before the page is idle', () => {
      // Idle callbacks are held back: the first paint's short list stays until the test lets them run.
      let held: IdleRequestCallback[] = [];
      const original = window.requestIdleCallback;
      beforeEach(() => {
        held = [];
        window.requestIdleCallback = ((cb: IdleRequestCallback) => held.push(cb)) as typeof requestIdleCallback;
      });
      afterEach(() => {
        window.requestIdleCallback = original;
      });
      const values = (el: RampOnboarding) => [...$<HTMLSelectElement>(el, '#country').options].map((o) => o.value);

      it('the first paint offers Brazil (and the current choice) only; the rest once the page is idle, a second after the first paint', async () => {
        const el = await mount();
        expect(values(el)).to.deep.equal(['', 'BRA']);
        // Not at once: the first second after the first paint is when a person starts typing.
        await new Promise((r) => setTimeout(r, 500));
        expect(held.length, 'no idle fill asked for yet').to.equal(0);
        await waitUntil(() => held.length > 0, 'the idle fill asked for after a second', { timeout: 3000 });
        expect(values(el)).to.deep.equal(['', 'BRA']);
        held.forEach((cb) => cb({ didTimeout: false, timeRemaining: () => 50 }));
        await el.updateComplete;
        expect(values(el).length).to.be.greaterThan(240);
        expect($<HTMLSelectElement>(el, '#country').value).to.equal('BRA');
      });

      for (const [how, use] of [
        ['a pointer', (s: HTMLSelectElement) => s.dispatchEvent(new Event('pointerdown'))],
        ['the keyboard (focus)', (s: HTMLSelectElement) => s.focus()],
      ] as const) {
        it(`the whole list is there as soon as ${how} reaches the select`, async () => {
          const el = await mount();
          const select = $<HTMLSelectElement>(el, '#country');
          expect(select.options.length).to.equal(2);
          use(select);
          await el.updateComplete;
          expect(select.options.length).to.be.greaterThan(240);
          expect(select.value, 'the choice is kept').to.equal('BRA');
        });
      }
    });

    it('a business is created with legalName, country, CNPJ, incorporationDate and email', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.success({ log }));
      const el = await mount();
      $(el, '[data-testid="type-BUSINESS"]').click();
      await el.updateComplete;
      expect([...el.shadowRoot!.querySelectorAll('input:not([type="radio"]), select')].map((i) => i.id)).to.deep.equal([
        'legalName',
        'country',
        'taxId',
        'incorporationDate',
        'email',
      ]);
      await typeInto(el, '#legalName', 'Acme Pagamentos Ltda');
      $(el, '#country').focus();
      await sendKeys({ press: 'ArrowDown' }); // the first country: Brazil
      await el.updateComplete;
      expect($<HTMLSelectElement>(el, '#country').value).to.equal('BRA');
      await typeInto(el, '#taxId', VALID_CNPJ);
      await typeInto(el, '#incorporationDate', dateKeys('2015-03-02'));
      await typeInto(el, '#email', 'ops@acme.example');
      await submit(el);
      await succeeded(el);
      expect(log.last!.body).to.deep.equal({
        type: 'BUSINESS',
        legalName: 'Acme Pagamentos Ltda',
        taxId: VALID_CNPJ,
        incorporationDate: '2015-03-02',
        country: 'BRA',
        email: 'ops@acme.example',
      });
    });

    it('a foreign business has an unformatted tax id checked as letters and digits', async () => {
      const el = await mount();
      $(el, '[data-testid="type-BUSINESS"]').click();
      await el.updateComplete;
      const select = $<HTMLSelectElement>(el, '#country');
      select.focus();
      await el.updateComplete;
      select.value = 'DEU';
      select.dispatchEvent(new Event('change'));
      await el.updateComplete;
      expect($(el, 'label[for="taxId"]').textContent?.trim()).to.equal('Tax ID');
      await typeInto(el, '#taxId', 'x');
      await leave(el);
      expect(errorText(el, 'taxId')).to.equal('Use 4 to 32 letters and digits.');
    });
  });

  describe('server problems', () => {
    it('a 400 problem lands on the field it names, translated, and focus goes there', async () => {
      worker.use(createCustomerInvalid([{ path: 'birthDate', message: 'must be at least 18 years ago: the customer must be an adult' }]));
      const el = await mount();
      await fillIndividual(el);
      await submit(el);
      await waitUntil(() => errorText(el, 'birthDate'), 'the server error should show');
      expect(errorText(el, 'birthDate')).to.equal('You must be at least 18 years old.');
      expect(focused(el)?.id).to.equal('birthDate');
      expect(part(el, '[data-testid="alert"]')).to.equal(null);
    });

    it('a server problem the client has no rule for lands on its field in our words, never the server’s', async () => {
      worker.use(createCustomerInvalid([{ path: 'email', message: 'is on a blocklist' }]));
      const el = await mount();
      await fillIndividual(el);
      await submit(el);
      await waitUntil(() => errorText(el, 'email'));
      expect(errorText(el, 'email')).to.equal('This value was not accepted.');
      expect(el.shadowRoot!.textContent).not.to.contain('blocklist');
      await typeInto(el, '#email', 'x');
      expect(errorText(el, 'email'), 'editing the field clears the server error').to.equal(undefined);
    });

    it('a 409 for a duplicate tax id shows on the tax id field, with no ramp-error', async () => {
      worker.use(...bffScenarios.conflict());
      const el = await mount();
      const errors = collect(el, 'ramp-error');
      await fillIndividual(el);
      await submit(el);
      await waitUntil(() => errorText(el, 'taxId'));
      expect(errorText(el, 'taxId')).to.equal('An account with this tax ID already exists.');
      expect(focused(el)?.id).to.equal('taxId');
      expect(errors).to.have.length(0);
    });

    it('a 409 that is not about the data (the session already made its customer) is an alert without retry', async () => {
      worker.use(
        http.post('*/bff/customers', () =>
          problemResponse(409, 'CONFLICT', 'This onboarding session already created a customer. Ask the partner backend for a session bound to it.'),
        ),
      );
      const el = await mount();
      const errors = collect(el, 'ramp-error');
      await fillIndividual(el);
      await submit(el);
      await waitUntil(() => part(el, '[data-testid="alert"]'), 'the alert should show');
      expect($(el, '[data-testid="alert"]').dataset.kind).to.equal('CONFLICT');
      expect(part(el, '[data-testid="retry"]')).to.equal(null);
      expect(errorText(el, 'taxId')).to.equal(undefined);
      expect(errors.map((e) => e.detail.code)).to.deep.equal(['CONFLICT']);
    });

    it('an expired session is a form-level alert with a retry, reported as ramp-error', async () => {
      worker.use(...bffScenarios.expiredSession());
      const el = await mount();
      const errors = collect(document, 'ramp-error');
      await fillIndividual(el);
      await submit(el);
      await waitUntil(() => part(el, '[data-testid="alert"]'), 'the alert should show');
      expect($(el, '[data-testid="alert"]').getAttribute('role')).to.equal('alert');
      expect($(el, '[data-testid="alert"]').textContent).to.contain('Your session has expired.');
      expect(part(el, '[data-testid="retry"]')).to.exist;
      expect(errors.map((e) => e.detail)).to.deep.equal([
        { code: 'UNAUTHENTICATED', status: 401, detail: 'The widget session is missing, invalid or expired.', requestId: 'req_mock', operation: 'createCustomer' },
      ]);
    });
  });

  describe('creating the customer', () => {
    it('fires ramp-customer-created once, bubbling and composed, after adopting the bound session', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.success({ log }));
      const el = await mount();
      const onElement = collect(el, 'ramp-customer-created');
      const onDocument = collect(document, 'ramp-customer-created');
      let sessionWhenFired = '';
      el.addEventListener('ramp-customer-created', () => (sessionWhenFired = el.session));
      await fillIndividual(el);
      await submit(el);
      await succeeded(el);
      await aTimeout(50);
      expect(onElement).to.have.length(1);
      expect(onDocument).to.have.length(1);
      const { detail, bubbles, composed } = onElement[0]!;
      expect([bubbles, composed]).to.deep.equal([true, true]);
      expect(detail.customer.id).to.equal(mockIds.customer);
      expect(detail.customer.name).to.equal('Ana Souza');
      expect(detail.session.customerId).to.equal(mockIds.customer);
      expect(sessionWhenFired).to.equal(detail.session.token);
      expect(el.getAttribute('session')).to.equal(detail.session.token);
      expect(el.customer?.id).to.equal(mockIds.customer);
      expect(log.last!.headers.authorization).to.equal('Bearer onboarding-token');
    });

    it('once created, the customer form gives way to the next step under an "account created" panel that is announced and takes focus', async () => {
      worker.use(...bffScenarios.success());
      const el = await mount();
      await fillIndividual(el);
      await submit(el);
      await succeeded(el);
      await el.updateComplete;
      expect(el.currentStep).to.equal('info');
      expect(part(el, '[data-testid="type-INDIVIDUAL"]') === null, 'the customer form is gone').to.equal(true);
      expect(part(el, '[data-testid="info-form"]') !== null, 'the additional-information form follows').to.equal(true);
      expect($(el, '[data-testid="customer-id"]').textContent).to.equal(mockIds.customer);
      expect(statusText(el)).to.equal('Your account is created');
      expect(focused(el)?.id).to.equal('done-title');
      expect($(el, '[aria-current="step"]').textContent).to.contain('About you');
      await expect(el).to.be.accessible();
    });

    it('a double click while sending creates one customer: one request, one event', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.slow({ log, delayMs: 400 }));
      const el = await mount();
      const created = collect(el, 'ramp-customer-created');
      await fillIndividual(el);
      const button = $(el, '[part="submit"]');
      button.click();
      button.click();
      await el.updateComplete;
      expect(button.getAttribute('aria-disabled')).to.equal('true');
      expect(button.textContent?.trim()).to.equal('Creating account…');
      // Once the request is at the server, aborting it on the client would not undo it: a click now must send nothing.
      await waitUntil(() => log.entries.length === 1, 'the first request should arrive');
      button.click();
      await succeeded(el);
      await aTimeout(50);
      expect(log.entries).to.have.length(1);
      expect(created).to.have.length(1);
    });

    it('a retry after a network failure sends the same Idempotency-Key, so at most one customer is made', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.offline({ log }));
      const el = await mount();
      const errors = collect(el, 'ramp-error');
      await fillIndividual(el);
      await submit(el);
      await waitUntil(() => part(el, '[data-testid="alert"]'), 'network alert', { timeout: 5_000 });
      expect($(el, '[data-testid="alert"]').dataset.kind).to.equal('NETWORK');
      expect(errors.map((e) => e.detail.code)).to.deep.equal(['NETWORK_ERROR']);
      worker.resetHandlers();
      worker.use(...bffScenarios.success({ log }));
      $(el, '[data-testid="retry"]').click();
      await succeeded(el);
      expect(log.entries.length).to.be.greaterThan(1);
      const keys = new Set(log.entries.map((e) => e.headers['idempotency-key']));
      expect(keys.size).to.equal(1);
      expect([...keys][0]).to.match(/^[0-9a-f-]{36}$/);
    });

    it('changed data after a failure is a new attempt with a new Idempotency-Key', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.expiredSession({ log }));
      const el = await mount();
      await fillIndividual(el);
      await submit(el);
      await waitUntil(() => part(el, '[data-testid="alert"]'));
      await typeInto(el, '#name', ' Lima');
      await submit(el);
      await waitUntil(() => log.entries.length === 2);
      const [first, second] = log.entries.map((e) => e.headers['idempotency-key']);
      expect(first).not.to.equal(second);
    });
  });

  describe('languages', () => {
    it('renders in Brazilian Portuguese with lang="pt-BR"', async () => {
      const el = await mount(html`<ramp-onboarding session="t" api-base="/bff" lang="pt-BR"></ramp-onboarding>`);
      expect($(el, 'legend').textContent?.trim()).to.equal('Tipo de conta');
      expect($(el, 'label[for="name"]').textContent?.trim()).to.equal('Nome completo');
      expect($(el, '[part="submit"]').textContent?.trim()).to.equal('Criar conta');
      expect($(el, '[part="base"]').getAttribute('lang')).to.equal('pt-BR');
      await submit(el);
      expect(errorText(el, 'name')).to.equal('Preencha este campo.');
      expect(statusText(el)).to.equal('3 campos precisam da sua atenção.');
    });

    it('follows a change of its lang attribute', async () => {
      const el = await mount();
      el.setAttribute('lang', 'pt-BR');
      await el.updateComplete;
      expect($(el, '[part="submit"]').textContent?.trim()).to.equal('Criar conta');
      el.lang = 'en';
      await el.updateComplete;
      expect(el.getAttribute('lang')).to.equal('en');
      expect($(el, '[part="submit"]').textContent?.trim()).to.equal('Create account');
    });

    it('without its own lang, takes the closest ancestor [lang] and follows it', async () => {
      const wrapper = await fixture<HTMLDivElement>(html`<div lang="pt-BR"><ramp-onboarding session="t" api-base="/bff"></ramp-onboarding></div>`);
      const el = wrapper.querySelector('ramp-onboarding')!;
      await el.updateComplete;
      expect($(el, '[part="submit"]').textContent?.trim()).to.equal('Criar conta');
      wrapper.setAttribute('lang', 'en');
      await waitUntil(() => $(el, '[part="submit"]').textContent?.trim() === 'Create account', 'should follow the ancestor');
    });
  });

  describe('keyboard only', () => {
    it('a customer can be created with the keyboard alone', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.success({ log }));
      const wrapper = await fixture<HTMLDivElement>(html`
        <div>
          <button id="before">before</button>
          <ramp-onboarding session="t" api-base="/bff" lang="en"></ramp-onboarding>
        </div>
      `);
      const el = wrapper.querySelector('ramp-onboarding')!;
      await el.updateComplete;
      wrapper.querySelector<HTMLButtonElement>('#before')!.focus();
      await sendKeys({ press: 'Tab' });
      expectFocus(focused(el), part(el, '[data-testid="type-INDIVIDUAL"]'));
      await sendKeys({ press: 'ArrowRight' });
      await el.updateComplete;
      expect($(el, '[data-testid="type-BUSINESS"]').checked, 'arrow keys move through the radio group').to.equal(true);
      await sendKeys({ press: 'ArrowLeft' });
      await el.updateComplete;
      expect($(el, '[data-testid="type-INDIVIDUAL"]').checked).to.equal(true);
      await sendKeys({ press: 'Tab' });
      expect(focused(el)?.id).to.equal('name');
      await sendKeys({ type: 'Ana Souza' });
      await sendKeys({ press: 'Tab' });
      expect(focused(el)?.id).to.equal('country');
      await sendKeys({ press: 'Tab' });
      expect(focused(el)?.id).to.equal('taxId');
      await sendKeys({ type: VALID_CPF });
      await sendKeys({ press: 'Tab' });
      expect(focused(el)?.id).to.equal('birthDate');
      await sendKeys({ type: dateKeys('1990-05-17') });
      await tabTo(el, '#email');
      await sendKeys({ type: 'ana@example.com' });
      await sendKeys({ press: 'Tab' });
      expectFocus(focused(el), part(el, '[part="submit"]'));
      await sendKeys({ press: 'Enter' });
      await succeeded(el);
      expect(log.last!.body).to.deep.equal({ type: 'INDIVIDUAL', name: 'Ana Souza', taxId: VALID_CPF, birthDate: '1990-05-17', country: 'BRA', email: 'ana@example.com' });
    });

    it('Enter in a field submits the form', async () => {
      const log = new RequestLog();
      worker.use(...bffScenarios.success({ log }));
      const el = await mount();
      await fillIndividual(el);
      await sendKeys({ press: 'Enter' });
      await succeeded(el);
      expect(log.entries).to.have.length(1);
    });
  });

  describe('theme', () => {
    const background = (el: RampOnboarding) => getComputedStyle($(el, '[part="base"]')).backgroundColor;

    it('is light by default, dark with theme="dark", and the partner tokens win', async () => {
      const light = await mount(html`<ramp-onboarding theme="light" api-base="/bff"></ramp-onboarding>`);
      expect(background(light)).to.equal('rgb(255, 255, 255)');
      const dark = await mount(html`<ramp-onboarding theme="dark" api-base="/bff"></ramp-onboarding>`);
      expect(background(dark)).to.equal('rgb(21, 24, 31)');
      const branded = await mount(html`<ramp-onboarding theme="dark" api-base="/bff" style="--ramp-color-surface: rgb(1, 2, 3)"></ramp-onboarding>`);
      expect(background(branded)).to.equal('rgb(1, 2, 3)');
      const component = await mount(
        html`<ramp-onboarding api-base="/bff" style="--ramp-color-surface: rgb(1, 2, 3); --ramp-onboarding-background: rgb(4, 5, 6)"></ramp-onboarding>`,
      );
      expect(background(component), 'tier 2 over tier 1').to.equal('rgb(4, 5, 6)');
    });

    it('exposes parts for styling', async () => {
      const el = await mount();
      for (const name of ['base', 'title', 'steps', 'form', 'type-group', 'field', 'label', 'input', 'submit']) {
        expect(part(el, `[part~="${name}"]`), name).to.exist;
      }
    });
  });
});

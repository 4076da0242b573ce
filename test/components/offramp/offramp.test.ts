// <ramp-offramp> in Chromium: accessibility, paging the accounts, adding one per rail with the server's checks, the purpose rule, the payout request, its life to SUCCESS or REFUNDED, and problems.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/define';
import type { RampOfframp } from '../../../src/components/offramp/offramp';
import type { BankAccount } from '../../../src/contract/bank-accounts';
import type { RampBankAccountCreatedEvent, RampRequoteRequestedEvent, RampTransactionCreatedEvent, RampTransactionUpdatedEvent } from '../../../src/events';
import {
  bankAccountInvalid,
  MockMoneyBackend,
  mockBankAccount,
  mockMoneyCustomer,
  mockSellQuote,
  moneyIds,
  moneyScenarios,
  RequestLog,
  transactionProblem,
  type MoneyBackendOptions,
} from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';
import { expectFocus } from '../support/focus';

// ── helpers ──

const part = <T extends Element = HTMLElement>(el: RampOfframp, selector: string): T | null => el.shadowRoot!.querySelector<T>(selector);
const $ = <T extends Element = HTMLElement>(el: RampOfframp, selector: string): T => {
  const found = part<T>(el, selector);
  if (!found) throw new Error(`${selector} not rendered`);
  return found;
};
const all = <T extends Element = HTMLElement>(el: RampOfframp, selector: string): T[] => [...el.shadowRoot!.querySelectorAll<T>(selector)];
const text = (el: RampOfframp, selector: string) => part(el, selector)?.textContent?.replace(/\s+/g, ' ').trim();
const statusText = (el: RampOfframp) => text(el, '[role="status"]');
const testid = (id: string) => `[data-testid="${id}"]`;
const radio = (el: RampOfframp, account: BankAccount) => $<HTMLInputElement>(el, `input[name="bankAccount"][value="${account.id}"]`);
const accountNames = (el: RampOfframp) => all(el, '[part~="account"] .account-head span:first-child').map((s) => s.textContent?.trim());

function backend(o: MoneyBackendOptions = {}): { log: RequestLog; backend: MockMoneyBackend } {
  const log = new RequestLog();
  const b = new MockMoneyBackend({ log, ...o });
  worker.use(...b.handlers());
  return { log, backend: b };
}

async function mount(options: { lang?: string; theme?: string; locked?: boolean; pageSize?: number } = {}) {
  const quote = mockSellQuote();
  const el = await fixture<RampOfframp>(html`
    <ramp-offramp
      api-base="/bff"
      session="bound-session"
      lang=${options.lang ?? 'en'}
      theme=${options.theme ?? 'light'}
      exchange-rate-id=${options.locked === false ? '' : moneyIds.lockedSellQuote}
      amount=${options.locked === false ? '100.00' : ''}
      page-size=${options.pageSize ?? 10}
      poll-interval="40"
      .quote=${options.locked === false ? undefined : quote}
    ></ramp-offramp>
  `);
  await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="account-list"], [data-testid="accounts-empty"]'), 'the accounts should load', { timeout: 3_000 });
  await el.updateComplete;
  return el;
}

async function choose(el: RampOfframp, selector: string, value: string): Promise<void> {
  const select = $<HTMLSelectElement>(el, selector);
  select.value = value;
  select.dispatchEvent(new Event('change'));
  await el.updateComplete;
}

async function fill(el: RampOfframp, field: string, value: string): Promise<void> {
  const input = $<HTMLInputElement>(el, `#bank-${field}`);
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { inputType: 'insertText' }));
  input.dispatchEvent(new FocusEvent('blur'));
  await el.updateComplete;
}

async function openForm(el: RampOfframp, rail: 'PIX' | 'SEPA' | 'SWIFT' = 'PIX'): Promise<void> {
  if (!part(el, testid('bank-form'))) $(el, testid('add-account')).click();
  await el.updateComplete;
  $(el, testid(`rail-${rail}`)).click();
  await el.updateComplete;
}

async function fillHolder(el: RampOfframp): Promise<void> {
  await fill(el, 'name', 'My account');
  await fill(el, 'holderName', 'Ana Souza');
  await fill(el, 'line1', 'Rua Augusta 100');
  await fill(el, 'city', 'São Paulo');
  await fill(el, 'state', 'SP');
  await fill(el, 'postalCode', '01304-000');
}

async function save(el: RampOfframp): Promise<void> {
  $(el, testid('save-account')).click();
  await el.updateComplete;
  await aTimeout(30);
}

async function pick(el: RampOfframp, account: BankAccount): Promise<void> {
  radio(el, account).click();
  await el.updateComplete;
}

function collect<T extends Event>(target: EventTarget, type: string): T[] {
  const events: T[] = [];
  target.addEventListener(type, (e) => events.push(e as T));
  return events;
}

const accounts = (n: number, spec: Partial<Parameters<typeof mockBankAccount>[0]> = {}) =>
  Array.from({ length: n }, (_, i) => mockBankAccount({ n: i + 1, name: `Account ${i + 1}`, ...spec }));

async function confirmPayout(el: RampOfframp, account: BankAccount, purpose = 'INVESTMENT'): Promise<void> {
  await pick(el, account);
  await choose(el, '#offramp-purpose', purpose);
  $(el, testid('confirm-payout')).click();
  await el.updateComplete;
}

// ── tests ──

describe('<ramp-offramp>', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  describe('accessibility', () => {
    it('the account list and payout form have no axe violations', async () => {
      backend({ accounts: [...accounts(2), mockBankAccount({ n: 3, status: 'UNDER_VERIFICATION', name: 'Pending' })], approveAfterReads: 1_000 });
      const el = await mount();
      await expect(el).to.be.accessible();
    });

    it('the add-account form with every error showing, in Portuguese and dark, has no axe violations', async () => {
      backend({ accounts: accounts(1) });
      const el = await mount({ lang: 'pt-BR', theme: 'dark' });
      await openForm(el, 'SEPA');
      await save(el);
      expect(text(el, '#bank-iban-error')).to.equal('Preencha este campo.');
      await expect(el).to.be.accessible();
    });

    it('every control of the add-account form has a label, and its error is tied to it', async () => {
      backend({ accounts: [] });
      const el = await mount();
      await openForm(el, 'SWIFT');
      await save(el);
      for (const control of all<HTMLInputElement>(el, '[data-testid="bank-form"] input:not([type="radio"]), [data-testid="bank-form"] select')) {
        expect(part(el, `label[for="${control.id}"]`), `label for #${control.id}`).to.exist;
        if (part(el, `#${control.id}-error`)) expect(control.getAttribute('aria-describedby')?.split(' ')).to.include(`${control.id}-error`);
      }
      expect(el.shadowRoot!.activeElement?.id).to.equal('bank-name');
    });
  });

  describe('keyboard only', () => {
    it('an account is picked with the arrow keys, the purpose chosen and the payout confirmed with Enter', async () => {
      const list = accounts(3);
      const { log } = backend({ accounts: list });
      const el = await mount();
      radio(el, list[2]!).focus();
      await sendKeys({ press: 'Space' });
      await sendKeys({ press: 'ArrowDown' });
      await el.updateComplete;
      expect(radio(el, list[1]!).checked).to.equal(true);
      for (let i = 0; i < 8 && el.shadowRoot!.activeElement?.id !== 'offramp-purpose'; i++) await sendKeys({ press: 'Tab' });
      expect(el.shadowRoot!.activeElement?.id).to.equal('offramp-purpose');
      await sendKeys({ press: 'ArrowDown' });
      await sendKeys({ press: 'ArrowDown' });
      await sendKeys({ press: 'Tab' });
      expectFocus(el.shadowRoot!.activeElement, part(el, testid('confirm-payout')));
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => log.entries.some((e) => e.method === 'POST'), 'the payout POST');
      expect(log.entries.find((e) => e.method === 'POST')!.body).to.deep.include({ bankAccountId: list[1]!.id, purpose: 'INVESTMENT' });
    });
  });

  describe('paging the bank accounts', () => {
    it('reads 10 per page, newest first, and pages with next and previous', async () => {
      const { log } = backend({ accounts: accounts(23) });
      const el = await mount();
      const lists = () => log.entries.filter((e) => e.method === 'GET' && e.url.includes('/bank-accounts')).map((e) => new URL(e.url).searchParams);
      expect(lists()[0]!.get('size')).to.equal('10');
      expect(lists()[0]!.has('cursor')).to.equal(false);
      expect(accountNames(el)).to.have.length(10);
      expect(accountNames(el)[0]).to.equal('Account 23');
      expect($<HTMLButtonElement>(el, testid('accounts-previous')).disabled).to.equal(true);

      $(el, testid('accounts-next')).click();
      await waitUntil(() => accountNames(el)[0] === 'Account 13', 'the second page');
      expect(lists().at(-1)!.get('cursor')).to.be.a('string');
      expect(statusText(el)).to.equal('10 bank accounts shown.');

      $(el, testid('accounts-next')).click();
      await waitUntil(() => accountNames(el)[0] === 'Account 3', 'the last page');
      expect(accountNames(el)).to.deep.equal(['Account 3', 'Account 2', 'Account 1']);
      expect($<HTMLButtonElement>(el, testid('accounts-next')).disabled).to.equal(true);
      // The pressed button went disabled: focus went to the list rather than being lost.
      expectFocus(el.shadowRoot!.activeElement, radio(el, accounts(23)[2]!));

      $(el, testid('accounts-previous')).click();
      await waitUntil(() => accountNames(el)[0] === 'Account 13', 'back to the second page');
      expectFocus(el.shadowRoot!.activeElement, part(el, testid('accounts-previous')));
    });

    it('the picked account stays picked after paging away from it, and is the one paid', async () => {
      const list = accounts(12);
      const { log } = backend({ accounts: list });
      const el = await mount();
      await pick(el, list[11]!);
      $(el, testid('accounts-next')).click();
      await waitUntil(() => accountNames(el)[0] === 'Account 2', 'the second page');
      expect(text(el, testid('selected-account'))).to.equal('To: Account 12 · CPF •••• 4725');
      await choose(el, '#offramp-purpose', 'TAX');
      $(el, testid('confirm-payout')).click();
      await waitUntil(() => log.entries.some((e) => e.method === 'POST'), 'the payout POST');
      expect(log.entries.find((e) => e.method === 'POST')!.body).to.deep.include({ bankAccountId: list[11]!.id });
    });

    it('no pager when everything fits one page; an empty list says how to start', async () => {
      backend({ accounts: accounts(3) });
      const el = await mount();
      expect(part(el, '[part="pager"]')).to.equal(null);
      worker.resetHandlers();
      backend({ accounts: [] });
      const empty = await mount();
      expect(text(empty, testid('accounts-empty'))).to.contain('Add one to cash out');
    });

    it('accounts under verification, or in another currency than the quote, cannot be picked', async () => {
      const pending = mockBankAccount({ n: 5, status: 'UNDER_VERIFICATION', name: 'Pending' });
      const euro = mockBankAccount({ n: 4, rail: 'SEPA', name: 'Euro' });
      const ok = mockBankAccount({ n: 3, name: 'Real' });
      backend({ accounts: [pending, euro, ok], approveAfterReads: 1_000 });
      const el = await mount();
      expect(radio(el, pending).disabled).to.equal(true);
      expect(radio(el, euro).disabled).to.equal(true);
      expect(radio(el, ok).disabled).to.equal(false);
      expect(text(el, `#account-${pending.id}-detail`)).to.contain('The holder is being verified');
      expect(text(el, `#account-${euro.id}-detail`)).to.contain('This quote pays out in BRL');
      expect(text(el, `[data-account-id="${pending.id}"] [part="badge"]`)).to.equal('Under review');
    });
  });

  describe('adding a bank account', () => {
    it('SEPA: an IBAN with bad check digits is refused on its field and nothing is sent', async () => {
      const { log } = backend({ accounts: [] });
      const el = await mount();
      await openForm(el, 'SEPA');
      await fill(el, 'iban', 'DE88 3704 0044 0532 0130 00');
      expect(text(el, '#bank-iban-error')).to.equal('This IBAN is not valid: check the digits for a typo.');
      expect($(el, '#bank-iban').getAttribute('aria-invalid')).to.equal('true');
      await save(el);
      expect(log.entries.filter((e) => e.method === 'POST')).to.have.length(0);
    });

    it('SEPA: a good IBAN reads back in groups of four and is sent in electronic form', async () => {
      const { log } = backend({ accounts: [] });
      const el = await mount();
      await openForm(el, 'SEPA');
      await fillHolder(el);
      await fill(el, 'iban', 'de89370400440532013000');
      expect($<HTMLInputElement>(el, '#bank-iban').value).to.equal('DE89 3704 0044 0532 0130 00');
      expect(part(el, '#bank-iban-error')).to.equal(null);
      await fill(el, 'taxId', 'DE123456789');
      await choose(el, '#bank-country', 'DEU');
      await save(el);
      await waitUntil(() => log.entries.some((e) => e.method === 'POST'), 'the POST');
      const post = log.entries.find((e) => e.method === 'POST')!;
      expect(post.body).to.deep.include({ rail: 'SEPA', currency: 'EUR', identifier: { iban: 'DE89370400440532013000' } });
    });

    it('PIX: a CPF key with bad check digits is refused', async () => {
      const { log } = backend({ accounts: [] });
      const el = await mount();
      await openForm(el, 'PIX');
      $<HTMLInputElement>(el, '#bank-keyValue').focus();
      await sendKeys({ type: '52998224724' });
      expect($<HTMLInputElement>(el, '#bank-keyValue').value).to.equal('529.982.247-24');
      await save(el);
      expect(text(el, '#bank-keyValue-error')).to.equal('This CPF is not valid: check the 11 digits.');
      expect(log.entries.filter((e) => e.method === 'POST')).to.have.length(0);
    });

    it('PIX: a phone key that is not a Brazilian number is refused, a good one is sent as +55…', async () => {
      const { log } = backend({ accounts: [] });
      const el = await mount();
      await openForm(el, 'PIX');
      await choose(el, '#bank-keyType', 'PHONE');
      await fill(el, 'keyValue', '+1 415 555 0100');
      expect(text(el, '#bank-keyValue-error')).to.equal('Enter a Brazilian number with its area code, like +55 11 98765-4321.');
      await fill(el, 'keyValue', '(11) 98765-4321');
      expect(part(el, '#bank-keyValue-error')).to.equal(null);
      await fillHolder(el);
      await fill(el, 'taxId', '52998224725');
      await save(el);
      await waitUntil(() => log.entries.some((e) => e.method === 'POST'), 'the POST');
      const post = log.entries.find((e) => e.method === 'POST')!;
      expect(post.url).to.equal(new URL('/bff/bank-accounts', location.href).href);
      expect(post.headers['idempotency-key']).to.match(/^[0-9a-f-]{36}$/);
      expect(post.body).to.deep.equal({
        name: 'My account',
        type: 'EXTERNAL',
        rail: 'PIX',
        currency: 'BRL',
        identifier: { keyType: 'PHONE', keyValue: '+5511987654321' },
        holder: {
          type: 'INDIVIDUAL',
          relationship: 'SELF',
          name: 'Ana Souza',
          taxId: '52998224725',
          address: { line1: 'Rua Augusta 100', city: 'São Paulo', state: 'SP', postalCode: '01304-000', country: 'BRA' },
        },
      });
    });

    it('SWIFT: account number, SWIFT code, bank name and country are asked for', async () => {
      backend({ accounts: [] });
      const el = await mount();
      await openForm(el, 'SWIFT');
      await save(el);
      for (const field of ['accountNumber', 'bic', 'bankName', 'bankCountry']) expect(text(el, `#bank-${field}-error`), field).to.equal('Fill in this field.');
      expect(text(el, 'label[for="bank-bic"]')).to.equal('SWIFT code (BIC)');
      await fill(el, 'bic', 'CHAS');
      expect(text(el, '#bank-bic-error')).to.equal('A BIC has 8 or 11 letters and digits, like DEUTDEFF.');
    });

    it('a new account shows under verification, is picked once approved, and the change is announced', async () => {
      backend({ accounts: accounts(1), approveAfterReads: 2 });
      const el = await mount();
      const created = collect<RampBankAccountCreatedEvent>(el, 'ramp-bank-account-created');
      await openForm(el, 'PIX');
      await fill(el, 'keyValue', '52998224725');
      await fillHolder(el);
      await fill(el, 'taxId', '52998224725');
      await save(el);
      await waitUntil(() => created.length === 1, 'ramp-bank-account-created');
      expect(created[0]!.detail.holder.verification.status).to.equal('UNDER_VERIFICATION');
      const added = created[0]!.detail;
      await waitUntil(() => part(el, `input[value="${added.id}"]`), 'the new account in the list');
      expect(accountNames(el)[0]).to.equal('My account');
      expect(radio(el, added).disabled).to.equal(true);
      expect(part(el, testid('bank-form'))).to.equal(null);
      await waitUntil(() => !radio(el, added).disabled, 'approved after the sandbox delay', { timeout: 3_000 });
      expect(radio(el, added).checked).to.equal(true);
      expect(statusText(el)).to.equal('My account: Approved.');
    });

    it('a business holder can give its date of incorporation and email: optional, checked, and sent', async () => {
      const { log } = backend({ accounts: [] });
      const el = await mount();
      await openForm(el, 'SEPA');
      await choose(el, '#bank-relationship', 'EMPLOYEE');
      $(el, testid('holder-BUSINESS')).click();
      await el.updateComplete;
      expect(text(el, 'label[for="bank-incorporationDate"]')).to.equal('Company date of incorporation (optional)');
      expect(text(el, 'label[for="bank-email"]')).to.equal('Company email (optional)');
      expect($<HTMLInputElement>(el, '#bank-email').type).to.equal('email');
      await fill(el, 'name', 'Supplier');
      await fill(el, 'iban', 'DE89370400440532013000');
      await fill(el, 'legalName', 'Supplier GmbH');
      await fill(el, 'taxId', 'DE123456789');
      for (const [field, value] of [['line1', 'Hauptstr. 1'], ['city', 'Berlin'], ['state', 'BE'], ['postalCode', '10115']]) await fill(el, field!, value!);
      await choose(el, '#bank-country', 'DEU');
      await fill(el, 'incorporationDate', '2999-01-01');
      await fill(el, 'email', 'finance@');
      expect(text(el, '#bank-incorporationDate-error')).to.equal('The date cannot be in the future.');
      expect(text(el, '#bank-email-error')).to.equal('Enter an email address like name@example.com.');
      await save(el);
      expect(log.entries.filter((e) => e.method === 'POST'), 'nothing sent with bad values').to.have.length(0);
      await fill(el, 'incorporationDate', '2015-03-02');
      await fill(el, 'email', 'finance@supplier.example');
      await save(el);
      await waitUntil(() => log.entries.some((e) => e.method === 'POST'), 'the POST');
      expect((log.entries.find((e) => e.method === 'POST')!.body as { holder: unknown }).holder).to.deep.equal({
        type: 'BUSINESS',
        relationship: 'EMPLOYEE',
        legalName: 'Supplier GmbH',
        incorporationDate: '2015-03-02',
        email: 'finance@supplier.example',
        taxId: 'DE123456789',
        address: { line1: 'Hauptstr. 1', city: 'Berlin', state: 'BE', postalCode: '10115', country: 'DEU' },
      });
    });

    it('"Me" fills the holder from the customer: name, tax id (fixed, by the customer\'s country) and address, and sends them', async () => {
      // A US citizen living in São Paulo: a US tax id and a Brazilian address.
      const customer = mockMoneyCustomer({ name: 'John Doe', taxId: '123456780', country: 'USA', birthDate: '1985-01-31' });
      const { log } = backend({ accounts: [], customer });
      const el = await mount();
      await openForm(el, 'PIX');
      expect($<HTMLSelectElement>(el, '#bank-relationship').value).to.equal('SELF');
      await waitUntil(() => $<HTMLInputElement>(el, '#bank-holderName').value === 'John Doe', 'the holder filled from the customer');
      const taxId = $<HTMLInputElement>(el, '#bank-taxId');
      expect([taxId.value, taxId.readOnly]).to.deep.equal(['123456780', true]);
      expect(text(el, 'label[for="bank-taxId"]'), 'a US id, not a CPF').to.equal('Holder tax ID');
      expect(text(el, '#bank-taxId-hint')).to.contain('Yours');
      expect(['line1', 'city', 'state', 'postalCode'].map((f) => $<HTMLInputElement>(el, `#bank-${f}`).value)).to.deep.equal(['Av. Paulista, 1000', 'São Paulo', 'SP', '01310-100']);
      expect($<HTMLSelectElement>(el, '#bank-country').value).to.equal('BRA');
      expect($<HTMLInputElement>(el, '#bank-birthDate').value).to.equal('1985-01-31');
      expect($<HTMLInputElement>(el, testid('holder-BUSINESS')).disabled, 'a person cannot hold as a company').to.equal(true);
      await expect(el).to.be.accessible();
      await fill(el, 'name', 'My account');
      await fill(el, 'keyValue', '52998224725');
      await save(el);
      await waitUntil(() => log.entries.some((e) => e.method === 'POST'), 'the POST');
      expect((log.entries.find((e) => e.method === 'POST')!.body as { holder: unknown }).holder).to.deep.equal({
        type: 'INDIVIDUAL',
        relationship: 'SELF',
        name: 'John Doe',
        birthDate: '1985-01-31',
        taxId: '123456780',
        address: { line1: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', postalCode: '01310-100', country: 'BRA' },
      });
    });

    it('another holder clears what "Me" filled and keeps what was typed; "Me" again fills a business customer back', async () => {
      const customer = mockMoneyCustomer({
        type: 'BUSINESS',
        name: undefined,
        birthDate: undefined,
        legalName: 'Acme Pagamentos Ltda',
        taxId: '11222333000181',
        incorporationDate: '2015-03-02',
        email: 'ops@acme.example',
        additionalInformation: { type: 'BUSINESS', address: { country: 'BRA', line1: 'Rua Funchal, 418', city: 'São Paulo', state: 'SP', postalCode: '04551-060' } },
      });
      backend({ accounts: [], customer });
      const el = await mount();
      await openForm(el, 'PIX');
      await waitUntil(() => part(el, '#bank-legalName') && $<HTMLInputElement>(el, '#bank-legalName').value === 'Acme Pagamentos Ltda', 'the company filled in');
      expect($<HTMLInputElement>(el, testid('holder-BUSINESS')).checked).to.equal(true);
      const values = () => ['legalName', 'taxId', 'incorporationDate', 'email', 'line1'].map((f) => $<HTMLInputElement>(el, `#bank-${f}`).value);
      expect(values()).to.deep.equal(['Acme Pagamentos Ltda', '11.222.333/0001-81', '2015-03-02', 'ops@acme.example', 'Rua Funchal, 418']);
      await fill(el, 'name', 'Supplier account');
      await choose(el, '#bank-relationship', 'EMPLOYEE');
      expect(values()).to.deep.equal(['', '', '', '', '']);
      expect($<HTMLInputElement>(el, '#bank-taxId').readOnly).to.equal(false);
      expect($<HTMLInputElement>(el, testid('holder-INDIVIDUAL')).disabled).to.equal(false);
      expect($<HTMLInputElement>(el, '#bank-name').value, 'typed by the user: kept').to.equal('Supplier account');
      await fill(el, 'legalName', 'Someone Else Ltda');
      await choose(el, '#bank-relationship', 'SELF');
      await waitUntil(() => $<HTMLInputElement>(el, '#bank-legalName').value === 'Acme Pagamentos Ltda', '"Me" chosen again fills the customer in');
      expect(values()).to.deep.equal(['Acme Pagamentos Ltda', '11.222.333/0001-81', '2015-03-02', 'ops@acme.example', 'Rua Funchal, 418']);
    });

    it('a 400 naming identifier.keyValue and holder.taxId lands on those fields', async () => {
      backend({ accounts: [] });
      worker.use(
        bankAccountInvalid([
          { path: 'identifier.keyValue', message: 'this PIX key is not registered' },
          { path: 'holder.taxId', message: 'does not match the key owner' },
        ]),
      );
      const el = await mount();
      await openForm(el, 'PIX');
      await fill(el, 'keyValue', '52998224725');
      await fillHolder(el);
      await fill(el, 'taxId', '52998224725');
      await save(el);
      await waitUntil(() => part(el, '#bank-keyValue-error'), 'the key error');
      // In our words (no code: the plain sentence), never the server's English.
      expect(text(el, '#bank-keyValue-error')).to.equal('This value was not accepted.');
      expect(text(el, '#bank-taxId-error')).to.equal('This value was not accepted.');
      expect(el.shadowRoot!.textContent).not.to.contain('not registered');
      expect(part(el, testid('bank-alert'))).to.equal(null);
      expect(el.shadowRoot!.activeElement?.id).to.equal('bank-keyValue');
    });
  });

  describe('the purpose', () => {
    it('PERSONAL_ACCOUNT is offered only for a SELF account', async () => {
      const self = mockBankAccount({ n: 2, relationship: 'SELF', name: 'Mine' });
      const friend = mockBankAccount({ n: 1, relationship: 'FRIEND', name: 'Friend' });
      const { log } = backend({ accounts: [self, friend] });
      const el = await mount();
      const personal = () => $<HTMLOptionElement>(el, '#offramp-purpose option[value="PERSONAL_ACCOUNT"]');
      await pick(el, friend);
      expect(personal().disabled).to.equal(true);
      expect(personal().textContent).to.contain('only for your own account');
      await pick(el, self);
      expect(personal().disabled).to.equal(false);
      await choose(el, '#offramp-purpose', 'PERSONAL_ACCOUNT');
      await pick(el, friend);
      expect(text(el, '#offramp-purpose-error')).to.contain('only for an account in your own name');
      expect($(el, '#offramp-purpose').getAttribute('aria-invalid')).to.equal('true');
      $(el, testid('confirm-payout')).click();
      await aTimeout(50);
      expect(log.entries.filter((e) => e.method === 'POST')).to.have.length(0);
      expect(el.shadowRoot!.activeElement?.id).to.equal('offramp-purpose');
    });

    it('confirming without an account or a purpose says both and sends nothing', async () => {
      const { log } = backend({ accounts: accounts(2) });
      const el = await mount();
      $(el, testid('confirm-payout')).click();
      await aTimeout(30);
      expect(text(el, testid('account-error'))).to.equal('Choose the bank account that receives the money.');
      expect(text(el, '#offramp-purpose-error')).to.equal('Choose the purpose of this payout.');
      expect($(el, '[part="accounts"]').getAttribute('aria-describedby')).to.equal('accounts-error');
      expect(log.entries.filter((e) => e.method === 'POST')).to.have.length(0);
    });
  });

  describe('the payout', () => {
    it('sends the account, the purpose and the locked quote, with an Idempotency-Key', async () => {
      const target = mockBankAccount({ n: 1 });
      const { log } = backend({ accounts: [target] });
      const el = await mount();
      const created = collect<RampTransactionCreatedEvent>(document, 'ramp-transaction-created');
      await confirmPayout(el, target, 'PERSONAL_ACCOUNT');
      await waitUntil(() => created.length === 1, 'ramp-transaction-created');
      const post = log.entries.find((e) => e.method === 'POST')!;
      expect(post.url).to.equal(new URL('/bff/transactions/off-ramp', location.href).href);
      expect(post.body).to.deep.equal({ bankAccountId: target.id, purpose: 'PERSONAL_ACCOUNT', exchangeRateId: moneyIds.lockedSellQuote });
      expect(post.headers['idempotency-key']).to.match(/^[0-9a-f-]{36}$/);
      expect(post.headers.authorization).to.equal('Bearer bound-session');
      expect(created[0]!.detail.state.status).to.equal('TRANSFERRING_STABLECOIN');
    });

    it('unlocked, it sends the stablecoin amount and the account’s currency', async () => {
      const target = mockBankAccount({ n: 1, rail: 'SEPA' });
      const { log } = backend({ accounts: [target] });
      const el = await mount({ locked: false });
      await confirmPayout(el, target, 'BILLS');
      await waitUntil(() => log.entries.some((e) => e.method === 'POST'), 'the POST');
      expect(log.entries.find((e) => e.method === 'POST')!.body).to.deep.equal({
        bankAccountId: target.id,
        purpose: 'BILLS',
        sourceCurrency: 'USDC',
        targetCurrency: 'EUR',
        amount: '100.00',
      });
    });

    it('follows the payout through every status to SUCCESS, with the amount paid and the explorer link', async () => {
      const target = mockBankAccount({ n: 1 });
      backend({ accounts: [target] });
      const el = await mount();
      const updated = collect<RampTransactionUpdatedEvent>(el, 'ramp-transaction-updated');
      await confirmPayout(el, target);
      await waitUntil(() => part(el, testid('success')), 'the receipt', { timeout: 5_000 });
      expect(updated.map((e) => e.detail.state.status)).to.deep.equal(['TRADING', 'TRANSFERRING_FIAT', 'SUCCESS']);
      const steps = all(el, '[part~="step"]').map((s) => `${s.dataset.status}:${s.dataset.state}`);
      expect(steps).to.deep.equal(['TRANSFERRING_STABLECOIN:done', 'TRADING:done', 'TRANSFERRING_FIAT:done', 'SUCCESS:done']);
      expect(text(el, testid('amount-receive'))).to.equal('R$548.37');
      expect($<HTMLAnchorElement>(el, testid('explorer-link')).href).to.match(/^https:\/\/amoy\.polygonscan\.com\/tx\/0x/);
      expect(statusText(el)).to.equal('Step 4 of 4: Completed.');
      await expect(el).to.be.accessible();
    });

    it('a SEPA payout shows when the money is expected', async () => {
      const target = mockBankAccount({ n: 1, rail: 'SEPA' });
      const b = backend({ accounts: [target] });
      const el = await mount({ locked: false });
      el.pollInterval = 60_000;
      await confirmPayout(el, target);
      await waitUntil(() => part(el, testid('settlement')), 'the settlement estimate');
      expect(text(el, testid('settlement'))).to.match(/^Expected in your account by /);
      expect(b.backend.transactions.size).to.equal(1);
    });

    it('a payout that fails after the debit is refunded: REFUNDING then REFUNDED, with the reason', async () => {
      const target = mockBankAccount({ n: 1 });
      worker.use(...moneyScenarios.offRampRefunded({ accounts: [target] }));
      const el = await mount();
      const updated = collect<RampTransactionUpdatedEvent>(el, 'ramp-transaction-updated');
      await confirmPayout(el, target);
      await waitUntil(() => part(el, testid('refunded')), 'the refunded panel', { timeout: 5_000 });
      expect(updated.map((e) => e.detail.state.status)).to.deep.equal(['TRADING', 'REFUNDING', 'REFUNDED']);
      // The server's English reason stays off the screen.
      expect(text(el, testid('refunded'))).not.to.contain('The receiving bank rejected the transfer');
      expect(text(el, testid('refunded'))).to.contain('The payout could not be completed.');
      expect(text(el, testid('refunded'))).to.contain('USDC is back in your wallet');
      const steps = all(el, '[part~="step"]').map((s) => `${s.dataset.status}:${s.dataset.state}`);
      expect(steps).to.deep.equal(['TRANSFERRING_STABLECOIN:done', 'TRADING:failed', 'REFUNDING:done', 'REFUNDED:done']);
      expect(part(el, testid('again'))).to.exist;
      await expect(el).to.be.accessible();
    });
  });

  describe('the lock of the quote', () => {
    it('counts the lock down beside the amounts; at its end "Confirm" gives way to a re-quote and nothing is sent', async () => {
      const { log } = backend();
      const now = new Date();
      const id = '0b3f4c1e-8a52-4c57-9d0e-2a0b7c1d5e11';
      const quote = mockSellQuote(now, { id, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 1_800).toISOString() });
      const el = await fixture<RampOfframp>(html`
        <ramp-offramp api-base="/bff" session="bound-session" lang="en" exchange-rate-id=${id} .quote=${quote}></ramp-offramp>
      `);
      const requested = collect<RampRequoteRequestedEvent>(document, 'ramp-requote-requested');
      await el.updateComplete;
      expect(text(el, testid('lock-time'))).to.equal('0:02');
      expect(part(el, testid('confirm-payout'))).not.to.equal(null);
      await waitUntil(() => part(el, testid('lock-expired')), 'the expired notice', { timeout: 3_000 });
      expect(part(el, testid('summary'))).to.equal(null);
      expect(part(el, testid('confirm-payout'))).to.equal(null);
      expect($(el, testid('lock-expired')).getAttribute('role')).to.equal('alert');
      $<HTMLFormElement>(el, 'form[data-testid="payout-form"]').requestSubmit();
      await aTimeout(50);
      expect(log.entries.filter((e) => e.method === 'POST')).to.have.length(0);
      $(el, testid('lock-requote')).click();
      expect(requested.map((e) => e.detail)).to.deep.equal([{ reason: 'RATE_EXPIRED', exchangeRateId: id }]);
    });
  });

  describe('problems', () => {
    it('422 INSUFFICIENT_BALANCE says which coin on which chain is short', async () => {
      const target = mockBankAccount({ n: 1 });
      backend({ accounts: [target] });
      worker.use(...moneyScenarios.insufficientBalance());
      const el = await mount();
      await confirmPayout(el, target);
      await waitUntil(() => part(el, testid('alert')), 'the alert');
      expect($(el, testid('alert')).dataset.kind).to.equal('balance');
      expect(text(el, testid('alert'))).to.equal('Your wallet does not have enough USDC on Polygon for this payout.');
      await expect(el).to.be.accessible();
    });

    it('422 TRANSACTION_LIMIT_EXCEEDED names the limit and what remains', async () => {
      const target = mockBankAccount({ n: 1 });
      backend({ accounts: [target] });
      worker.use(transactionProblem('off-ramp', 422, 'TRANSACTION_LIMIT_EXCEEDED', 'over', { limit: 'monthly', max: '5000.00', remaining: '120.50' }));
      const el = await mount({ lang: 'pt-BR' });
      await confirmPayout(el, target);
      await waitUntil(() => part(el, testid('alert')), 'the alert');
      expect(text(el, testid('alert'))).to.equal('Passa do seu limite mensal de US$ 5.000,00 (equivalente em dólares). Restam US$ 120,50.');
    });

    it('409 RATE_ALREADY_USED asks for a new quote', async () => {
      const target = mockBankAccount({ n: 1 });
      backend({ accounts: [target] });
      worker.use(transactionProblem('off-ramp', 409, 'RATE_ALREADY_USED', 'used'));
      const el = await mount();
      const requested = collect<RampRequoteRequestedEvent>(el, 'ramp-requote-requested');
      await confirmPayout(el, target);
      await waitUntil(() => part(el, testid('requote')), 'the requote action');
      $(el, testid('requote')).click();
      expect(requested.map((e) => e.detail)).to.deep.equal([{ reason: 'RATE_ALREADY_USED', exchangeRateId: moneyIds.lockedSellQuote }]);
    });

    it('400 naming purpose and bankAccountId lands on those fields', async () => {
      const target = mockBankAccount({ n: 1 });
      backend({ accounts: [target] });
      worker.use(
        transactionProblem('off-ramp', 400, 'VALIDATION_FAILED', 'bad', {
          errors: [
            { path: 'purpose', message: 'PERSONAL_ACCOUNT is only allowed to a SELF bank account', code: 'NOT_ONE_OF' },
            { path: 'bankAccountId', message: 'the holder is not APPROVED' },
          ],
        }),
      );
      const el = await mount();
      await confirmPayout(el, target);
      await waitUntil(() => part(el, '#offramp-purpose-error'), 'the purpose error');
      expect(text(el, '#offramp-purpose-error')).to.equal('Choose one of the options.');
      expect(text(el, testid('account-error'))).to.equal('This value was not accepted.');
      expect(el.shadowRoot!.textContent).not.to.contain('SELF bank account');
      expect(part(el, testid('alert'))).to.equal(null);
    });
  });
});

// The add-bank-account form's rules (the server's own), the body it sends, where server errors land, how accounts read, and what a payout sends.
import { expect } from '@open-wc/testing';
import { identifierText, maskTail } from '../../../src/components/offramp/format';
import { bankFieldOf, emptyBankForm, selfHolder, toCreateBankAccount, visibleFields, type BankForm } from '../../../src/components/offramp/model';
import { offRampRequest, payoutSource, purposeFits, unavailableReason } from '../../../src/components/offramp/payout';
import { fieldError, pixKeyError, validateBankForm } from '../../../src/components/offramp/validators';
import { mockBankAccount, mockMoneyCustomer, mockSellQuote } from '../mocks/bff-scenarios';

const TODAY = '2026-01-15';

function pixForm(overrides: Partial<BankForm> = {}): BankForm {
  return {
    ...emptyBankForm('PIX'),
    name: 'My Itaú account',
    keyType: 'CPF',
    keyValue: '529.982.247-25',
    holderName: 'Ana Souza',
    taxId: '529.982.247-25',
    line1: 'Rua Augusta 100',
    city: 'São Paulo',
    state: 'SP',
    postalCode: '01304-000',
    country: 'BRA',
    ...overrides,
  };
}

describe('PIX keys', () => {
  it('a CPF or CNPJ key needs valid check digits', () => {
    expect(pixKeyError('CPF', '529.982.247-25')).to.equal(undefined);
    expect(pixKeyError('CPF', '529.982.247-24')).to.equal('cpf');
    expect(pixKeyError('CPF', '111.111.111-11')).to.equal('cpf');
    expect(pixKeyError('CNPJ', '11.222.333/0001-81')).to.equal(undefined);
    expect(pixKeyError('CNPJ', '11.222.333/0001-80')).to.equal('cnpj');
  });

  it('a phone key is a Brazilian number in E.164; typed nationally it gets +55', () => {
    expect(pixKeyError('PHONE', '+55 11 98765-4321')).to.equal(undefined);
    expect(pixKeyError('PHONE', '(11) 98765-4321')).to.equal(undefined);
    expect(pixKeyError('PHONE', '11 3456-7890')).to.equal(undefined);
    expect(pixKeyError('PHONE', '+1 415 555 0100')).to.equal('phone');
    expect(pixKeyError('PHONE', '+55 11 8765-432')).to.equal('phone');
    expect(pixKeyError('PHONE', '+55 01 98765-4321')).to.equal('phone');
  });

  it('an e-mail key has the e-mail shape; an EVP key is a UUID', () => {
    expect(pixKeyError('EMAIL', ' Ana@Example.com ')).to.equal(undefined);
    expect(pixKeyError('EMAIL', 'ana@example')).to.equal('email');
    expect(pixKeyError('EVP', '123E4567-E89B-12D3-A456-426614174000')).to.equal(undefined);
    expect(pixKeyError('EVP', '123e4567e89b12d3a456426614174000')).to.equal('evp');
  });
});

describe('the add-account form', () => {
  it('shows the identifier fields of the chosen rail', () => {
    expect(visibleFields({ rail: 'PIX', holderType: 'INDIVIDUAL' })).to.include.members(['keyType', 'keyValue', 'holderName', 'birthDate']);
    expect(visibleFields({ rail: 'SEPA', holderType: 'BUSINESS' })).to.include.members(['iban', 'bic', 'legalName']).and.not.include('keyValue');
    expect(visibleFields({ rail: 'SWIFT', holderType: 'INDIVIDUAL' })).to.include.members(['accountNumber', 'bic', 'bankName', 'bankCountry']);
  });

  it('a complete PIX form is valid and becomes the API body with model values', () => {
    const form = pixForm({ keyType: 'PHONE', keyValue: '(11) 98765-4321', birthDate: '1990-05-17' });
    expect(validateBankForm(form, TODAY)).to.deep.equal({});
    expect(toCreateBankAccount(form)).to.deep.equal({
      name: 'My Itaú account',
      type: 'EXTERNAL',
      rail: 'PIX',
      currency: 'BRL',
      identifier: { keyType: 'PHONE', keyValue: '+5511987654321' },
      holder: {
        type: 'INDIVIDUAL',
        relationship: 'SELF',
        name: 'Ana Souza',
        birthDate: '1990-05-17',
        taxId: '52998224725',
        address: { line1: 'Rua Augusta 100', city: 'São Paulo', state: 'SP', postalCode: '01304-000', country: 'BRA' },
      },
    });
  });

  it('a SEPA account sends the electronic IBAN, and no BIC when none was typed', () => {
    const form = pixForm({ rail: 'SEPA', iban: 'de89 3704 0044 0532 0130 00', bic: '', taxId: 'X1234567', country: 'DEU' });
    expect(validateBankForm(form, TODAY)).to.deep.equal({});
    const body = toCreateBankAccount(form);
    expect(body.currency).to.equal('EUR');
    expect(body.identifier).to.deep.equal({ iban: 'DE89370400440532013000' });
    expect(body.holder.taxId).to.equal('X1234567');
  });

  it('a SWIFT account needs its BIC, bank name and country', () => {
    const form = pixForm({ rail: 'SWIFT', accountNumber: '', bic: '', bankName: '', bankCountry: '', taxId: '123-45-6789', country: 'USA' });
    const errors = validateBankForm(form, TODAY);
    expect(errors).to.deep.equal({ accountNumber: 'required', bic: 'required', bankName: 'required', bankCountry: 'required' });
    expect(fieldError({ ...form, bic: 'CHAS1S33' }, 'bic', TODAY)).to.equal('bic');
    // The server's rule (src/rules/iban.ts): spaces are dropped, so what it accepts the form accepts.
    expect(fieldError({ ...form, bic: 'chas us33' }, 'bic', TODAY)).to.equal(undefined);
  });

  it('a holder in Brazil has a CPF (person) or a CNPJ (company) with valid check digits', () => {
    expect(fieldError(pixForm({ taxId: '529.982.247-24' }), 'taxId', TODAY)).to.equal('cpf');
    expect(fieldError(pixForm({ holderType: 'BUSINESS', legalName: 'Acme', taxId: '529.982.247-25' }), 'taxId', TODAY)).to.equal('cnpj');
  });

  it('birth date is optional, but a given one is a real past date', () => {
    expect(fieldError(pixForm({ birthDate: '' }), 'birthDate', TODAY)).to.equal(undefined);
    expect(fieldError(pixForm({ birthDate: '1990-02-30' }), 'birthDate', TODAY)).to.equal('date');
    expect(fieldError(pixForm({ birthDate: '2030-01-01' }), 'birthDate', TODAY)).to.equal('futureDate');
    expect(fieldError(pixForm({ birthDate: '2015-01-01' }), 'birthDate', TODAY)).to.equal('underage');
  });

  it('the holder’s tax id is judged by the country of their address, as the server does', () => {
    expect(fieldError(pixForm({ rail: 'SEPA', country: 'DEU', taxId: 'AB' }), 'taxId', TODAY)).to.equal('taxId');
    expect(fieldError(pixForm({ rail: 'SEPA', country: 'DEU', taxId: 'de-123.456' }), 'taxId', TODAY)).to.equal(undefined);
    expect(fieldError(pixForm({ rail: 'SEPA', country: 'BRA', taxId: 'X1234567' }), 'taxId', TODAY)).to.equal('cpf');
    expect(toCreateBankAccount(pixForm({ rail: 'SEPA', iban: 'DE89370400440532013000', country: 'DEU', taxId: 'de-123.456' })).holder.taxId).to.equal('DE123456');
  });

  it('a SELF holder\'s tax id follows the customer\'s country, not the address\'s: "Me" fills it so', () => {
    const customer = mockMoneyCustomer({ name: 'John Doe', taxId: '123456780', country: 'USA' });
    const filled = selfHolder(customer, 'PIX');
    expect(filled).to.deep.include({ holderType: 'INDIVIDUAL', holderName: 'John Doe', taxId: '123456780', taxCountry: 'USA', country: 'BRA', city: 'São Paulo' });
    const form = pixForm({ ...filled });
    expect(fieldError(form, 'taxId', TODAY), 'a US id is fine for a US customer living in Brazil').to.equal(undefined);
    expect(fieldError({ ...form, taxCountry: '' }, 'taxId', TODAY), 'a counterparty in Brazil needs a CPF').to.equal('cpf');
    // A Brazilian customer's CPF is shown with its punctuation.
    expect(selfHolder(mockMoneyCustomer(), 'SEPA').taxId).to.equal('529.982.247-25');
  });

  it('a business holder\'s incorporation date and email are optional, checked when given, and sent', () => {
    const acme = pixForm({ holderType: 'BUSINESS', legalName: 'Acme', taxId: '11.222.333/0001-81' });
    expect(visibleFields(acme)).to.include.members(['incorporationDate', 'email']);
    expect(validateBankForm(acme, TODAY)).to.deep.equal({});
    expect(fieldError({ ...acme, incorporationDate: '2030-01-01' }, 'incorporationDate', TODAY)).to.equal('futureDate');
    expect(fieldError({ ...acme, email: 'x@' }, 'email', TODAY)).to.equal('email');
    expect(toCreateBankAccount(acme).holder).not.to.have.any.keys('incorporationDate', 'email');
    expect(toCreateBankAccount({ ...acme, incorporationDate: '2015-03-02', email: ' ops@acme.example ' }).holder).to.deep.include({ incorporationDate: '2015-03-02', email: 'ops@acme.example' });
    expect(bankFieldOf(['holder', 'incorporationDate'])).to.equal('incorporationDate');
    expect(bankFieldOf(['holder', 'email'])).to.equal('email');
  });

  it('server paths land on the field that shows them', () => {
    expect(bankFieldOf(['identifier', 'keyValue'])).to.equal('keyValue');
    expect(bankFieldOf(['identifier', 'iban'])).to.equal('iban');
    expect(bankFieldOf(['holder', 'taxId'])).to.equal('taxId');
    expect(bankFieldOf(['holder', 'name'])).to.equal('holderName');
    expect(bankFieldOf(['name'])).to.equal('name');
    expect(bankFieldOf(['holder', 'address', 'postalCode'])).to.equal('postalCode');
    expect(bankFieldOf(['customerId'])).to.equal(undefined);
  });
});

describe('saved accounts', () => {
  it('identifiers read with only their end shown (e-mail keys whole)', () => {
    expect(maskTail('DE89370400440532013000')).to.equal('•••• 3000');
    expect(identifierText(mockBankAccount({ n: 1, rail: 'SEPA' }))).to.equal('IBAN •••• 3000');
    expect(identifierText({ rail: 'PIX', identifier: { keyType: 'EMAIL', keyValue: 'ana@example.com' } })).to.equal('EMAIL ana@example.com');
    // For people, the key type by its name: a random key is not "EVP".
    const names: Record<string, string> = { EVP: 'Random key', EMAIL: 'Email' };
    expect(identifierText({ rail: 'PIX', identifier: { keyType: 'EVP', keyValue: '123e4567-e12b-42d3-a456-426614174000' } }, (k) => names[k] ?? k)).to.equal('Random key •••• 4000');
    expect(identifierText({ rail: 'PIX', identifier: { keyType: 'EMAIL', keyValue: 'ana@example.com' } }, (k) => names[k] ?? k)).to.equal('Email ana@example.com');
    expect(identifierText(mockBankAccount({ n: 1, rail: 'SWIFT' }))).to.equal('•••• 6789 · CHASUS33 · JPMorgan Chase');
  });

  it('only an APPROVED holder can receive, and a known quote only into its currency', () => {
    const quote = mockSellQuote();
    expect(unavailableReason(mockBankAccount({ n: 1, status: 'UNDER_VERIFICATION' }), quote)).to.equal('verification');
    expect(unavailableReason(mockBankAccount({ n: 1, rail: 'SEPA' }), quote)).to.equal('currency');
    expect(unavailableReason(mockBankAccount({ n: 1, rail: 'SEPA' }), undefined)).to.equal(undefined);
    expect(unavailableReason(mockBankAccount({ n: 1 }), quote)).to.equal(undefined);
  });
});

describe('the payout request', () => {
  it('a locked quote is sent by id with the account and purpose', () => {
    const source = payoutSource({ exchangeRateId: 'q-9', amount: '', stablecoin: '', blockchain: '' });
    const account = mockBankAccount({ n: 3 });
    expect(offRampRequest(source as Exclude<typeof source, { kind: 'missing' }>, account, 'PERSONAL_ACCOUNT')).to.deep.equal({
      bankAccountId: account.id,
      purpose: 'PERSONAL_ACCOUNT',
      exchangeRateId: 'q-9',
    });
  });

  it('unlocked, the fiat is the account’s and the amount is the stablecoin’s (6 decimals at most)', () => {
    const source = payoutSource({ exchangeRateId: '', amount: '100.123456', stablecoin: 'usdt', blockchain: 'tron' });
    const account = mockBankAccount({ n: 2, rail: 'SEPA' });
    expect(offRampRequest(source as Exclude<typeof source, { kind: 'missing' }>, account, 'BILLS')).to.deep.equal({
      bankAccountId: account.id,
      purpose: 'BILLS',
      sourceCurrency: 'USDT',
      targetCurrency: 'EUR',
      amount: '100.123456',
      blockchain: 'TRON',
    });
    expect(payoutSource({ exchangeRateId: '', amount: '1.1234567', stablecoin: '', blockchain: '' }).kind).to.equal('missing');
  });

  it('PERSONAL_ACCOUNT fits only a SELF account', () => {
    expect(purposeFits('PERSONAL_ACCOUNT', mockBankAccount({ n: 1, relationship: 'SELF' }))).to.equal(true);
    expect(purposeFits('PERSONAL_ACCOUNT', mockBankAccount({ n: 1, relationship: 'RELATIVE' }))).to.equal(false);
    expect(purposeFits('LOAN', mockBankAccount({ n: 1, relationship: 'RELATIVE' }))).to.equal(true);
  });
});

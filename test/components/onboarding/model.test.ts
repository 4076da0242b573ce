// The form's data and rules: request bodies, field order, client checks that are the server's, problems mapped onto fields.
import { expect } from '@open-wc/testing';
import { countryOptions, FIRST_NAMES, fewCountryOptions } from '../../../src/components/onboarding/countries';
import { regionName } from '../../../src/i18n';
import { alpha3ToAlpha2 } from '../../../src/contract/countries';
import { emptyForm, fieldsFor, toRequest, type FormValues } from '../../../src/components/onboarding/model';
import { fieldFromPath, placeFieldProblems, ruleFromMessage, validateCustomer } from '../../../src/components/onboarding/validators';
import { nextStep, stepNumber, stepsFor } from '../../../src/components/onboarding/steps';

const now = new Date('2026-06-15T12:00:00Z');
const ana: FormValues = { ...emptyForm('INDIVIDUAL'), name: ' Ana Souza ', taxId: '529.982.247-25', birthDate: '1990-05-17' };
const acme: FormValues = {
  ...emptyForm('BUSINESS'),
  legalName: 'Acme Pagamentos Ltda',
  taxId: '11.222.333/0001-81',
  incorporationDate: '2015-03-02',
  country: 'BRA',
  email: 'ops@acme.example',
};

describe('the request body', () => {
  it('sends the model value of the tax id (no punctuation), trimmed names, and leaves an empty optional email out', () => {
    expect(toRequest(ana)).to.deep.equal({ type: 'INDIVIDUAL', name: 'Ana Souza', taxId: '52998224725', birthDate: '1990-05-17', country: 'BRA' });
    expect(toRequest({ ...ana, email: ' ana@example.com ' })).to.have.property('email', 'ana@example.com');
  });

  it('a business sends legalName, taxId, incorporationDate, country and email', () => {
    expect(toRequest(acme)).to.deep.equal({
      type: 'BUSINESS',
      legalName: 'Acme Pagamentos Ltda',
      taxId: '11222333000181',
      incorporationDate: '2015-03-02',
      country: 'BRA',
      email: 'ops@acme.example',
    });
  });

  it('a value typed for the other type is not sent', () => {
    expect(toRequest({ ...acme, name: 'Ana', birthDate: '1990-01-01' })).not.to.have.any.keys('name', 'birthDate');
  });
});

describe('client checks are the server rules', () => {
  it('a complete individual and a complete business pass', () => {
    expect(validateCustomer(ana, now)).to.deep.equal({});
    expect(validateCustomer(acme, now)).to.deep.equal({});
  });

  it('an individual needs a name, a CPF with valid check digits and an adult birth date', () => {
    expect(validateCustomer({ ...emptyForm('INDIVIDUAL') }, now)).to.deep.equal({ name: 'required', taxId: 'required', birthDate: 'required' });
    expect(validateCustomer({ ...ana, taxId: '529.982.247-26' }, now)).to.deep.equal({ taxId: 'invalidCpf' });
    expect(validateCustomer({ ...ana, birthDate: '2010-01-01' }, now)).to.deep.equal({ birthDate: 'underage' });
    expect(validateCustomer({ ...ana, birthDate: '2027-01-01' }, now)).to.deep.equal({ birthDate: 'futureDate' });
  });

  it('an individual starts as Brazilian; any other country takes its own tax id, and an emptied country is asked for', () => {
    expect(emptyForm('INDIVIDUAL').country).to.equal('BRA');
    expect(emptyForm('BUSINESS').country).to.equal('');
    const john: FormValues = { ...ana, name: 'John Doe', country: 'USA', taxId: '123-45-6780' };
    expect(validateCustomer(john, now)).to.deep.equal({});
    expect(toRequest(john)).to.deep.include({ country: 'USA', taxId: '123456780' });
    expect(validateCustomer({ ...john, taxId: '12-3' }, now)).to.deep.equal({ taxId: 'invalidTaxId' });
    // A valid CPF is still only a CPF for BRA: an 11-digit id that fails the CPF check digits is fine for Germany.
    expect(validateCustomer({ ...john, country: 'DEU', taxId: '65929970489' }, now)).to.deep.equal({});
    expect(validateCustomer({ ...john, country: 'BRA', taxId: '65929970489' }, now)).to.deep.equal({ taxId: 'invalidCpf' });
    expect(validateCustomer({ ...ana, country: '' }, now)).to.deep.equal({ country: 'required' });
  });

  it('turning 18 today is adult enough', () => {
    expect(validateCustomer({ ...ana, birthDate: '2008-06-15' }, now)).to.deep.equal({});
    expect(validateCustomer({ ...ana, birthDate: '2008-06-16' }, now)).to.deep.equal({ birthDate: 'underage' });
  });

  it("an individual's email is optional, but checked when given", () => {
    expect(validateCustomer({ ...ana, email: 'ana@' }, now)).to.deep.equal({ email: 'invalidEmail' });
  });

  it('a business needs every field, a country from the list, and a CNPJ when Brazilian', () => {
    expect(validateCustomer(emptyForm('BUSINESS'), now)).to.deep.equal({
      legalName: 'required',
      country: 'required',
      taxId: 'required',
      incorporationDate: 'required',
      email: 'required',
    });
    expect(validateCustomer({ ...acme, taxId: '11.222.333/0001-82' }, now)).to.deep.equal({ taxId: 'invalidCnpj' });
    expect(validateCustomer({ ...acme, country: 'XXX' }, now)).to.have.property('country', 'invalidCountry');
    expect(validateCustomer({ ...acme, incorporationDate: '2026-06-16' }, now)).to.deep.equal({ incorporationDate: 'futureDate' });
  });

  it('a foreign business has a plain alphanumeric tax id', () => {
    expect(validateCustomer({ ...acme, country: 'DEU', taxId: 'DE123456789' }, now)).to.deep.equal({});
    expect(validateCustomer({ ...acme, country: 'DEU', taxId: 'X' }, now)).to.deep.equal({ taxId: 'invalidTaxId' });
  });
});

describe('server problems on fields', () => {
  it('the rule wording of the server is recognised, so it can be translated', () => {
    expect(ruleFromMessage('is not a valid CPF (11 digits with valid check digits)')).to.equal('invalidCpf');
    expect(ruleFromMessage('taxId is not a valid CPF (11 digits with valid check digits)')).to.equal('invalidCpf');
    expect(ruleFromMessage('Invalid email address')).to.equal(undefined);
  });

  it('paths land on the field the form shows for this type', () => {
    expect(fieldFromPath('taxId', 'INDIVIDUAL')).to.equal('taxId');
    expect(fieldFromPath('body.birthDate', 'INDIVIDUAL')).to.equal('birthDate');
    expect(fieldFromPath('/email', 'BUSINESS')).to.equal('email');
    expect(fieldFromPath('birthDate', 'BUSINESS')).to.equal(undefined);
    expect(fieldFromPath('metadata.x', 'INDIVIDUAL')).to.equal(undefined);
  });

  it('problems split into placed (first per field) and unplaced', () => {
    const { fields, unplaced } = placeFieldProblems(
      [
        { path: 'taxId', message: 'is not a valid CPF (11 digits with valid check digits)' },
        { path: 'taxId', message: 'second one is ignored' },
        { path: 'email', message: 'Invalid email address' },
        { path: 'metadata', message: 'at most 50 keys' },
      ],
      'INDIVIDUAL',
    );
    expect(fields).to.deep.equal({
      taxId: { kind: 'rule', error: 'invalidCpf' },
      email: { kind: 'code', key: 'problem.field.other' },
    });
    expect(unplaced).to.deep.equal([{ path: 'metadata', message: 'at most 50 keys' }]);
  });
});

describe('form layout', () => {
  it('fields come in page order, the country before the tax id it decides', () => {
    expect(fieldsFor('INDIVIDUAL')).to.deep.equal(['name', 'country', 'taxId', 'birthDate', 'email']);
    expect(fieldsFor('BUSINESS')).to.deep.equal(['legalName', 'country', 'taxId', 'incorporationDate', 'email']);
  });

  it('countries are every ISO alpha-3 code, Brazil first, then by name in the UI language', () => {
    const en = countryOptions('en');
    const pt = countryOptions('pt-BR');
    expect(en.length).to.be.greaterThan(240);
    expect(en[0]).to.deep.equal({ code: 'BRA', name: 'Brazil' });
    expect(pt[0]).to.deep.equal({ code: 'BRA', name: 'Brasil' });
    expect(pt.find((c) => c.code === 'DEU')?.name).to.equal('Alemanha');
    const rest = en.slice(1).map((c) => c.name);
    expect(rest).to.deep.equal([...rest].sort(new Intl.Collator('en').compare));
  });

  it('the first step names its first choices as Intl does, without asking Intl; the current value is named too', () => {
    for (const [code, names] of Object.entries(FIRST_NAMES)) {
      for (const [locale, name] of Object.entries(names!)) expect(name, `${code} ${locale}`).to.equal(regionName(alpha3ToAlpha2.get(code)!, locale as 'en'));
    }
    expect(fewCountryOptions('es', ['BRA'], 'DEU')).to.deep.equal([
      { code: 'BRA', name: 'Brasil' },
      { code: 'DEU', name: 'Alemania' },
    ]);
  });

  it('the stepper starts with the customer step and ends with the review, by customer type', () => {
    expect(stepNumber('INDIVIDUAL', 'customer')).to.equal(1);
    expect(stepsFor('INDIVIDUAL').map((s) => s.id)).to.deep.equal(['customer', 'info', 'documents', 'liveness', 'status']);
    expect(stepsFor('BUSINESS').map((s) => s.id)).to.deep.equal(['customer', 'info', 'parties', 'documents', 'submit', 'status']);
    expect(nextStep('BUSINESS', 'documents')).to.equal('submit');
    expect(nextStep('INDIVIDUAL', 'documents')).to.equal('liveness');
  });
});

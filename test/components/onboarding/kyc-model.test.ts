// The KYC steps' pure rules: amounts and phones as typed vs. as sent, the additional-information and party checks, and where a customer resumes.
import { expect } from '@open-wc/testing';
import { formatAmount, parseAmount, parsePercentage } from '../../../src/components/onboarding/money';
import { fromE164, isE164Shape, toE164 } from '../../../src/components/onboarding/phone';
import {
  infoFieldFromPath,
  initialInfo,
  toAdditionalInformation,
  toggleListValue,
  validateInfo,
  websiteModel,
  type InfoValues,
} from '../../../src/components/onboarding/info-model';
import { emptyParty, partyTree, toPartyRequest, validateParty, type PartyValues } from '../../../src/components/onboarding/parties';
import { basisPoints, formatBasisPoints } from '../../../src/components/onboarding/ownership';
import { missingDocuments, resumeStep } from '../../../src/components/onboarding/resume';
import { stepForMissing } from '../../../src/components/onboarding/submit-step';
import type { Customer } from '../../../src/contract/customers';
import type { AssociatedParty } from '../../../src/contract/kyc';

const NOW = new Date('2025-06-01T12:00:00Z');

describe('amounts: view value in the reader’s format, model value a plain decimal string', () => {
  it('reads what people type in each language', () => {
    expect(parseAmount('1,234.56', 'en')).to.equal('1234.56');
    expect(parseAmount('1.234,56', 'pt-BR')).to.equal('1234.56');
    expect(parseAmount('2500', 'pt-BR')).to.equal('2500');
    expect(parseAmount('  US$ 10,000 ', 'en')).to.equal('10000');
    expect(parseAmount('007.5', 'en')).to.equal('7.5');
    expect(parseAmount('', 'en')).to.equal('');
  });

  it('a separator not followed by three digits can only be the decimal point', () => {
    expect(parseAmount('1234.56', 'pt-BR')).to.equal('1234.56');
    expect(parseAmount('1234,5', 'en')).to.equal('1234.5');
    expect(parseAmount('1.234', 'pt-BR'), 'three digits after a pt-BR dot: thousands').to.equal('1234');
  });

  it('refuses what the API would refuse: letters, 3 decimals, 16 integer digits, negatives', () => {
    for (const bad of ['abc', '12.345.67', '1.005', '1234567890123456', '-5', '1,2,3.4.5']) expect(parseAmount(bad, 'en'), bad).to.equal(undefined);
  });

  it('formats the model for reading, exactly (no float)', () => {
    expect(formatAmount('1234.5', 'en')).to.equal('1,234.50');
    expect(formatAmount('1234.5', 'pt-BR')).to.equal('1.234,50');
    expect(formatAmount('999999999999999.99', 'en')).to.equal('999,999,999,999,999.99');
    expect(formatAmount('2500', 'pt-BR')).to.equal('2.500');
  });

  it('percentages: 40, 33,33 and 33.33% are all accepted', () => {
    expect(parsePercentage('40', 'en')).to.equal('40');
    expect(parsePercentage('33,33', 'pt-BR')).to.equal('33.33');
    expect(parsePercentage('33.33 %', 'en')).to.equal('33.33');
    expect(parsePercentage('1000', 'en')).to.equal(undefined);
  });
});

describe('phones: E.164 from a country and the number as typed', () => {
  it('puts the calling code in front and drops a national trunk 0', () => {
    expect(toE164('BR', '(11) 98765-4321')).to.equal('+5511987654321');
    expect(toE164('BR', '011 98765-4321')).to.equal('+5511987654321');
    expect(toE164('US', '415 555 2671')).to.equal('+14155552671');
    expect(toE164('IT', '06 1234 5678'), 'Italy keeps its leading 0').to.equal('+390612345678');
  });

  it('a number typed with + or 00 is taken as international, whatever the country chosen', () => {
    expect(toE164('BR', '+44 20 7946 0958')).to.equal('+442079460958');
    expect(toE164('BR', '0044 20 7946 0958')).to.equal('+442079460958');
  });

  it('checks the shape only: + and 8 to 15 digits', () => {
    expect(isE164Shape('+5511987654321')).to.equal(true);
    expect(isE164Shape('+1234567')).to.equal(false);
    expect(isE164Shape('+1234567890123456')).to.equal(false);
    expect(isE164Shape('5511987654321')).to.equal(false);
  });

  it('splits a stored number back, preferring the customer’s country for shared codes', () => {
    expect(fromE164('+5511987654321')).to.deep.equal({ country: 'BR', national: '11987654321' });
    expect(fromE164('+14155552671', 'CA')).to.deep.equal({ country: 'CA', national: '4155552671' });
  });
});

function filledIndividual(): InfoValues {
  const v = initialInfo({ type: 'INDIVIDUAL', name: 'Ana Maria Souza', country: undefined, additionalInformation: undefined }, 'en');
  Object.assign(v.text, {
    phone: '11 98765-4321',
    'address.line1': 'Av. Paulista, 1000',
    'address.city': 'São Paulo',
    'address.state': 'SP',
    'address.postalCode': '01310-100',
    monthlyVolumeInUSD: '2,500',
    transactionVolumeInUSD: '500.50',
    professionalSituation: 'EMPLOYEE',
    professionalOccupation: 'Nurse',
    sourceOfFunds: 'EMPLOYMENT',
  });
  v.lists = { jurisdictions: ['BRA'], involvedActivities: ['NONE'], transactionCounterparties: ['SELF'] };
  return v;
}

describe('additional information', () => {
  it('starts from the customer: the name split in three, Brazil for address and phone', () => {
    const v = initialInfo({ type: 'INDIVIDUAL', name: 'Ana Maria Souza', country: undefined, additionalInformation: undefined }, 'en');
    expect([v.text.firstName, v.text.middleName, v.text.lastName]).to.deep.equal(['Ana', 'Maria', 'Souza']);
    expect([v.text['address.country'], v.text.phoneCountry]).to.deep.equal(['BRA', 'BR']);
  });

  it('what was sent before comes back into the form, amounts in the reader’s format', () => {
    const sent = toAdditionalInformation(filledIndividual(), 'en');
    const again = initialInfo({ type: 'INDIVIDUAL', name: 'x', country: undefined, additionalInformation: sent as unknown as Record<string, unknown> }, 'pt-BR');
    expect(again.text.monthlyVolumeInUSD).to.equal('2.500');
    expect(again.text.phone).to.equal('11987654321');
    expect(toAdditionalInformation(again, 'pt-BR')).to.deep.equal(sent);
  });

  it('the individual body has model values only: E.164 phone, plain decimal strings', () => {
    expect(toAdditionalInformation(filledIndividual(), 'en')).to.deep.equal({
      type: 'INDIVIDUAL',
      firstName: 'Ana',
      middleName: 'Maria',
      lastName: 'Souza',
      phone: '+5511987654321',
      address: { country: 'BRA', line1: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', postalCode: '01310-100' },
      monthlyVolumeInUSD: '2500',
      transactionVolumeInUSD: '500.50',
      jurisdictions: ['BRA'],
      involvedActivities: ['NONE'],
      transactionCounterparties: ['SELF'],
      professionalSituation: 'EMPLOYEE',
      professionalOccupation: 'Nurse',
      sourceOfFunds: 'EMPLOYMENT',
    });
    expect(validateInfo(filledIndividual(), 'en')).to.deep.equal({});
  });

  it('every field is required except the middle name; lists need one choice', () => {
    const v = initialInfo({ type: 'INDIVIDUAL', name: '', country: undefined, additionalInformation: undefined }, 'en');
    const errors = validateInfo(v, 'en');
    expect(errors.middleName).to.equal(undefined);
    expect(errors.firstName).to.equal('required');
    expect(errors.jurisdictions).to.equal('chooseOne');
    expect(errors.phone).to.equal('required');
  });

  it('regulatedActivityDetails is required only when the activity is regulated; the website gets its https://', () => {
    const v = initialInfo({ type: 'BUSINESS', name: undefined, country: 'BRA', additionalInformation: undefined }, 'en');
    expect(validateInfo(v, 'en').regulatedActivityDetails).to.equal(undefined);
    v.isRegulatedActivity = true;
    expect(validateInfo(v, 'en').regulatedActivityDetails).to.equal('required');
    v.text.website = 'acme.com';
    expect(validateInfo(v, 'en').website).to.equal(undefined);
    expect(websiteModel('acme.com')).to.equal('https://acme.com');
    v.text.website = 'not a site';
    expect(validateInfo(v, 'en').website).to.equal('invalidUrl');
    const body = toAdditionalInformation({ ...v, isRegulatedActivity: false, text: { ...v.text, regulatedActivityDetails: 'stale' } }, 'en');
    expect(body.type === 'BUSINESS' && body.regulatedActivityDetails, 'not regulated: no details sent').to.equal('');
  });

  it('NONE excludes the other activities, and the other way round', () => {
    expect(toggleListValue('involvedActivities', ['GAMBLING'], 'NONE', true)).to.deep.equal(['NONE']);
    expect(toggleListValue('involvedActivities', ['NONE'], 'GAMBLING', true)).to.deep.equal(['GAMBLING']);
    expect(toggleListValue('jurisdictions', ['BRA'], 'USA', true)).to.deep.equal(['BRA', 'USA']);
  });

  it('a problem path lands on its field', () => {
    expect(infoFieldFromPath('address.country', 'INDIVIDUAL')).to.equal('address.country');
    expect(infoFieldFromPath('/body/phone', 'INDIVIDUAL')).to.equal('phone');
    expect(infoFieldFromPath('jurisdictions[0]', 'BUSINESS')).to.equal('jurisdictions');
    expect(infoFieldFromPath('companyType', 'INDIVIDUAL'), 'not shown to individuals').to.equal(undefined);
  });
});

function party(over: Partial<AssociatedParty>): AssociatedParty {
  return {
    id: 'p1',
    customerId: 'c',
    parentId: null,
    type: 'INDIVIDUAL',
    roles: ['SHAREHOLDER'],
    ownershipPercentage: '50.00',
    taxId: '52998224725',
    email: 'a@example.com',
    address: { country: 'BRA', line1: 'x', city: 'y', state: 'z', postalCode: '1' },
    verification: { status: 'NOT_STARTED', level: 'STANDARD' },
    requirements: [],
    createdAt: '2025-01-01T00:00:00Z',
    ...over,
  };
}

function filledParty(over: Partial<PartyValues> = {}): PartyValues {
  const v = emptyParty();
  v.roles = ['UBO', 'SHAREHOLDER'];
  Object.assign(v.text, {
    ownershipPercentage: '40',
    name: 'Bruno Lima',
    taxId: '529.982.247-25',
    birthDate: '1980-02-03',
    email: 'bruno@example.com',
    'address.line1': 'Rua A, 1',
    'address.city': 'Rio',
    'address.state': 'RJ',
    'address.postalCode': '20000-000',
  });
  return { ...v, ...over };
}

describe('associated parties', () => {
  it('a valid UBO and shareholder becomes the request, ownership as a string', () => {
    expect(validateParty(filledParty(), [], NOW, 'en')).to.deep.equal({});
    expect(toPartyRequest(filledParty(), 'en')).to.deep.equal({
      type: 'INDIVIDUAL',
      roles: ['UBO', 'SHAREHOLDER'],
      ownershipPercentage: '40',
      name: 'Bruno Lima',
      birthDate: '1980-02-03',
      taxId: '52998224725',
      email: 'bruno@example.com',
      address: { country: 'BRA', line1: 'Rua A, 1', city: 'Rio', state: 'RJ', postalCode: '20000-000' },
    });
  });

  it('ownership is required for UBO and SHAREHOLDER, 25 to 100, and never sent for a representative alone', () => {
    expect(validateParty(filledParty({ text: { ...filledParty().text, ownershipPercentage: '' } }), [], NOW, 'en').ownershipPercentage).to.equal('required');
    expect(validateParty(filledParty({ text: { ...filledParty().text, ownershipPercentage: '24.99' } }), [], NOW, 'en').ownershipPercentage).to.equal('ownershipBelow');
    expect(validateParty(filledParty({ text: { ...filledParty().text, ownershipPercentage: '100.01' } }), [], NOW, 'en').ownershipPercentage).to.equal('ownershipRange');
    expect(validateParty(filledParty({ text: { ...filledParty().text, ownershipPercentage: '100' } }), [], NOW, 'en').ownershipPercentage).to.equal(undefined);
    const rep = filledParty({ roles: ['REPRESENTATIVE'] });
    expect(validateParty(rep, [], NOW, 'en')).to.deep.equal({});
    expect(toPartyRequest(rep, 'en')).not.to.have.property('ownershipPercentage');
  });

  it('shareholders at one level own at most 100% together, counted per parent', () => {
    const existing = [party({ id: 'a', ownershipPercentage: '70.00' }), party({ id: 'b', parentId: 'h', ownershipPercentage: '90.00' })];
    expect(validateParty(filledParty(), existing, NOW, 'en').ownershipPercentage).to.equal('ownershipTotal');
    expect(validateParty(filledParty({ roles: ['UBO'] }), existing, NOW, 'en').ownershipPercentage, 'a UBO alone is not a shareholder').to.equal(undefined);
    expect(validateParty({ ...filledParty({ roles: ['SHAREHOLDER'] }), parentId: 'x' }, existing, NOW, 'en').ownershipPercentage).to.equal(undefined);
  });

  it('the 100% total is exact: 33.33 + 33.33 + 33.34 fits, one hundredth more does not', () => {
    const thirds = [party({ id: 'a', ownershipPercentage: '33.33' }), party({ id: 'b', ownershipPercentage: '33.33' })];
    const third = (pct: string) => filledParty({ roles: ['SHAREHOLDER'], text: { ...filledParty().text, ownershipPercentage: pct } });
    expect(validateParty(third('33.34'), thirds, NOW, 'en').ownershipPercentage).to.equal(undefined);
    expect(validateParty(third('33.35'), thirds, NOW, 'en').ownershipPercentage).to.equal('ownershipTotal');
    // 0.1 + 0.2 style sums: 30.1 + 30.2 + 39.7 is exactly 100.
    const tenths = [party({ id: 'a', ownershipPercentage: '30.1' }), party({ id: 'b', ownershipPercentage: '30.2' })];
    expect(validateParty(third('39.7'), tenths, NOW, 'en').ownershipPercentage).to.equal(undefined);
    expect(basisPoints('33.3')).to.equal(3330);
    expect(formatBasisPoints(10050, 'en')).to.equal('100.5%');
  });

  it('roles are required; CPF for a person, CNPJ for a company, a plain id abroad; adults only', () => {
    expect(validateParty(filledParty({ roles: [] }), [], NOW, 'en').roles).to.equal('chooseRole');
    expect(validateParty(filledParty({ text: { ...filledParty().text, taxId: '111.111.111-11' } }), [], NOW, 'en').taxId).to.equal('invalidCpf');
    const company = filledParty({ type: 'BUSINESS', roles: ['SHAREHOLDER'] });
    company.text = { ...company.text, legalName: 'Holding SA', incorporationDate: '2010-01-01', taxId: '52998224725' };
    expect(validateParty(company, [], NOW, 'en').taxId).to.equal('invalidCnpj');
    company.text['address.country'] = 'USA';
    company.text.taxId = 'EIN123456';
    expect(validateParty(company, [], NOW, 'en').taxId).to.equal(undefined);
    expect(validateParty(filledParty({ text: { ...filledParty().text, birthDate: '2010-01-01' } }), [], NOW, 'en').birthDate).to.equal('underage');
  });

  it('a nested shareholder is sent under its parent, as SHAREHOLDER only', () => {
    const nested = { ...filledParty({ roles: ['SHAREHOLDER'] }), parentId: 'h1' };
    expect(toPartyRequest(nested, 'en')).to.include({ parentId: 'h1' });
    expect(emptyParty('h1').roles).to.deep.equal(['SHAREHOLDER']);
  });

  it('the tree puts nested shareholders under their parent, in the order they were added', () => {
    const tree = partyTree([
      party({ id: 'c', parentId: 'b', createdAt: '2025-01-03T00:00:00Z' }),
      party({ id: 'b', type: 'BUSINESS', createdAt: '2025-01-02T00:00:00Z' }),
      party({ id: 'a', createdAt: '2025-01-01T00:00:00Z' }),
    ]);
    expect(tree.map((n) => [n.party.id, n.children.map((c) => c.party.id)])).to.deep.equal([
      ['a', []],
      ['b', ['c']],
    ]);
  });
});

function customer(type: Customer['type'], status: Customer['verification']['status'], requirements: [string, string][]): Customer {
  return {
    id: 'c',
    type,
    taxId: '1',
    metadata: {},
    wallets: [],
    verification: { status, level: 'STANDARD', link: 'https://ramp.example/verify/t' },
    requirements: requirements.map(([name, s]) => ({ name, status: s as 'NOT_SENT' })),
    createdAt: '',
    updatedAt: '',
  };
}

describe('resuming: the first step not done', () => {
  const individual = (info: string, id: string, bank: string, liveness: string, status: Customer['verification']['status'] = 'NOT_STARTED') =>
    customer('INDIVIDUAL', status, [
      ['ADDITIONAL_INFORMATION', info],
      ['ID_CARD', id],
      ['BANK_STATEMENT', bank],
      ['LIVENESS', liveness],
    ]);

  it('an individual goes info → documents → liveness → status', () => {
    expect(resumeStep(individual('NOT_SENT', 'NOT_SENT', 'NOT_SENT', 'NOT_SENT'))).to.equal('info');
    expect(resumeStep(individual('SENT', 'SENT', 'NOT_SENT', 'NOT_SENT'))).to.equal('documents');
    expect(resumeStep(individual('SENT', 'SENT', 'SENT', 'NOT_SENT'))).to.equal('liveness');
    expect(resumeStep(individual('SENT', 'SENT', 'SENT', 'SENT')), 'all sent, review not started yet').to.equal('status');
  });

  it('any status past NOT_STARTED is the status view', () => {
    for (const status of ['UNDER_VERIFICATION', 'APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'] as const) {
      expect(resumeStep(individual('SENT', 'SENT', 'REJECTED', 'SENT', status)), status).to.equal('status');
    }
  });

  it('a business goes info → parties → documents (its own and its parties’) → submit', () => {
    const biz = (parties: string, docs: string) =>
      customer('BUSINESS', 'NOT_STARTED', [
        ['ADDITIONAL_INFORMATION', 'SENT'],
        ['INCORPORATION_ARTICLES', docs],
        ['SHAREHOLDER_REGISTRY', docs],
        ['DIRECTORS_REGISTRY', docs],
        ['ASSOCIATED_PARTIES', parties],
      ]);
    expect(resumeStep(biz('NOT_SENT', 'NOT_SENT'))).to.equal('parties');
    expect(resumeStep(biz('SENT', 'NOT_SENT'), { parties: [party({})] })).to.equal('documents');
    const partyWithout = party({ requirements: [{ name: 'ID_CARD', status: 'NOT_SENT' }] });
    expect(resumeStep(biz('SENT', 'SENT'), { parties: [partyWithout] }), 'a party’s document is missing').to.equal('documents');
    expect(missingDocuments(biz('SENT', 'SENT'), [partyWithout])).to.deep.equal([{ partyId: 'p1', name: 'ID_CARD' }]);
    expect(resumeStep(biz('SENT', 'SENT'), { parties: [party({})] })).to.equal('submit');
    expect(resumeStep(biz('SENT', 'SENT'), { parties: [party({})], verificationRequested: true }), 'already asked').to.equal('status');
  });

  it('each missing item of a 409 leads back to the step that fixes it', () => {
    expect(stepForMissing('ADDITIONAL_INFORMATION')).to.equal('info');
    expect(stepForMissing('ASSOCIATED_PARTIES')).to.equal('parties');
    expect(stepForMissing('DIRECTORS_REGISTRY')).to.equal('documents');
    expect(stepForMissing('associatedParties.p1.ID_CARD')).to.equal('documents');
  });
});

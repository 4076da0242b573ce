// IBAN checks (src/rules/iban.ts, the server's rule too): mod-97 as ISO 13616 defines it, the registry's lengths, and the two forms (electronic for the API, grouped for people).
import { expect } from '@open-wc/testing';
import { electronicIban, formatIban, ibanError, isBic } from '../../../src/rules/iban';

describe('IBAN', () => {
  it('accepts real IBANs of several countries, typed with spaces or lower case', () => {
    for (const iban of ['DE89 3704 0044 0532 0130 00', 'GB82WEST12345698765432', 'fr14 2004 1010 0505 0001 3m02 606', 'PT50000201231234567890154', 'NL91ABNA0417164300', 'BE68539007547034']) {
      expect(ibanError(iban), iban).to.equal(undefined);
    }
  });

  it('a changed check digit, or a swapped pair of digits, fails mod-97', () => {
    expect(ibanError('DE88370400440532013000')).to.equal('checksum');
    expect(ibanError('DE89370400440532013000'.replace('0532', '0523'))).to.equal('checksum');
  });

  it('a known country with the wrong length is told apart from a typo', () => {
    expect(ibanError('DE8937040044053201300')).to.equal('length');
    expect(ibanError('PT5000020123123456789015')).to.equal('length');
  });

  it('anything not shaped like an IBAN is a shape error', () => {
    for (const bad of ['', 'DE', '1234567890123456', 'DEXX370400440532013000', 'DE89-3704!0044']) expect(ibanError(bad), bad).to.equal('shape');
  });

  it('the API gets the electronic form, people see groups of four', () => {
    expect(electronicIban(' de89 3704-0044 0532 0130 00 ')).to.equal('DE89370400440532013000');
    expect(formatIban('DE89370400440532013000')).to.equal('DE89 3704 0044 0532 0130 00');
  });

  it('a BIC has 8 or 11 characters: bank, country, location, optional branch', () => {
    expect(isBic('DEUTDEFF')).to.equal(true);
    expect(isBic('deutdeff500')).to.equal(true);
    expect(isBic('DEUTDEF')).to.equal(false);
    expect(isBic('DEUT1EFF')).to.equal(false);
    expect(isBic('DEUTDEFF50')).to.equal(false);
  });
});

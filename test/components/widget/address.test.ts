// The withdrawal's address check, in the browser bundle's own code: EIP-55 on EVM chains, base58check on TRON.
import { expect } from '@open-wc/testing';
import { addressProblem, toChecksumAddress } from '../../../src/components/wallet/address';

describe('addressProblem', () => {
  it('EVM: checksummed, all-lower and all-upper pass; a broken checksum, a short or zero address do not', () => {
    const good = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(addressProblem('BASE', good)).to.equal(undefined);
    expect(addressProblem('ETHEREUM', good.toLowerCase())).to.equal(undefined);
    expect(addressProblem('POLYGON', `0x${good.slice(2).toUpperCase()}`)).to.equal(undefined);
    expect(addressProblem('BASE', good.replace('E0F7', 'e0F7'))).to.equal('checksum');
    expect(addressProblem('BASE', good.slice(0, 40))).to.equal('format');
    expect(addressProblem('BASE', `0x${'0'.repeat(40)}`)).to.equal('format');
    expect(addressProblem('BASE', '  ')).to.equal('required');
    // The EIP-55 test vectors.
    for (const v of ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB']) {
      expect(toChecksumAddress(v.toLowerCase())).to.equal(v);
    }
  });

  it('TRON: a base58check T-address passes; one character off is a checksum problem; an EVM address is the wrong format', () => {
    expect(addressProblem('TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).to.equal(undefined);
    expect(addressProblem('TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).to.equal('checksum');
    expect(addressProblem('TRON', '0x52908400098527886E0F7030069857D2E4169EE7')).to.equal('format');
    expect(addressProblem('BASE', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).to.equal('format');
  });
});

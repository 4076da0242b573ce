// Tax id view formatting while typing: CPF and CNPJ masks, alphanumeric CNPJ, caret kept in place, Backspace over a separator.
import { expect } from '@open-wc/testing';
import { formatTaxId, refitTaxId, reformatTaxId, taxIdKind } from '../../../src/components/onboarding/format';

describe('which tax id a customer has', () => {
  it('a Brazilian individual has a CPF and a Brazilian business a CNPJ; anyone else their own country\'s id', () => {
    expect(taxIdKind('INDIVIDUAL', '')).to.equal('cpf');
    expect(taxIdKind('INDIVIDUAL', 'BRA')).to.equal('cpf');
    expect(taxIdKind('INDIVIDUAL', 'USA')).to.equal('other');
    expect(taxIdKind('BUSINESS', '')).to.equal('cnpj');
    expect(taxIdKind('BUSINESS', 'BRA')).to.equal('cnpj');
    expect(taxIdKind('BUSINESS', 'DEU')).to.equal('other');
  });
});

describe('tax id masks', () => {
  it('a CPF reads 123.456.789-09 as it is typed, digit by digit', () => {
    const typed = '12345678909';
    const views = Array.from(typed, (_, i) => formatTaxId('cpf', typed.slice(0, i + 1)));
    expect(views).to.deep.equal([
      '1', '12', '123', '123.4', '123.45', '123.456', '123.456.7', '123.456.78', '123.456.789', '123.456.789-0', '123.456.789-09',
    ]);
  });

  it('a CPF drops letters and anything past 11 digits', () => {
    expect(formatTaxId('cpf', '123a456b789c0912')).to.equal('123.456.789-09');
  });

  it('a CNPJ reads 11.222.333/0001-81', () => {
    expect(formatTaxId('cnpj', '11222333000181')).to.equal('11.222.333/0001-81');
    expect(formatTaxId('cnpj', '112223330001')).to.equal('11.222.333/0001');
  });

  it('an alphanumeric CNPJ keeps its letters, upper-cased', () => {
    expect(formatTaxId('cnpj', '12abc34501de35')).to.equal('12.ABC.345/01DE-35');
  });

  it('a foreign tax id is left as typed, upper-cased', () => {
    expect(formatTaxId('other', 'de 123-456')).to.equal('DE 123-456');
  });

  it('a new kind re-fits the characters already typed', () => {
    expect(refitTaxId('cnpj', '11222333000181')).to.equal('11.222.333/0001-81');
    expect(refitTaxId('other', '11.222.333/0001-81')).to.equal('11222333000181');
  });
});

describe('caret while typing', () => {
  it('typing at the end leaves the caret at the end, after the inserted separator', () => {
    expect(reformatTaxId('cpf', '1234', 4)).to.deep.equal({ value: '123.4', caret: 5 });
  });

  it('typing in the middle keeps the caret after the typed digit', () => {
    // "123.456" with "9" typed after "12" → raw "1293.456", caret 3
    expect(reformatTaxId('cpf', '1293.456', 3)).to.deep.equal({ value: '129.345.6', caret: 3 });
  });

  it('Backspace right after a separator deletes the digit before it, not just the dot', () => {
    // "123.456" with the caret after "." and Backspace → the browser removes "." → raw "123456", caret 3
    const edit = reformatTaxId('cpf', '123456', 3, '123.456', 'deleteContentBackward');
    expect(edit).to.deep.equal({ value: '124.56', caret: 2 });
  });

  it('a plain Backspace of a digit just removes it', () => {
    const edit = reformatTaxId('cpf', '123.45', 6, '123.456', 'deleteContentBackward');
    expect(edit).to.deep.equal({ value: '123.45', caret: 6 });
  });
});

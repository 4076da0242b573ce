// Amounts typed and shown: locale-aware parsing to decimal strings (en, pt-BR), the server's amount rules, formatting while typing, display through Intl.
import { expect } from '@open-wc/testing';
import { formatAmount, formatForInput, formatPercent, formatRate, parseAmount, reformatTyping, separatorsOf } from '../../../src/components/quote/amount';

const value = (text: string, locale = 'en', currency: 'BRL' | 'USDC' | 'USD' = 'BRL') => {
  const parsed = parseAmount(text, locale, currency);
  return parsed.ok ? parsed.value : `error:${parsed.error}`;
};

describe('reading a typed amount into a decimal string', () => {
  it('the locale decides the separators: pt-BR "1.234,56" and en "1,234.56" are both 1234.56', () => {
    expect(separatorsOf('pt-BR')).to.deep.equal({ group: '.', decimal: ',' });
    expect(separatorsOf('en')).to.deep.equal({ group: ',', decimal: '.' });
    expect(value('1.234,56', 'pt-BR')).to.equal('1234.56');
    expect(value('1,234.56', 'en')).to.equal('1234.56');
    expect(value('1.234.567,5', 'pt-BR')).to.equal('1234567.5');
    expect(value('1234,5', 'pt-BR')).to.equal('1234.5');
  });

  it('a lone group separator followed by three digits is a thousands separator, otherwise the decimal point', () => {
    expect(value('1.234', 'pt-BR')).to.equal('1234');
    expect(value('10.5', 'pt-BR')).to.equal('10.5');
    expect(value('10.50', 'pt-BR')).to.equal('10.50');
    expect(value('1,234', 'en')).to.equal('1234');
    expect(value('1,5', 'en')).to.equal('1.5');
  });

  it('with both separators, the last one is the decimal point: a pasted amount in the other convention still reads right', () => {
    expect(value('1,234.56', 'pt-BR')).to.equal('1234.56');
    expect(value('1.234,56', 'en')).to.equal('1234.56');
  });

  it('spaces (also no-break ones) are ignored; letters, signs and doubled decimal points are refused', () => {
    expect(value(' 1 234,5 ', 'pt-BR')).to.equal('1234.5');
    expect(value('1\u00a0234.5', 'en')).to.equal('1234.5');
    expect(value('R$ 10', 'pt-BR')).to.equal('error:invalid');
    expect(value('-10', 'en')).to.equal('error:invalid');
    expect(value('1e3', 'en')).to.equal('error:invalid');
    expect(value('1,2,3', 'pt-BR')).to.equal('error:invalid');
    expect(value('1.2.3,4,5', 'pt-BR')).to.equal('error:invalid');
    expect(value(',', 'pt-BR')).to.equal('error:invalid');
  });

  it('leading zeros go, a bare decimal point gets its zero, trailing zeros stay (the server accepts them)', () => {
    expect(value('007', 'en')).to.equal('7');
    expect(value(',5', 'pt-BR')).to.equal('0.5');
    expect(value('10,', 'pt-BR')).to.equal('10');
    expect(value('10.500', 'en')).to.equal('10.500');
  });

  it("the server's rules: fiat 2 decimals, stablecoins 6, more than zero, under 10^15", () => {
    expect(value('10.123', 'en', 'BRL')).to.equal('error:tooManyDecimals');
    expect(value('10.120', 'en', 'BRL')).to.equal('10.120');
    expect(value('10.123456', 'en', 'USDC')).to.equal('10.123456');
    expect(value('10.1234567', 'en', 'USDC')).to.equal('error:tooManyDecimals');
    expect(value('0,00', 'pt-BR')).to.equal('error:zero');
    expect(value('1'.repeat(15), 'en')).to.equal('1'.repeat(15));
    expect(value('1'.repeat(16), 'en')).to.equal('error:tooLarge');
    expect(value('', 'en')).to.equal('error:empty');
    expect(value('   ', 'en')).to.equal('error:empty');
  });
});

describe('the amount as it is typed', () => {
  const typed = (keys: string, locale: string) => {
    let view = '';
    for (const key of keys) {
      const raw = view + key;
      view = reformatTyping(raw, raw.length, locale, view, 'insertText').value;
    }
    return view;
  };

  it('pt-BR groups thousands with "." and takes "," as the decimal point, keystroke by keystroke', () => {
    expect(typed('1234567,89', 'pt-BR')).to.equal('1.234.567,89');
    expect(typed('1234', 'pt-BR')).to.equal('1.234');
    expect(typed('10,', 'pt-BR')).to.equal('10,');
  });

  it('en groups with "," and takes "." as the decimal point', () => {
    expect(typed('1234567.89', 'en')).to.equal('1,234,567.89');
  });

  it('a typed group separator stays a group separator: pt-BR "1.000" is one thousand, never one', () => {
    expect(typed('1.000', 'pt-BR')).to.equal('1.000');
    expect(value(typed('1.000', 'pt-BR'), 'pt-BR')).to.equal('1000');
    expect(typed('1,000', 'en')).to.equal('1,000');
  });

  it('letters and a second decimal point are dropped; a leading decimal point gets its zero; leading zeros go', () => {
    expect(typed('12a3', 'en')).to.equal('123');
    expect(typed('1.2.3', 'en')).to.equal('1.23');
    expect(typed('.5', 'en')).to.equal('0.5');
    expect(typed('0007', 'en')).to.equal('7');
  });

  it('the caret stays after the same digit when a separator appears before it', () => {
    // "1,23|4" → typing "9" at the caret gives "1,2394" → "12,394", the caret still right after the 9.
    const edit = reformatTyping('1,2394', 5, 'en', '1,234', 'insertText');
    expect(edit.value).to.equal('12,394');
    expect(edit.caret).to.equal(5);
  });

  it('Backspace just after a group separator deletes the digit before it', () => {
    // "1,|234" + Backspace removes the comma only; the 1 goes instead of the comma coming back.
    const edit = reformatTyping('1234', 1, 'en', '1,234', 'deleteContentBackward');
    expect(edit.value).to.equal('234');
    expect(edit.caret).to.equal(0);
  });
});

describe('amounts shown', () => {
  it('an API amount in an input: grouped, the locale decimal point, stablecoin zeros trimmed to two decimals', () => {
    expect(formatForInput('1234.50', 'pt-BR')).to.equal('1.234,50');
    expect(formatForInput('198.500000', 'en')).to.equal('198.50');
    expect(formatForInput('0.123400', 'en')).to.equal('0.1234');
    expect(formatForInput('1000', 'en')).to.equal('1,000');
  });

  it('fiat through Intl currency style; stablecoins with the ticker and up to six decimals, exactly', () => {
    expect(formatAmount('1234.56', 'BRL', 'pt-BR')).to.equal('R$\u00a01.234,56');
    expect(formatAmount('1234.56', 'EUR', 'en')).to.equal('€1,234.56');
    expect(formatAmount('198.500000', 'USDC', 'en')).to.equal('198.50\u00a0USDC');
    expect(formatAmount('0.000001', 'USDT', 'pt-BR')).to.equal('0,000001\u00a0USDT');
    // Beyond a double's precision: Intl formats the decimal string exactly.
    expect(formatAmount('123456789012345.67', 'BRL', 'en')).to.equal('R$123,456,789,012,345.67');
  });

  it('rates keep their 8 decimals without trailing zeros; fee rates are percentages from basis points', () => {
    expect(formatRate('0.19850000', 'en')).to.equal('0.1985');
    expect(formatRate('5.00000000', 'pt-BR')).to.equal('5,00');
    // Not 8 decimals: four from 1 up, six below.
    expect(formatRate('5.51134567', 'en')).to.equal('5.5113');
    expect(formatRate('0.18047588', 'en')).to.equal('0.180476');
    expect(formatRate('1234.56789', 'en')).to.equal('1,234.5679');
    expect(formatPercent('0.005', 'en')).to.equal('0.50%');
    expect(formatPercent('0.0025', 'pt-BR')).to.equal('0,25%');
    expect(formatPercent('0.00125', 'en')).to.equal('0.125%');
  });
});

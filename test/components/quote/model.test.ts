// The quote model: rails follow the fiat, the request bodies sent, percentages from basis points, the solved "you pay" estimate, the lock premium.
import { expect } from '@open-wc/testing';
import type { Quote } from '../../../src/contract/exchange-rates';
import { add, divide, ratio, subtract, toFixed } from '../../../src/rules/decimal';
import {
  bpsToFraction,
  estimateSource,
  feeRows,
  floatingRequest,
  lockDurationMs,
  lockedRequest,
  lockPremium,
  sidesOf,
  toBlockchain,
  toDirection,
  toFiat,
  toStablecoin,
} from '../../../src/components/quote/model';
import { defaultQuoteTerms, priceMockQuote } from '../mocks/bff-scenarios';

const price = (body: Parameters<typeof priceMockQuote>[0], terms = defaultQuoteTerms) => {
  const quote = priceMockQuote(body, terms);
  if (quote instanceof Response) throw new Error(`priced as a problem: ${quote.status}`);
  return quote;
};

describe('exact decimal arithmetic', () => {
  it('adds, subtracts and divides decimal strings without floating point', () => {
    expect(toFixed(add('0.1', '0.2'), 2)).to.equal('0.30');
    expect(toFixed(subtract('198.500000', '198.300000'), 6)).to.equal('0.200000');
    expect(toFixed(add('9007199254740993', '0.01'), 2)).to.equal('9007199254740993.01');
  });

  it('rounds up or down as asked, negatives toward their infinity', () => {
    expect(toFixed(divide('10', '3'), 2, 'down')).to.equal('3.33');
    expect(toFixed(divide('10', '3'), 2, 'up')).to.equal('3.34');
    expect(toFixed(ratio('-1.005'), 2, 'down')).to.equal('-1.01');
    expect(toFixed(ratio('-1.005'), 2, 'up')).to.equal('-1.00');
    expect(toFixed('2', 0)).to.equal('2');
  });

  it('refuses what is not a decimal string', () => {
    expect(() => ratio('1e3')).to.throw(RangeError);
    expect(() => divide('1', '0')).to.throw(RangeError);
  });
});

describe('what the user chose', () => {
  it('buy pays fiat for a stablecoin, sell the reverse, and the rail follows the fiat (PIX–BRL, SEPA–EUR, SWIFT–USD)', () => {
    expect(sidesOf({ direction: 'buy', fiat: 'BRL', stablecoin: 'USDC' })).to.deep.equal({ source: 'BRL', target: 'USDC', rail: 'PIX' });
    expect(sidesOf({ direction: 'sell', fiat: 'EUR', stablecoin: 'USDT' })).to.deep.equal({ source: 'USDT', target: 'EUR', rail: 'SEPA' });
    expect(sidesOf({ direction: 'buy', fiat: 'USD', stablecoin: 'USDC' }).rail).to.equal('SWIFT');
  });

  it('unknown attribute values fall back to the defaults instead of reaching the API', () => {
    expect([toDirection('SELL'), toDirection('hodl'), toFiat('eur'), toFiat('GBP'), toStablecoin('dai'), toBlockchain('base'), toBlockchain('solana')]).to.deep.equal([
      'sell',
      'buy',
      'EUR',
      'BRL',
      'USDC',
      'BASE',
      undefined,
    ]);
  });
});

describe('request bodies', () => {
  it('a floating quote gives the source amount and names the chain only when one was chosen', () => {
    expect(floatingRequest({ direction: 'buy', fiat: 'BRL', stablecoin: 'USDC' }, '1000')).to.deep.equal({
      type: 'FLOATING',
      rail: 'PIX',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '1000',
    });
    expect(floatingRequest({ direction: 'sell', fiat: 'USD', stablecoin: 'USDT', blockchain: 'TRON' }, '5.5')).to.deep.equal({
      type: 'FLOATING',
      rail: 'SWIFT',
      sourceCurrency: 'USDT',
      targetCurrency: 'USD',
      sourceAmount: '5.5',
      blockchain: 'TRON',
    });
  });

  it('a locked quote gives exactly one amount, the one the user typed, with its time lock', () => {
    const pair = { direction: 'buy', fiat: 'BRL', stablecoin: 'USDC', blockchain: 'BASE' } as const;
    expect(lockedRequest(pair, 'source', '1000', '1m')).to.deep.equal({
      type: 'LOCKED',
      rail: 'PIX',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '1000',
      blockchain: 'BASE',
      timeLock: '1m',
    });
    const byTarget = lockedRequest(pair, 'target', '200', '5m');
    expect(byTarget.targetAmount).to.equal('200');
    expect('sourceAmount' in byTarget).to.equal(false);
  });
});

describe('figures derived in the browser', () => {
  it('basis points become the exact fraction a percent format expects', () => {
    expect(['50', '25', '12.5', '0', '10000'].map(bpsToFraction)).to.deep.equal(['0.005', '0.0025', '0.00125', '0', '1']);
  });

  it('the "you pay" estimate for a wanted amount is the smallest source the server would charge for it', () => {
    const cases = [
      { pair: ['BRL', 'USDC', 'PIX'], target: '200' },
      { pair: ['BRL', 'USDC', 'PIX'], target: '0.000001' },
      { pair: ['USD', 'USDT', 'SWIFT'], target: '37.5' }, // a 10 USDT flat fee
      { pair: ['USDC', 'BRL', 'PIX'], target: '1234.56' }, // off-ramp: 0.50 BRL flat, 60 bps
      { pair: ['USDT', 'EUR', 'SEPA'], target: '99.99' },
    ] as const;
    for (const { pair: [source, target, rail], target: wanted } of cases) {
      const terms = price({ type: 'FLOATING', rail, sourceCurrency: source, targetCurrency: target, sourceAmount: '1000' });
      const estimate = estimateSource(terms, wanted)!;
      const at = price({ type: 'FLOATING', rail, sourceCurrency: source, targetCurrency: target, sourceAmount: estimate });
      expect(subtract(at.finalTargetAmount, wanted).n >= 0n, `${source}→${target} ${wanted}: ${estimate} delivers at least the target`).to.equal(true);
      const unit = source === 'USDC' || source === 'USDT' ? '0.000001' : '0.01';
      const less = toFixed(subtract(estimate, unit), source === 'USDC' || source === 'USDT' ? 6 : 2);
      const below = priceMockQuote({ type: 'FLOATING', rail, sourceCurrency: source, targetCurrency: target, sourceAmount: less });
      if (!(below instanceof Response)) expect(subtract(below.finalTargetAmount, wanted).n < 0n, `${less} is one unit short`).to.equal(true);
      // The server's own solve for a lock agrees with the estimate.
      const locked = price({ type: 'LOCKED', rail, sourceCurrency: source, targetCurrency: target, targetAmount: wanted });
      expect(locked.sourceAmount).to.equal(estimate);
    }
  });

  it('no estimate when the fees take everything at any size', () => {
    const terms = price({ type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1000' });
    const greedy: Quote = { ...terms, fees: { ...terms.fees, service: { ...terms.fees.service, rate: '10000' } } };
    expect(estimateSource(greedy, '10')).to.equal(undefined);
  });

  it("the lock premium is the locked service rate over the floating one, and the fee difference when both price the same source", () => {
    const body = { rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1000' } as const;
    const floating = price({ ...body, type: 'FLOATING' });
    expect(lockPremium(price({ ...body, type: 'LOCKED', timeLock: '30s' }), floating)).to.deep.equal({ bps: '0', amount: '0.000000', currency: 'USDC' });
    expect(lockPremium(price({ ...body, type: 'LOCKED', timeLock: '1m' }), floating)).to.deep.equal({ bps: '10', amount: '0.200000', currency: 'USDC' });
    expect(lockPremium(price({ ...body, type: 'LOCKED', timeLock: '5m' }), floating)).to.deep.equal({ bps: '30', amount: '0.600000', currency: 'USDC' });
    const other = price({ ...body, type: 'LOCKED', timeLock: '5m', sourceAmount: '500' });
    expect(lockPremium(other, floating)).to.deep.equal({ bps: '30', currency: 'USDC' });
    expect(lockPremium(other, undefined)).to.equal(undefined);
  });

  it("a lock lasts expiresAt − createdAt on the server's clock", () => {
    const locked = price({ type: 'LOCKED', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10', timeLock: '1m' });
    expect(lockDurationMs(locked)).to.equal(60_000);
    expect(lockDurationMs({ ...locked, expiresAt: undefined })).to.equal(undefined);
  });
});

describe('fee rows', () => {
  const terms = (service: { rate: string; flatAmount: string }, partner: { rate: string; flatAmount: string }) => ({
    ...defaultQuoteTerms,
    service: { onRamp: { PIX: service, SEPA: service, SWIFT: service }, offRamp: { PIX: service, SEPA: service, SWIFT: service } },
    partner,
  });
  const settings = [
    terms({ rate: '50', flatAmount: '0' }, { rate: '0', flatAmount: '0' }),
    terms({ rate: '60', flatAmount: '0.50' }, { rate: '25', flatAmount: '0' }),
    terms({ rate: '33', flatAmount: '1.17' }, { rate: '17', flatAmount: '0.03' }),
    terms({ rate: '0', flatAmount: '2' }, { rate: '100', flatAmount: '0.99' }),
  ];
  const pairs = [
    { sourceCurrency: 'BRL', targetCurrency: 'USDC', amounts: ['100', '99.99', '1000', '12345.67'] },
    { sourceCurrency: 'USDC', targetCurrency: 'BRL', amounts: ['50', '100.123456', '2500'] },
  ] as const;

  it('each fee once, and base − fees = final to the last decimal, for several amounts, fee settings and locks', () => {
    let checked = 0;
    for (const t of settings) {
      for (const pair of pairs) {
        for (const sourceAmount of pair.amounts) {
          const body = { rail: 'PIX' as const, sourceCurrency: pair.sourceCurrency, targetCurrency: pair.targetCurrency, sourceAmount };
          const floating = price({ ...body, type: 'FLOATING' }, t);
          for (const timeLock of ['30s', '1m', '5m'] as const) {
            const locked = price({ ...body, type: 'LOCKED', timeLock }, t);
            for (const [quote, from] of [[floating, undefined], [locked, floating]] as const) {
              const rows = feeRows(quote, from);
              const fees = [rows.service.amount, rows.premium?.amount ?? '0', rows.partner.amount].reduce((a, b) => toFixed(add(a, b), 6), '0');
              const dp = rows.currency === 'BRL' ? 2 : 6;
              expect(toFixed(subtract(rows.base, fees), dp), `${sourceAmount} ${pair.sourceCurrency} ${timeLock}`).to.equal(toFixed(quote.finalTargetAmount, dp));
              // The premium is not counted twice: service points + premium points = the quote's service points.
              expect(toFixed(add(rows.service.bps, rows.premium?.bps ?? '0'), 4)).to.equal(toFixed(quote.fees.service.rate, 4));
              expect(rows.service.flat).to.equal(quote.fees.service.flatAmount);
              if (quote === locked && timeLock !== '30s') expect(rows.premium, 'a paid lock has its own row').not.to.equal(undefined);
              else expect(rows.premium).to.equal(undefined);
              checked++;
            }
          }
        }
      }
    }
    expect(checked).to.equal(4 * 7 * 3 * 2);
  });
});

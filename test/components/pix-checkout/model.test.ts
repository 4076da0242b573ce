// The checkout's pure parts: what it sends for a locked or unlocked on-ramp, the payment window on a skewed clock, the PIX payment read defensively, copying.
import { expect } from '@open-wc/testing';
import { copyText } from '../../../src/components/pix-checkout/clipboard';
import { checkoutSource, isBrlAmount, onRampRequest, toBlockchain, toStablecoin } from '../../../src/components/pix-checkout/model';
import { localDeadline, pixPaymentOf } from '../../../src/components/pix-checkout/payment-window';

describe('checkout request', () => {
  it('a locked quote wins over an amount and is sent by id alone', () => {
    const source = checkoutSource({ exchangeRateId: ' q-1 ', amount: '10.00', stablecoin: 'USDT', blockchain: 'BASE' });
    expect(source).to.deep.equal({ kind: 'locked', exchangeRateId: 'q-1' });
    expect(onRampRequest(source as Exclude<typeof source, { kind: 'missing' }>, 'TAX')).to.deep.equal({ purpose: 'TAX', exchangeRateId: 'q-1' });
  });

  it('an unlocked amount becomes a PIX BRL request; the chain is sent only when one was named', () => {
    const source = checkoutSource({ exchangeRateId: '', amount: '150.5', stablecoin: '', blockchain: '' });
    expect(source).to.deep.equal({ kind: 'unlocked', sourceAmount: '150.5', targetCurrency: 'USDC', blockchain: undefined });
    expect(onRampRequest(source as Exclude<typeof source, { kind: 'missing' }>, 'BILLS')).to.deep.equal({
      purpose: 'BILLS',
      rail: 'PIX',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '150.5',
    });
  });

  it('an amount the API would refuse leaves the checkout without a source', () => {
    for (const amount of ['', '0', '0.00', '1.234', '1,50', '-5', '1e3', ' ', 'abc']) {
      expect(checkoutSource({ exchangeRateId: '', amount, stablecoin: 'USDC', blockchain: '' }).kind, amount).to.equal('missing');
    }
    expect(isBrlAmount('0.01')).to.equal(true);
    expect(isBrlAmount('1000')).to.equal(true);
  });

  it('unknown coins and chains fall back instead of reaching the API', () => {
    expect(toStablecoin('usdt')).to.equal('USDT');
    expect(toStablecoin('DOGE')).to.equal('USDC');
    expect(toBlockchain('polygon')).to.equal('POLYGON');
    expect(toBlockchain('SOLANA')).to.equal(undefined);
  });
});

describe('payment window', () => {
  it('a device clock 3 minutes fast does not close the window 3 minutes early', () => {
    const serverNow = '2026-01-15T12:00:00.000Z';
    const localNow = Date.parse(serverNow) + 180_000;
    const deadline = localDeadline('2026-01-15T12:15:00.000Z', serverNow, localNow)!;
    expect(deadline - localNow).to.equal(900_000);
  });

  it('without a server time (or an absurd one) the local clock is trusted', () => {
    expect(localDeadline('2026-01-15T12:15:00.000Z', undefined, 0)).to.equal(Date.parse('2026-01-15T12:15:00.000Z'));
    expect(localDeadline('2026-01-15T12:15:00.000Z', '1999-01-01T00:00:00Z', Date.parse('2026-01-15T12:00:00Z'))).to.equal(Date.parse('2026-01-15T12:15:00.000Z'));
    expect(localDeadline('not a date', undefined, 0)).to.equal(undefined);
  });

  it('reads the PIX payment only when it has a brCode', () => {
    expect(pixPaymentOf({ rail: 'PIX', brCode: '000201…', expiresAt: '2026-01-15T12:15:00Z' })).to.deep.equal({ brCode: '000201…', expiresAt: '2026-01-15T12:15:00Z' });
    expect(pixPaymentOf({ rail: 'PIX', brCode: 'x', expiresAt: 5 })).to.deep.equal({ brCode: 'x', expiresAt: undefined });
    expect(pixPaymentOf({ rail: 'PIX' })).to.equal(undefined);
    expect(pixPaymentOf(undefined)).to.equal(undefined);
  });
});

describe('copying the code', () => {
  it('reports true when the clipboard took the text, false when it refused or is missing', async () => {
    const taken: string[] = [];
    expect(await copyText('abc', { writeText: async (t: string) => void taken.push(t) })).to.equal(true);
    expect(taken).to.deep.equal(['abc']);
    expect(await copyText('abc', { writeText: () => Promise.reject(new DOMException('no', 'NotAllowedError')) })).to.equal(false);
    expect(await copyText('abc', undefined)).to.equal(false);
  });
});

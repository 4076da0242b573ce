// Server problems about amounts: the server's wording is recognised (so the UI can translate it), the path names the amount, the rest stays form-level.
import { expect } from '@open-wc/testing';
import { amountErrorFromMessage, amountPathOf, placeAmountProblems } from '../../../src/components/quote/problems';

describe('amount problems from the server', () => {
  it("the server's amount rules are recognised by their wording (server/domain/money.ts, pricing.ts)", () => {
    expect(amountErrorFromMessage('BRL amounts have at most 2 decimal places', undefined)).to.deep.equal({ kind: 'rule', error: 'tooManyDecimals' });
    expect(amountErrorFromMessage('must be greater than zero', undefined)).to.deep.equal({ kind: 'rule', error: 'zero' });
    expect(amountErrorFromMessage('must be below 10^15', undefined)).to.deep.equal({ kind: 'rule', error: 'tooLarge' });
    expect(amountErrorFromMessage('must be a plain decimal such as "10.50": digits, one optional "."', undefined)).to.deep.equal({ kind: 'rule', error: 'invalid' });
    expect(amountErrorFromMessage('amount too small to cover fees: the smallest BRL amount that delivers any USDC is 0.02', '0.02')).to.deep.equal({
      kind: 'tooSmall',
      minimumSourceAmount: '0.02',
    });
    expect(amountErrorFromMessage('is over your daily limit', undefined)).to.deep.equal({ kind: 'text', message: 'is over your daily limit' });
  });

  it('a path names an amount however it is spelled', () => {
    expect(['sourceAmount', '/targetAmount', 'body.sourceAmount', 'quote[targetAmount]', 'rail'].map(amountPathOf)).to.deep.equal([
      'sourceAmount',
      'targetAmount',
      'sourceAmount',
      'targetAmount',
      undefined,
    ]);
  });

  it('amount errors are placed (first per path wins) with the minimum from the problem; other paths are left for the form', () => {
    const placed = placeAmountProblems(
      [
        { path: 'sourceAmount', message: 'amount too small to cover fees' },
        { path: 'sourceAmount', message: 'must be greater than zero' },
        { path: 'blockchain', message: 'must be one of ETHEREUM, BASE, TRON, POLYGON' },
      ],
      { minimumSourceAmount: '5.04' },
    );
    expect(placed.amounts).to.deep.equal({ sourceAmount: { kind: 'tooSmall', minimumSourceAmount: '5.04' } });
    expect(placed.unplaced).to.deep.equal([{ path: 'blockchain', message: 'must be one of ETHEREUM, BASE, TRON, POLYGON' }]);
  });
});

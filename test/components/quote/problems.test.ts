// Server problems about amounts: read by their stable `errors[].code` (never by the English `message`), the path names the amount, the rest stays form-level.
import { expect } from '@open-wc/testing';
import { amountErrorFromProblem, amountPathOf, placeAmountProblems } from '../../../src/components/quote/problems';

const p = (code: string | undefined, message = 'opaque server text') => ({ path: 'sourceAmount', message, ...(code ? { code } : {}) });

describe('amount problems from the server', () => {
  it("the server's amount codes become the panel's own rules, whatever the message says", () => {
    expect(amountErrorFromProblem(p('TOO_MANY_DECIMALS'), undefined)).to.deep.equal({ kind: 'rule', error: 'tooManyDecimals' });
    expect(amountErrorFromProblem(p('NOT_POSITIVE'), undefined)).to.deep.equal({ kind: 'rule', error: 'zero' });
    expect(amountErrorFromProblem(p('ABOVE_MAXIMUM'), undefined)).to.deep.equal({ kind: 'rule', error: 'tooLarge' });
    expect(amountErrorFromProblem(p('NOT_A_DECIMAL'), undefined)).to.deep.equal({ kind: 'rule', error: 'invalid' });
    expect(amountErrorFromProblem(p('BELOW_MINIMUM'), '0.02')).to.deep.equal({ kind: 'tooSmall', minimumSourceAmount: '0.02' });
  });

  it('an unknown or missing code gets the plain "not accepted" sentence: the server text is never shown', () => {
    expect(amountErrorFromProblem(p('SOMETHING_NEW', 'x'), undefined)).to.deep.equal({ kind: 'code', key: 'problem.field.other' });
    expect(amountErrorFromProblem(p(undefined, 'y'), undefined)).to.deep.equal({ kind: 'code', key: 'problem.field.other' });
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
        { path: 'sourceAmount', message: 'a', code: 'BELOW_MINIMUM' },
        { path: 'sourceAmount', message: 'b', code: 'NOT_POSITIVE' },
        { path: 'blockchain', message: 'c', code: 'NOT_ONE_OF' },
      ],
      { minimumSourceAmount: '5.04' },
    );
    expect(placed.amounts).to.deep.equal({ sourceAmount: { kind: 'tooSmall', minimumSourceAmount: '5.04' } });
    expect(placed.unplaced).to.deep.equal([{ path: 'blockchain', message: 'c', code: 'NOT_ONE_OF' }]);
  });
});

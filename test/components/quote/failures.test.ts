// What a failed quote request means to the panel: amount problems land on the amount, the rest is an alert, and only what the partner should hear of becomes a ramp-error.
import { expect } from '@open-wc/testing';
import { NetworkError, ProblemError } from '../../../src/client/problem';
import { quoteFailureOf } from '../../../src/components/quote/problems';

const problem = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  new ProblemError(status, { code, detail: `${code} detail`, requestId: 'req_1', ...extra });

describe('quote failures', () => {
  it('an abort is nobody waiting for an answer: nothing to show or report', () => {
    expect(quoteFailureOf(new DOMException('aborted', 'AbortError'))).to.equal(undefined);
  });

  it('a 400 whose every problem is about an amount lands on the amount and is not reported', () => {
    const error = problem(400, 'VALIDATION_FAILED', { errors: [{ path: 'targetAmount', message: 'too small', code: 'BELOW_MINIMUM' }], minimumSourceAmount: '10.00' });
    expect(quoteFailureOf(error)).to.deep.equal({ amount: { kind: 'tooSmall', minimumSourceAmount: '10.00' } });
  });

  it('a 400 with a problem off the amounts is a form-level alert (in our words: no server text in it), and is reported with the detail', () => {
    const error = problem(400, 'VALIDATION_FAILED', {
      errors: [
        { path: 'sourceAmount', message: 'bad', code: 'NOT_A_DECIMAL' },
        { path: 'rail', message: 'not one of', code: 'NOT_ONE_OF' },
      ],
    });
    expect(quoteFailureOf(error)).to.deep.equal({
      alert: { kind: 'VALIDATION_FAILED' },
      report: { code: 'VALIDATION_FAILED', status: 400, detail: 'VALIDATION_FAILED detail', requestId: 'req_1' },
    });
  });

  it('an unsupported pair is fixed by another choice: an alert, not a report', () => {
    expect(quoteFailureOf(problem(422, 'UNSUPPORTED_PAIR'))).to.deep.equal({ alert: { kind: 'UNSUPPORTED_PAIR' } });
  });

  it('session, access and missing customer keep their code; any other problem is OTHER with its code; all are reported', () => {
    for (const [status, code] of [
      [401, 'UNAUTHENTICATED'],
      [403, 'FORBIDDEN'],
      [404, 'NOT_FOUND'],
    ] as const) {
      expect(quoteFailureOf(problem(status, code))).to.deep.equal({ alert: { kind: code }, report: { code, status, detail: `${code} detail`, requestId: 'req_1' } });
    }
    expect(quoteFailureOf(problem(500, 'SERVER_ERROR'))).to.deep.equal({
      alert: { kind: 'OTHER', code: 'SERVER_ERROR' },
      report: { code: 'SERVER_ERROR', status: 500, detail: 'SERVER_ERROR detail', requestId: 'req_1' },
    });
  });

  it('no answer is NETWORK (status null); anything else thrown is CLIENT_ERROR', () => {
    const offline = new NetworkError('unreachable');
    expect(quoteFailureOf(offline)).to.deep.equal({ alert: { kind: 'NETWORK' }, report: { code: 'NETWORK_ERROR', status: null, detail: offline.message } });
    expect(quoteFailureOf(new TypeError('boom'))).to.deep.equal({ alert: { kind: 'OTHER', code: 'CLIENT_ERROR' }, report: { code: 'CLIENT_ERROR', status: null, detail: 'boom' } });
  });
});

// Shared rules of the money components: the status paths and where a failure sits, problems turned into alerts, the purpose rule, and polling.
import { expect, waitUntil } from '@open-wc/testing';
import { NetworkError, ProblemError } from '../../../src/client/problem';
import { pollingFeed } from '../../../src/client/feed';
import { alertFor, pathSegments, placeFieldProblems } from '../../../src/components/transaction/problems';
import { purposeAllowed } from '../../../src/components/transaction/purposes';
import { furthest, isTerminal, progressOf } from '../../../src/components/transaction/steps';

const states = (p: ReturnType<typeof progressOf>) => p.steps.map((s) => `${s.status}:${s.state}`);

describe('transaction steps', () => {
  it('an on-ramp walks five steps, the current one marked', () => {
    const p = progressOf('ON_RAMP', 'TRADING');
    expect(states(p)).to.deep.equal(['AWAITING_FUNDS:done', 'TRANSFERRING_FIAT:done', 'TRADING:current', 'TRANSFERRING_STABLECOIN:upcoming', 'SUCCESS:upcoming']);
    expect(p.current).to.equal(2);
  });

  it('SUCCESS is done, not pending', () => {
    const p = progressOf('OFF_RAMP', 'SUCCESS');
    expect(states(p)).to.deep.equal(['TRANSFERRING_STABLECOIN:done', 'TRADING:done', 'TRANSFERRING_FIAT:done', 'SUCCESS:done']);
    expect(p.current).to.equal(3);
  });

  it('a refund replaces the rest of an off-ramp from the step that failed', () => {
    expect(states(progressOf('OFF_RAMP', 'REFUNDING', 'TRADING'))).to.deep.equal(['TRANSFERRING_STABLECOIN:done', 'TRADING:failed', 'REFUNDING:current', 'REFUNDED:upcoming']);
    const done = progressOf('OFF_RAMP', 'REFUNDED', 'TRADING');
    expect(states(done)).to.deep.equal(['TRANSFERRING_STABLECOIN:done', 'TRADING:failed', 'REFUNDING:done', 'REFUNDED:done']);
    expect(done.current).to.equal(3);
  });

  it('an unpaid on-ramp fails on its first step', () => {
    expect(states(progressOf('ON_RAMP', 'FAILED', 'AWAITING_FUNDS'))[0]).to.equal('AWAITING_FUNDS:failed');
    expect(states(progressOf('ON_RAMP', 'FAILED'))[0]).to.equal('AWAITING_FUNDS:failed');
  });

  it('the furthest status reached survives a failure answer', () => {
    expect(furthest('OFF_RAMP', 'TRADING', 'REFUNDING')).to.equal('TRADING');
    expect(furthest('OFF_RAMP', 'TRANSFERRING_STABLECOIN', 'TRADING')).to.equal('TRADING');
    expect(furthest('ON_RAMP', undefined, 'AWAITING_FUNDS')).to.equal('AWAITING_FUNDS');
  });

  it('SUCCESS, FAILED and REFUNDED end the following; REFUNDING does not', () => {
    expect(['SUCCESS', 'FAILED', 'REFUNDED'].every((s) => isTerminal(s as never))).to.equal(true);
    expect(isTerminal('REFUNDING')).to.equal(false);
    expect(isTerminal('AWAITING_FUNDS')).to.equal(false);
  });
});

describe('transaction problems', () => {
  it('a limit problem keeps which limit, its maximum and what remains', () => {
    const error = new ProblemError(422, { code: 'TRANSACTION_LIMIT_EXCEEDED', title: 'x', status: 422, detail: 'd', limit: 'daily', max: '2000.00', remaining: '500.00' });
    expect(alertFor(error)).to.deep.equal({ kind: 'limit', limit: 'daily', max: '2000.00', remaining: '500.00' });
  });

  it('expired and used rates both ask for a new quote, and keep which one it was', () => {
    expect(alertFor(new ProblemError(409, { code: 'RATE_EXPIRED' }))).to.deep.equal({ kind: 'requote', code: 'RATE_EXPIRED' });
    expect(alertFor(new ProblemError(409, { code: 'RATE_ALREADY_USED' }))).to.deep.equal({ kind: 'requote', code: 'RATE_ALREADY_USED' });
  });

  it('INVALID_STATE means not approved; no answer means network; an abort means nothing', () => {
    expect(alertFor(new ProblemError(409, { code: 'INVALID_STATE' }))).to.deep.equal({ kind: 'notApproved' });
    expect(alertFor(new NetworkError('timeout'))).to.deep.equal({ kind: 'network' });
    expect(alertFor(new DOMException('aborted', 'AbortError'))).to.equal(undefined);
    expect(alertFor(new ProblemError(422, { code: 'INSUFFICIENT_BALANCE', asset: 'USDC', blockchain: 'BASE' }))).to.deep.equal({ kind: 'balance', asset: 'USDC', blockchain: 'BASE' });
  });

  it('server paths land on fields whatever their notation, as the words of their code (first per field); the rest stays unplaced', () => {
    expect(pathSegments('/holder/address/city')).to.deep.equal(['holder', 'address', 'city']);
    expect(pathSegments('body.identifier.iban')).to.deep.equal(['identifier', 'iban']);
    expect(pathSegments('identifier[keyValue]')).to.deep.equal(['identifier', 'keyValue']);
    const { fields, unplaced } = placeFieldProblems(
      [
        { path: 'purpose', message: 'first', code: 'NOT_ONE_OF' },
        { path: 'purpose', message: 'second', code: 'REQUIRED' },
        { path: 'amount', message: 'too small' },
      ],
      (s) => (s[0] === 'purpose' ? 'purpose' : undefined),
    );
    expect(fields).to.deep.equal({ purpose: 'problem.field.NOT_ONE_OF' });
    expect(unplaced).to.deep.equal([{ path: 'amount', message: 'too small' }]);
  });
});

describe('purposes', () => {
  it('PERSONAL_ACCOUNT goes only to a SELF account; an on-ramp (no account) may use it', () => {
    expect(purposeAllowed('PERSONAL_ACCOUNT', 'SELF')).to.equal(true);
    expect(purposeAllowed('PERSONAL_ACCOUNT', 'FRIEND')).to.equal(false);
    expect(purposeAllowed('PERSONAL_ACCOUNT', 'EMPLOYEE')).to.equal(false);
    expect(purposeAllowed('PERSONAL_ACCOUNT')).to.equal(true);
    expect(purposeAllowed('INVESTMENT', 'RELATIVE')).to.equal(true);
  });
});

describe('polling feed', () => {
  it('never overlaps reads, and a refresh during a read reads again right after it', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let reads = 0;
    const seen: number[] = [];
    const feed = pollingFeed(
      async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 30));
        inFlight--;
        return ++reads;
      },
      { intervalMs: 10_000, immediate: true },
    );
    const sub = feed({ next: (n) => seen.push(n), error: () => undefined });
    await new Promise((r) => setTimeout(r, 5));
    sub.refresh();
    sub.refresh();
    await waitUntil(() => seen.length === 2, 'a second read right after the first', { timeout: 1_000 });
    sub.stop();
    expect(maxInFlight).to.equal(1);
    expect(seen).to.deep.equal([1, 2]);
  });

  it('keeps going after a failed read and stops for good when stopped', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const values: string[] = [];
    const sub = pollingFeed(
      async () => {
        calls++;
        if (calls === 1) throw new NetworkError('unreachable');
        return 'ok';
      },
      { intervalMs: 10, immediate: true },
    )({ next: (v) => values.push(v), error: (e) => errors.push(e) });
    await waitUntil(() => values.length >= 1, 'a value after the failure');
    sub.stop();
    const after = calls;
    await new Promise((r) => setTimeout(r, 60));
    expect(errors).to.have.length(1);
    expect(calls).to.equal(after);
  });
});

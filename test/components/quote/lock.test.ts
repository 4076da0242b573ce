// The quote panel's lock on its own: one lock per attempt (a retry keeps its idempotency key), counted down from when the request left, expiry and release each said once.
import { expect } from '@open-wc/testing';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { BffClient } from '../../../src/client/bff-client';
import { NetworkError, ProblemError } from '../../../src/client/problem';
import type { BffQuoteRequest, Quote } from '../../../src/contract/exchange-rates';
import type { RampQuoteExpiredEvent, RampQuoteLockedEvent } from '../../../src/events';
import { QuoteLock } from '../../../src/components/quote/lock';
import { lockedRequest } from '../../../src/components/quote/model';
import { priceMockQuote } from '../mocks/bff-scenarios';
import { FakeClock } from '../support/fake-clock';

class LockHost extends HTMLElement implements ReactiveControllerHost {
  readonly clock = new FakeClock();
  private readonly controllers: ReactiveController[] = [];
  addController(c: ReactiveController) {
    this.controllers.push(c);
  }
  removeController() {}
  requestUpdate() {}
  get updateComplete() {
    return Promise.resolve(true);
  }
  connect() {
    for (const c of this.controllers) c.hostConnected?.();
  }
}
customElements.define('test-quote-lock-host', LockHost);

const body = lockedRequest({ direction: 'buy', fiat: 'BRL', stablecoin: 'USDC', blockchain: 'BASE' }, 'source', '1000', '30s');

interface Call {
  body: BffQuoteRequest;
  key: string | undefined;
}

/** `answers` are taken in turn: a quote (priced at the host clock's now, after `tookMs`), or an error to throw. */
function setup(answers: Array<{ tookMs?: number; change?: Partial<Quote> } | Error>) {
  const host = new LockHost();
  const calls: Call[] = [];
  const failed: unknown[] = [];
  const locked: string[] = [];
  const expired: boolean[] = [];
  const client = {
    createQuote: async (request: BffQuoteRequest, options: { idempotencyKey?: string } = {}) => {
      calls.push({ body: request, key: options.idempotencyKey });
      const answer = answers.shift();
      if (!answer) throw new Error('no answer left');
      if (answer instanceof Error) throw answer;
      const sentAt = host.clock.now();
      host.clock.advance(answer.tookMs ?? 0);
      // The server measures the window from when it priced: createdAt is when the request arrived.
      return { ...(priceMockQuote(request, undefined, new Date(sentAt)) as Quote), ...answer.change };
    },
  } as unknown as BffClient;
  const lock = new QuoteLock(host, {
    client: () => client,
    timeLock: () => '30s',
    threshold: () => {},
    locked: (quote, timeLock) => locked.push(`${quote.id}/${timeLock}`),
    expired: (focusInside) => expired.push(focusInside),
    failed: (error) => failed.push(error),
  });
  host.connect();
  const events: Array<RampQuoteLockedEvent | RampQuoteExpiredEvent> = [];
  host.addEventListener('ramp-quote-locked', (e) => events.push(e));
  host.addEventListener('ramp-quote-expired', (e) => events.push(e));
  return { host, lock, calls, failed, locked, expired, events };
}

describe('the quote lock', () => {
  it('counts the window down from when the request left, so a slow answer shortens it and never lengthens it', async () => {
    const { host, lock, events, locked } = setup([{ tookMs: 2_000 }]);
    await lock.lock(body, undefined);
    expect(lock.phase).to.equal('locked');
    expect(locked).to.have.length(1);
    expect(events.map((e) => e.type)).to.deep.equal(['ramp-quote-locked']);
    expect(lock.seconds).to.equal(28);
    host.clock.advance(27_999);
    expect(lock.phase).to.equal('locked');
    host.clock.advance(1);
    expect(lock.phase).to.equal('expired');
  });

  it('expiry is said once, with reason timeout', async () => {
    const { host, lock, events, expired } = setup([{}]);
    await lock.lock(body, undefined);
    host.clock.advance(60_000);
    expect(events.map((e) => [e.type, (e as RampQuoteExpiredEvent).detail.reason ?? ''])).to.deep.equal([
      ['ramp-quote-locked', ''],
      ['ramp-quote-expired', 'timeout'],
    ]);
    expect(expired).to.deep.equal([false]);
  });

  it('a release is said once, with reason released, and the countdown stops', async () => {
    const { host, lock, events } = setup([{}]);
    await lock.lock(body, undefined);
    lock.release();
    lock.clear();
    host.clock.advance(60_000);
    expect(lock.phase).to.equal('floating');
    expect(lock.quote).to.equal(undefined);
    expect(events.map((e) => [e.type, (e as RampQuoteExpiredEvent).detail.reason ?? ''])).to.deep.equal([
      ['ramp-quote-locked', ''],
      ['ramp-quote-expired', 'released'],
    ]);
  });

  it('an answer without id or expiresAt is a failure, not a lock', async () => {
    const { lock, failed, events } = setup([{ change: { id: undefined } }]);
    await lock.lock(body, undefined);
    expect(lock.phase).to.equal('floating');
    expect(events).to.have.length(0);
    expect(failed).to.have.length(1);
    expect(failed[0]).to.be.instanceOf(ProblemError);
    expect((failed[0] as ProblemError).code).to.equal('INVALID_RESPONSE');
  });

  it('a retry of the same body keeps its idempotency key; once locked, the next lock gets a new one', async () => {
    const { lock, calls, failed } = setup([new NetworkError('unreachable'), {}, {}]);
    await lock.lock(body, undefined);
    expect(failed).to.have.length(1);
    await lock.lock(body, undefined);
    expect(lock.phase).to.equal('locked');
    lock.clear();
    await lock.lock(body, undefined);
    const [first, retry, next] = calls.map((c) => c.key);
    expect(first).to.be.a('string');
    expect(retry).to.equal(first);
    expect(next).to.not.equal(first);
  });
});

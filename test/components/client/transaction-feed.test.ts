// The transaction feed: a status arriving over /bff/events (SSE read with fetch, the session in the Authorization header),
// and polling that takes over when the stream is cut.
import { expect, waitUntil } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { createBffClient } from '../../../src/client/bff-client';
import { eventsOpener } from '../../../src/client/event-stream';
import { transactionFeed } from '../../../src/client/transaction-feed';
import type { Transaction } from '../../../src/contract/transactions';
import { startMockBff, worker } from '../support/mock-bff';

const TX = '01900000-0000-7000-8000-0000000000aa';
const tx = (status: string) => ({ id: TX, customerId: 'c', type: 'ON_RAMP', request: {}, state: { status } }) as unknown as Transaction;
const frame = (event: string, data: unknown, id?: string) => `event: ${event}\ndata: ${JSON.stringify(data)}\n${id ? `id: ${id}\n` : ''}\n`;

/** An SSE body: the frames, then either held open (until aborted) or cut. */
function sse(frames: string[], cut: boolean) {
  const enc = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const f of frames) {
        controller.enqueue(enc.encode(f));
        await new Promise((r) => setTimeout(r, 30));
      }
      if (cut) controller.error(new Error('cut'));
    },
  });
}

describe('transaction feed', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  it('a status arrives over SSE, with the session as a bearer token and no polling while the stream is up', async () => {
    let auth: string | null = null;
    let reads = 0;
    worker.use(
      http.get('*/bff/events', ({ request }) => {
        auth = request.headers.get('authorization');
        const body = sse([frame('ready', {}), frame('onramp.awaiting_funds', { eventId: 'e0', data: { ...tx('AWAITING_FUNDS'), id: 'another' } }, 'e0'), frame('onramp.trading', { eventId: 'e1', data: tx('TRADING') }, 'e1')], false);
        return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
      }),
      http.get('*/bff/transactions/:id', () => {
        reads++;
        return HttpResponse.json(tx('AWAITING_FUNDS'));
      }),
    );
    const client = createBffClient({ apiBase: '/bff', session: () => 'session-token' });
    const seen: string[] = [];
    const sub = transactionFeed(client, TX, { intervalMs: 50, open: eventsOpener({ apiBase: '/bff', session: () => 'session-token' }) })({ next: (t) => seen.push(t.state.status), error: () => {} });
    await waitUntil(() => seen.includes('TRADING'), 'no TRADING over SSE', { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 300));
    sub.stop();
    expect(auth).to.equal('Bearer session-token');
    // One read when the stream opened (to catch up), then only the stream: a 50 ms poll would have read several times.
    expect(reads).to.equal(1);
    expect(seen.at(-1)).to.equal('TRADING');
    expect(seen.filter((s) => s === 'AWAITING_FUNDS').length).to.be.at.most(1);
  });

  it('when the stream is cut, polling takes over; the reconnection resumes with Last-Event-ID', async () => {
    let status = 'AWAITING_FUNDS';
    const lastIds: (string | null)[] = [];
    worker.use(
      http.get('*/bff/events', ({ request }) => {
        lastIds.push(request.headers.get('last-event-id'));
        if (lastIds.length > 1) return new HttpResponse(null, { status: 503 });
        return new HttpResponse(sse([frame('ready', {}), frame('onramp.transferring_fiat', { eventId: 'e1', data: tx('TRANSFERRING_FIAT') }, 'e1')], true), {
          headers: { 'content-type': 'text/event-stream' },
        });
      }),
      http.get('*/bff/transactions/:id', () => HttpResponse.json(tx(status))),
    );
    const client = createBffClient({ apiBase: '/bff', session: () => 'session-token', retries: 0 });
    const seen: string[] = [];
    const sub = transactionFeed(client, TX, { intervalMs: 50, retryMs: 200, open: eventsOpener({ apiBase: '/bff', session: () => 'session-token' }) })({ next: (t) => seen.push(t.state.status), error: () => {} });
    await waitUntil(() => seen.includes('TRANSFERRING_FIAT'), 'no status over SSE', { timeout: 3000 });
    status = 'SUCCESS';
    await waitUntil(() => seen.includes('SUCCESS'), 'polling did not take over', { timeout: 3000 });
    await waitUntil(() => lastIds.length >= 2, 'no reconnection', { timeout: 3000 });
    sub.stop();
    expect(lastIds[0]).to.equal(null);
    expect(lastIds[1]).to.equal('e1');
  });
});

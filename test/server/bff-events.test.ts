// /bff/events: the session customer's events as Server-Sent Events, resumable with Last-Event-ID, closed when the session ends.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, individual, type TestServer, startTestServer } from './harness';
import { pixAccount } from './transactions-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const api = () => client(server, server.apiKey);

async function customerWithSession(expiresIn = 900) {
  const { body: customer } = await api().post('/v2/customers', individual({ metadata: { partnerRef: 'private' } }));
  const s = await api().post('/v2/widget-sessions', { customerId: customer.id, expiresIn });
  assert.equal(s.status, 201, s.text);
  return { customerId: customer.id as string, token: s.body.token as string };
}

interface Sse {
  id?: string;
  event?: string;
  data: string;
}

/** An open stream: frames as they arrive, comments counted, `ended` once the server closes it. */
function open(token: string, headers: Record<string, string> = {}) {
  const ac = new AbortController();
  const frames: Sse[] = [];
  let comments = 0;
  let ended = false;
  const res = Promise.resolve(server.app.request('/bff/events', { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers }, signal: ac.signal }));
  const done = res.then(async (r) => {
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reader = r.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const f: Sse = { data: '' };
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments++;
            else if (line.startsWith('id: ')) f.id = line.slice(4);
            else if (line.startsWith('event: ')) f.event = line.slice(7);
            else if (line.startsWith('data: ')) f.data += line.slice(6);
          }
          if (f.event) frames.push(f);
        }
      }
    } catch {}
    ended = true;
  });
  return {
    frames,
    get comments() {
      return comments;
    },
    get ended() {
      return ended;
    },
    done,
    close: () => ac.abort(),
    async waitFor(pred: (f: Sse[]) => boolean, ms = 8000) {
      const until = Date.now() + ms;
      while (!pred(frames)) {
        if (Date.now() > until) throw new Error(`timed out; frames: ${JSON.stringify(frames.map((f) => f.event))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

const events = (frames: Sse[]) => frames.filter((f) => f.id);

describe('/bff/events', () => {
  test("only the session customer's events arrive, live, without the partner's metadata; another customer's never", async () => {
    const mine = await customerWithSession();
    const theirs = await customerWithSession();
    const s = open(mine.token);
    await s.waitFor((f) => f.some((x) => x.event === 'ready'));
    // History from before the stream opened is not replayed (no Last-Event-ID).
    await new Promise((r) => setTimeout(r, 1200));
    assert.deepEqual(events(s.frames), []);
    assert.equal((await api().post('/v2/bank-accounts', pixAccount(theirs.customerId))).status, 201);
    const created = await api().post('/v2/bank-accounts', pixAccount(mine.customerId));
    assert.equal(created.status, 201, created.text);
    await s.waitFor((f) => events(f).length >= 1);
    await new Promise((r) => setTimeout(r, 1200));
    s.close();
    const got = events(s.frames);
    assert.equal(got.length, 1, JSON.stringify(got));
    const body = JSON.parse(got[0]!.data);
    assert.equal(got[0]!.event, 'bank_account.under_verification');
    assert.equal(body.eventId, got[0]!.id);
    assert.equal(body.data.id, created.body.id);
    assert.equal(body.data.customerId, mine.customerId);
  });

  test('Last-Event-ID resumes after the last event seen, without repeats, and never reaches another customer', async () => {
    const mine = await customerWithSession();
    const theirs = await customerWithSession();
    const list = await api().get(`/v2/events?customerId=${mine.customerId}`);
    const createdEvent = list.body.data.at(-1).eventId as string;
    await api().post('/v2/bank-accounts', pixAccount(theirs.customerId));
    const a = await api().post('/v2/bank-accounts', pixAccount(mine.customerId));
    const b = await api().post('/v2/bank-accounts', pixAccount(mine.customerId, { name: 'Second' }));
    const s = open(mine.token, { 'last-event-id': createdEvent });
    await s.waitFor((f) => events(f).length >= 2);
    await new Promise((r) => setTimeout(r, 1200));
    s.close();
    const got = events(s.frames).map((f) => JSON.parse(f.data));
    // From the very start: the customer's creation too, without the partner's metadata.
    const all = open(mine.token, { 'last-event-id': '00000000-0000-0000-0000-000000000000' });
    await all.waitFor((f) => events(f).length >= 3);
    all.close();
    const first = JSON.parse(events(all.frames)[0]!.data);
    assert.equal(first.eventType, 'customer.created');
    assert.equal(first.data.id, mine.customerId);
    assert.equal('metadata' in first.data, false);
    assert.deepEqual(
      got.map((e) => e.data.id),
      [a.body.id, b.body.id],
    );
    assert.ok(got.every((e) => e.data.customerId === mine.customerId));
    // Resuming from the first of them brings only the second.
    const again = open(mine.token, { 'last-event-id': got[0].eventId });
    await again.waitFor((f) => events(f).length >= 1);
    await new Promise((r) => setTimeout(r, 1200));
    again.close();
    assert.deepEqual(events(again.frames).map((f) => f.id), [got[1].eventId]);
  });

  test('a malformed Last-Event-ID is a 400 naming it; no session is a 401', async () => {
    const mine = await customerWithSession();
    const bad = await server.app.request('/bff/events', { headers: { authorization: `Bearer ${mine.token}`, 'last-event-id': 'nope' } });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).errors[0].path, 'Last-Event-ID');
    assert.equal((await server.app.request('/bff/events')).status, 401);
  });

  test('the stream says so and closes when the session expires', async () => {
    const { customerId } = await customerWithSession();
    const token = await server.deps.tokens.signWidgetSession({ partnerId: server.deps.partnerId!, customerId, allowedOrigins: [], expiresAt: new Date(Date.now() + 2500) });
    const s = open(token);
    await s.waitFor((f) => f.some((x) => x.event === 'session_expired'), 6000);
    await Promise.race([s.done, new Promise((_, rej) => setTimeout(() => rej(new Error('stream not closed')), 3000))]);
    assert.equal(s.ended, true);
  });

  test('CORS: an allowed origin may read the stream', async () => {
    const { body: customer } = await api().post('/v2/customers', individual());
    const sess = await api().post('/v2/widget-sessions', { customerId: customer.id, allowedOrigins: ['https://shop.example'] });
    const ac = new AbortController();
    const res = await server.app.request('/bff/events', { headers: { authorization: `Bearer ${sess.body.token}`, origin: 'https://shop.example' }, signal: ac.signal });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example');
    ac.abort();
    await res.body?.cancel().catch(() => {});
  });
});

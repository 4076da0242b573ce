// /bff/events: the session customer's events as Server-Sent Events, resumable with Last-Event-ID, closed when the session ends.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { client, individual, type TestServer, startTestServer } from './harness';
import { events as eventsTable } from '../../server/store/schema/index';
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
    assert.equal(got[0]!.id!.split(';')[0], body.eventId, 'the frame id begins with the event id');
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
    assert.deepEqual(events(again.frames).map((f) => JSON.parse(f.data).eventId), [got[1].eventId]);
  });

  test('resuming with the stream’s own cursor finds an event that committed below an id already sent, and repeats nothing', async () => {
    const mine = await customerWithSession();
    const s = open(mine.token);
    await s.waitFor((f) => f.some((x) => x.event === 'ready'));
    for (const name of ['First', 'Second']) assert.equal((await api().post('/v2/bank-accounts', pixAccount(mine.customerId, { name }))).status, 201);
    await s.waitFor((f) => events(f).length >= 2);
    s.close();
    const last = events(s.frames).at(-1)!;
    const [lastId, , below] = last.id!.split(';');
    assert.deepEqual(below!.split(','), [JSON.parse(events(s.frames)[0]!.data).eventId], 'the cursor names what was sent just below');
    // A transaction that took its id before the last event's but committed after the client read it (UUIDv7 ids are
    // taken at insert, not at commit): the last one's millisecond, the lowest random part.
    const lateId = `${lastId!.slice(0, 14)}7000-8000-000000000001`;
    const [sent] = await server.deps.store.db.select().from(eventsTable).where(eq(eventsTable.id, lastId!));
    await server.deps.store.db.insert(eventsTable).values({ id: lateId, partnerId: server.deps.partnerId!, customerId: mine.customerId, eventType: 'bank_account.approved', data: sent!.data, createdAt: new Date() });
    const again = open(mine.token, { 'last-event-id': last.id! });
    await again.waitFor((f) => events(f).length >= 1);
    await new Promise((r) => setTimeout(r, 1200));
    again.close();
    assert.deepEqual(events(again.frames).map((f) => JSON.parse(f.data).eventId), [lateId], 'the late one only: nothing sent before is repeated');
    // A bare event id (as /v2/events lists them) still means strictly after it.
    const bare = open(mine.token, { 'last-event-id': lastId! });
    await bare.waitFor((f) => f.some((x) => x.event === 'ready'));
    await new Promise((r) => setTimeout(r, 1200));
    bare.close();
    assert.deepEqual(events(bare.frames), []);
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

  test('a session holds at most 5 streams at once: the sixth is a 429 with Retry-After, readable cross-origin; closing one frees its place', async () => {
    const { body: customer } = await api().post('/v2/customers', individual());
    const sess = await api().post('/v2/widget-sessions', { customerId: customer.id, allowedOrigins: ['https://shop.example'] });
    const headers = { origin: 'https://shop.example' };
    const streams = Array.from({ length: 5 }, () => open(sess.body.token, headers));
    for (const s of streams) await s.waitFor((f) => f.some((x) => x.event === 'ready'));
    const sixth = await server.app.request('/bff/events', { headers: { authorization: `Bearer ${sess.body.token}`, ...headers } });
    assert.equal(sixth.status, 429);
    assert.equal((await sixth.json()).code, 'RATE_LIMITED');
    assert.ok(Number(sixth.headers.get('retry-after')) > 0);
    assert.equal(sixth.headers.get('access-control-allow-origin'), 'https://shop.example');
    // Another session of the same customer has places of its own.
    const other = await api().post('/v2/widget-sessions', { customerId: customer.id });
    const elsewhere = open(other.body.token);
    await elsewhere.waitFor((f) => f.some((x) => x.event === 'ready'));
    streams[0]!.close();
    await streams[0]!.done;
    // The closed stream gives its place back once its loop sees the abort (within a poll).
    const deadline = Date.now() + 5000;
    for (;;) {
      const ac = new AbortController();
      const res = await server.app.request('/bff/events', { headers: { authorization: `Bearer ${sess.body.token}` }, signal: ac.signal });
      const status = res.status;
      ac.abort();
      await res.body?.cancel().catch(() => {});
      if (status === 200) break;
      assert.equal(status, 429);
      if (Date.now() > deadline) assert.fail('no place came free after a stream closed');
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const s of [...streams.slice(1), elsewhere]) s.close();
  });

  test('the open streams of a process share one poll: twenty streams cost the database what one does', async () => {
    const sessions = await Promise.all([0, 1, 2, 3].map(() => customerWithSession()));
    const ready = (s: ReturnType<typeof open>) => s.waitFor((f) => f.some((x) => x.event === 'ready'));
    const window = async () => {
      const before = server.deps.store.statements();
      await new Promise((r) => setTimeout(r, 3500));
      return server.deps.store.statements() - before;
    };
    const first = open(sessions[0]!.token);
    await ready(first);
    const single = await window();
    const more = sessions.flatMap((s, i) => Array.from({ length: i === 0 ? 4 : 5 }, () => open(s.token)));
    for (const s of more) await ready(s);
    const twenty = await window();
    for (const s of [first, ...more]) s.close();
    assert.ok(single >= 2, `one stream polled (${single} statements in 3.5 s)`);
    // One poll per tick either way (a stream polling on its own would make this twenty times as many).
    assert.ok(twenty <= single * 2 + 2, `${single} statements with one stream, ${twenty} with twenty`);
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

// Widget sessions bound to the partner's own user (`externalUserId`): the first session onboards and its customer keeps
// the id, every later one is bound to that customer, another partner's customer never; and the README's backend example
// is the code the e2e partner site runs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { client, individual, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const partnerApi = () => client(server, server.apiKey);
const userId = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}`;

async function mint(body: Record<string, unknown>, api = partnerApi()) {
  const res = await api.post('/v2/widget-sessions', body);
  assert.equal(res.status, 201, res.text);
  return { token: res.body.token as string, customerId: res.body.customerId as string | null, browser: client(server, res.body.token as string) };
}

const listed = async (externalUserId: string, api = partnerApi()) => {
  const res = await api.get(`/v2/customers?externalUserId=${encodeURIComponent(externalUserId)}`);
  assert.equal(res.status, 200, res.text);
  return (res.body.data as { id: string; externalUserId?: string }[]).map((c) => c.id);
};

describe('widget sessions for the partner\'s user', () => {
  test('the first session onboards and its customer keeps the id; every later session is bound to that customer', async () => {
    const user = userId('ana');
    const first = await mint({ externalUserId: user });
    assert.equal(first.customerId, null, 'no customer yet: an onboarding session');
    const created = await first.browser.post('/bff/customers', individual());
    assert.equal(created.status, 201, created.text);
    const id = created.body.customer.id as string;
    assert.equal(created.body.session.customerId, id);
    assert.equal(created.body.customer.externalUserId, undefined, "the partner's id for its user stays on its side");
    assert.equal((await partnerApi().get(`/v2/customers/${id}`)).body.externalUserId, user);

    // A reload, a renewal: the backend mints the same way and the session acts for the customer.
    for (let i = 0; i < 2; i++) {
      const again = await mint({ externalUserId: user });
      assert.equal(again.customerId, id);
      assert.equal((await again.browser.get('/bff/session')).body.customerId, id);
      const customer = await again.browser.get('/bff/customer');
      assert.equal(customer.status, 200, customer.text);
      assert.equal(customer.body.id, id);
      // Bound: it creates nothing more.
      assert.equal((await again.browser.post('/bff/customers', individual())).status, 409);
    }
    assert.deepEqual(await listed(user), [id]);
  });

  test("another partner's customer with the same externalUserId is never bound, listed or refused", async () => {
    const user = userId('bia');
    const mine = await partnerApi().post('/v2/customers', individual({ externalUserId: user }));
    assert.equal(mine.status, 201, mine.text);
    assert.equal(mine.body.externalUserId, user);
    const other = await newPartner(server);

    const foreign = await mint({ externalUserId: user }, other.api);
    assert.equal(foreign.customerId, null, "another partner's session is an onboarding one, not bound to this partner's customer");
    assert.deepEqual(await listed(user, other.api), []);
    assert.equal((await other.api.post('/v2/widget-sessions', { customerId: mine.body.id })).status, 404);

    // The other partner's own user of the same id is its own customer.
    const theirs = await other.api.post('/v2/customers', individual({ externalUserId: user }));
    assert.equal(theirs.status, 201, theirs.text);
    assert.equal((await mint({ externalUserId: user }, other.api)).customerId, theirs.body.id);
    assert.equal((await mint({ externalUserId: user })).customerId, mine.body.id);
    assert.deepEqual(await listed(user), [mine.body.id]);
    assert.deepEqual(await listed(user, other.api), [theirs.body.id]);
  });

  test('the list filter is an exact match', async () => {
    const user = userId('Caio');
    const created = await partnerApi().post('/v2/customers', individual({ externalUserId: user }));
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(await listed(user), [created.body.id]);
    for (const near of [user.toLowerCase(), `${user} `, user.slice(0, -1), `${user}%`]) assert.deepEqual(await listed(near), [], near);
  });

  test('one customer per externalUserId: a second creation over the API is 409 naming the field and the customer', async () => {
    const user = userId('dora');
    const first = await partnerApi().post('/v2/customers', individual({ externalUserId: user }));
    assert.equal(first.status, 201, first.text);
    const second = await partnerApi().post('/v2/customers', individual({ externalUserId: user }));
    assert.equal(second.status, 409, second.text);
    assert.deepEqual(
      second.body.errors.map((e: { path: string }) => e.path),
      ['externalUserId'],
    );
    assert.equal(second.body.existingCustomerId, first.body.id);
  });

  test('two first sessions of one user onboarding at once make one customer, and both end bound to it', async () => {
    for (let round = 0; round < 4; round++) {
      const user = userId('race');
      const tabs = [await mint({ externalUserId: user }), await mint({ externalUserId: user })];
      // Different tax ids, so only the user's id can tell them apart.
      const answers = await Promise.all(tabs.map((t) => t.browser.post('/bff/customers', individual({ taxId: taxIdEndingIn('cpf') }))));
      for (const a of answers) assert.equal(a.status, 201, a.text);
      const ids = await listed(user);
      assert.equal(ids.length, 1, `round ${round}: ${ids.length} customers`);
      for (const a of answers) {
        assert.equal(a.body.customer.id, ids[0]);
        assert.equal(a.body.session.customerId, ids[0]);
      }
    }
  });

  test('the browser cannot name the user: externalUserId in /bff/customers is 400, and nothing is created', async () => {
    const user = userId('eva');
    const res = await (await mint({})).browser.post('/bff/customers', { ...individual(), externalUserId: user });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['externalUserId'],
    );
    assert.deepEqual(await listed(user), []);
  });

  test('a bad externalUserId is 400 naming the field, on sessions, customers and the list', async () => {
    const bad: unknown[] = ['', 'a\u0000b', 'tab\there', 'bell\u0007', 'x'.repeat(129), 'lone\ud800', 42, null];
    for (const value of bad) {
      const session = await partnerApi().post('/v2/widget-sessions', { externalUserId: value });
      assert.equal(session.status, 400, `${JSON.stringify(value)}: ${session.text}`);
      assert.ok(session.body.errors.some((e: { path: string }) => e.path === 'externalUserId'), session.text);
      const customer = await partnerApi().post('/v2/customers', individual({ externalUserId: value }));
      assert.equal(customer.status, 400, `${JSON.stringify(value)}: ${customer.text}`);
      assert.ok(customer.body.errors.some((e: { path: string }) => e.path === 'externalUserId'), customer.text);
    }
    for (const value of ['', 'a\u0000b', 'x'.repeat(129)]) {
      const res = await partnerApi().get(`/v2/customers?externalUserId=${encodeURIComponent(value)}`);
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.errors.some((e: { path: string }) => e.path === 'query.externalUserId'), res.text);
    }
    assert.equal((await partnerApi().post('/v2/widget-sessions', { externalUserId: 'x'.repeat(128) })).status, 201);
    // One customer, named two ways, is refused rather than guessed.
    const known = await partnerApi().post('/v2/customers', individual());
    const both = await partnerApi().post('/v2/widget-sessions', { customerId: known.body.id, externalUserId: userId('both') });
    assert.equal(both.status, 400, both.text);
    assert.deepEqual(
      both.body.errors.map((e: { path: string }) => e.path),
      ['externalUserId'],
    );
  });

  test("the README's and docs/embedding.md's backend example is docs/examples/ramp-session.ts, which the e2e partner site imports", () => {
    const root = new URL('../../', import.meta.url);
    const example = readFileSync(new URL('docs/examples/ramp-session.ts', root), 'utf8');
    for (const doc of ['README.md', 'docs/embedding.md']) {
      assert.ok(readFileSync(new URL(doc, root), 'utf8').includes('```ts\n' + example + '```\n'), `${doc} shows docs/examples/ramp-session.ts as it is`);
    }
    assert.match(readFileSync(new URL('test/e2e/host-page.ts', root), 'utf8'), /import \{ rampSession \} from '\.\.\/\.\.\/docs\/examples\/ramp-session';/);
  });
});

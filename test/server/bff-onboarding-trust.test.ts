// What a browser may not learn or write through onboarding: whose customer a tax id is (no id in the conflict, and a cap
// on conflicts per session), and the partner's private `metadata`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, individual, type TestServer, startTestServer, taxIdEndingIn } from './harness';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_RATE_LIMIT_CONFLICTS: '3/900' });
});
after(() => server.close());

const partnerApi = () => client(server, server.apiKey);
const onboarding = async () => {
  const res = await partnerApi().post('/v2/widget-sessions', {});
  assert.equal(res.status, 201, res.text);
  return client(server, res.body.token as string);
};
const customerCount = async () => {
  let n = 0;
  for (let cursor: string | undefined, more = true; more; ) {
    const page = (await partnerApi().get(`/v2/customers?size=100${cursor ? `&cursor=${cursor}` : ''}`)).body;
    n += page.data.length;
    more = page.pagination.hasNextPage;
    cursor = page.pagination.nextCursor;
  }
  return n;
};

describe('onboarding from the browser', () => {
  test('a tax id that already has a customer: 409 naming the field, never whose customer it is', async () => {
    const taken = await partnerApi().post('/v2/customers', individual());
    assert.equal(taken.status, 201, taken.text);
    const res = await (await onboarding()).post('/bff/customers', individual({ taxId: taken.body.taxId }));
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'CONFLICT');
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['taxId'],
    );
    assert.ok(!res.text.includes(taken.body.id), `the answer names the existing customer: ${res.text}`);
  });

  test('a session that meets taken tax ids past its budget is refused with 429 and Retry-After, even for a free one; another session is not', async () => {
    const probe = await onboarding();
    for (let i = 0; i < 3; i++) {
      const taken = await partnerApi().post('/v2/customers', individual());
      assert.equal((await probe.post('/bff/customers', individual({ taxId: taken.body.taxId }))).status, 409);
    }
    // The fourth taken id is past the budget: refused, not answered; from then on the session may not try at all.
    const fourth = await partnerApi().post('/v2/customers', individual());
    for (const body of [individual({ taxId: fourth.body.taxId }), individual()]) {
      const refused = await probe.post('/bff/customers', body);
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.code, 'RATE_LIMITED');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    }
    const other = await (await onboarding()).post('/bff/customers', individual());
    assert.equal(other.status, 201, other.text);
  });

  test('the browser cannot write metadata: 400 naming it, and nothing is created', async () => {
    const before = await customerCount();
    const res = await (await onboarding()).post('/bff/customers', { ...individual({ taxId: taxIdEndingIn('cpf') }), metadata: { tier: 'gold' } });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['metadata'],
    );
    assert.equal(await customerCount(), before);
  });
});

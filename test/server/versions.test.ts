// Pinned versions: Ramp-Version turns /v2 answers back across the changelog's breaking changes; every answer echoes it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { transformBody, stepsFor, VERSIONS, type ApiVersion } from '../../server/http/versions';
import { client, individual, newPartner, type TestServer, startTestServer } from './harness';
import { approvedIndividual } from './kyc-helpers';

let server: TestServer;
let apiKey: string;
let approved: string;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '0' });
  const p = await newPartner(server);
  apiKey = p.apiKey;
  approved = await approvedIndividual(server, p.api, p.apiKey);
});
after(() => server.close());

/** A pinned request, its answer checked against that version's document (`/openapi.json?version=`) by the harness. */
async function pinned(version: string, path: string) {
  const res = await client(server, apiKey).get(path, { 'ramp-version': version });
  return { status: res.status, version: res.headers.get('ramp-version'), body: res.body };
}

const older = (v: ApiVersion) => VERSIONS.filter((x) => VERSIONS.indexOf(x) <= VERSIONS.indexOf(v));

describe('Ramp-Version', () => {
  test('absent means the latest, echoed on every answer (problems too); an unknown version is a 400 naming the header', async () => {
    const api = client(server, apiKey);
    const latest = await api.get(`/v2/customers/${approved}`);
    assert.equal(latest.headers.get('ramp-version'), '2.4.0');
    assert.equal(latest.body.wallet, undefined);
    assert.equal(latest.body.transactionLimits, undefined);
    assert.equal((await api.get('/v2/customers/not-a-uuid')).headers.get('ramp-version'), '2.4.0');
    const missing = await api.get('/v2/customers/00000000-0000-7000-8000-000000000000');
    assert.equal(missing.status, 404, 'a problem thrown by the route');
    assert.equal(missing.headers.get('ramp-version'), '2.4.0');
    for (const bad of ['1.0.0', '2.5.0', 'latest', '2.2']) {
      const res = await api.get('/v2/customers', { 'ramp-version': bad });
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.errors[0].path, 'Ramp-Version');
    }
    assert.equal((await api.get('/v2/customers', { 'ramp-version': '2.4.0' })).headers.get('ramp-version'), '2.4.0');
  });

  test('2.4.0 → 2.3.0: INDIVIDUAL customers are returned as they are', async () => {
    const latest = await pinned('2.4.0', `/v2/customers/${approved}`);
    const old = await pinned('2.3.0', `/v2/customers/${approved}`);
    assert.equal(old.version, '2.3.0');
    assert.equal(old.body.type, 'INDIVIDUAL');
    delete latest.body.verification.link;
    delete old.body.verification.link;
    assert.deepEqual(old.body, latest.body);
  });

  for (const v of older('2.2.0')) {
    test(`${v}: \`wallet\` and \`balances\` of the default wallet beside \`wallets\` (one customer and lists)`, async () => {
      const one = await pinned(v, `/v2/customers/${approved}?includeBalances=true`);
      assert.equal(one.status, 200);
      assert.equal(one.version, v);
      const def = one.body.wallets.find((w: { isDefault: boolean }) => w.isDefault);
      assert.equal(one.body.wallet.address, def.address);
      assert.equal(one.body.wallet.blockchain, def.blockchain);
      assert.equal(one.body.wallet.balances, undefined);
      assert.deepEqual(one.body.balances, def.balances);
      const list = await pinned(v, '/v2/customers');
      const mine = list.body.data.find((c: { id: string }) => c.id === approved);
      assert.equal(mine.wallet.address, def.address);
      assert.equal((await pinned('2.3.0', `/v2/customers/${approved}`)).body.wallet, undefined);
    });
  }

  for (const v of older('2.1.0')) {
    test(`${v}: \`transactionLimits\` by default on GET /customers/{id}, without \`used\`/\`remaining\``, async () => {
      const one = await pinned(v, `/v2/customers/${approved}`);
      assert.equal(one.status, 200);
      assert.deepEqual(Object.keys(one.body.transactionLimits).sort(), ['daily', 'monthly', 'single']);
      assert.equal(one.body.transactionLimits.daily.used, undefined);
      assert.equal(one.body.transactionLimits.daily.remaining, undefined);
      assert.equal(typeof one.body.transactionLimits.daily.max, 'string');
      // Asking explicitly is still honoured; 2.2.0 itself does not add them.
      assert.equal((await pinned(v, `/v2/customers/${approved}?includeTransactionLimits=false`)).body.transactionLimits, undefined);
      assert.equal((await pinned('2.2.0', `/v2/customers/${approved}`)).body.transactionLimits, undefined);
    });
  }

  test('2.0.0: no `purpose` under `request` and no `targetAmount` in `receipt` (single, page and event data)', () => {
    const tx = {
      id: 't',
      customerId: 'c',
      type: 'ON_RAMP',
      request: { purpose: 'PERSONAL_ACCOUNT', rail: 'PIX', sourceAmount: '10.00' },
      state: { status: 'SUCCESS', receipt: { transactionHash: '0x1', blockExplorerUrl: 'https://x', targetAmount: '1.9' } },
    };
    const expected = { ...tx, request: { rail: 'PIX', sourceAmount: '10.00' }, state: { status: 'SUCCESS', receipt: { transactionHash: '0x1', blockExplorerUrl: 'https://x' } } };
    assert.deepEqual(transformBody(tx, stepsFor('2.0.0')), expected);
    assert.deepEqual(transformBody({ data: [tx], pagination: {} }, stepsFor('2.0.0')), { data: [expected], pagination: {} });
    assert.deepEqual(transformBody({ eventId: 'e', data: tx }, stepsFor('2.0.0')), { eventId: 'e', data: expected });
    assert.deepEqual(transformBody(tx, stepsFor('2.1.0')), tx);
  });

  test('a pinned version changes nothing else: another partner is still 404, and problems keep their shape', async () => {
    const other = await newPartner(server);
    const { body: theirs } = await other.api.post('/v2/customers', individual());
    const res = await pinned('2.0.0', `/v2/customers/${theirs.id}`);
    assert.equal(res.status, 404);
    assert.equal(res.version, '2.0.0');
    assert.equal(res.body.code, 'NOT_FOUND');
  });
});

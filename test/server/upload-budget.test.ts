// Stored bytes have ceilings beyond the customer's: a line of widget sessions (an onboarding session and the session of the
// customer it created) has an upload budget, smaller when an anonymous visitor began it (POST /bff/public-session), and
// all of a partner's documents have one. Refused uploads give their reservation back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, individual, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { compileContract } from './contract';
import { individualInfo } from './kyc-helpers';
import { multipartBody, pdfOfSize } from './uploads-helpers';

const MiB = 1024 * 1024;
const shop = 'https://shop.example';
let server: TestServer;

before(async () => {
  server = await startTestServer({
    RAMP_PUBLIC_ONBOARDING: shop,
    RAMP_MAX_UPLOAD_BYTES_PER_ANONYMOUS_SESSION: String(3 * MiB),
    RAMP_MAX_UPLOAD_BYTES_PER_SESSION: String(6 * MiB),
  });
});
after(() => server?.close());

/** A customer created by an onboarding session (anonymous or the partner's), and the session bound to it. */
async function onboarded(kind: 'anonymous' | 'partner', cpfDigit: number): Promise<string> {
  const origin = kind === 'anonymous' ? shop : undefined;
  const first =
    kind === 'anonymous'
      ? ((await (await server.app.request('/bff/public-session', { method: 'POST', headers: { origin: shop } })).json()) as { token: string }).token
      : (await client(server, server.apiKey).post('/v2/widget-sessions', {})).body.token;
  const headers = { authorization: `Bearer ${first}`, 'content-type': 'application/json', ...(origin ? { origin } : {}) };
  const created = await server.app.request('/bff/customers', { method: 'POST', headers, body: JSON.stringify(individual({ taxId: taxIdEndingIn('cpf', cpfDigit) })) });
  const body = (await created.json()) as { session: { token: string } };
  assert.equal(created.status, 201, JSON.stringify(body));
  const token = body.session.token;
  const info = await server.app.request('/bff/customer/additional-information', { method: 'PATCH', headers: { ...headers, authorization: `Bearer ${token}` }, body: JSON.stringify(individualInfo()) });
  assert.equal(info.status, 200, await info.text());
  return token;
}

/** One upload through the BFF; `declared` false sends it without a Content-Length (a stream). */
async function upload(token: string, file: Buffer, opts: { origin?: string; declared?: boolean } = {}) {
  const { body, contentType } = multipartBody({ type: 'BANK_STATEMENT' }, file);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': contentType, ...(opts.origin ? { origin: opts.origin } : {}) };
  if (opts.declared !== false) headers['content-length'] = String(body.length);
  const res = await server.app.request('/bff/customer/documents', { method: 'POST', headers, body: new Uint8Array(body) });
  return { status: res.status, body: (await res.json()) as { code?: string; used?: { bytes: number }; limit?: { bytes: number } } };
}

describe('the upload budget of a line of widget sessions', () => {
  test('a customer onboarded by an anonymous visitor uploads within the anonymous budget (3 MiB here), then 409 DOCUMENT_QUOTA_EXCEEDED', async () => {
    const token = await onboarded('anonymous', 1);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) statuses.push((last = await upload(token, pdfOfSize(MiB), { origin: shop })).status);
    assert.deepEqual(statuses, [201, 201, 409, 409]);
    assert.equal(last!.body.code, 'DOCUMENT_QUOTA_EXCEEDED');
    assert.equal(last!.body.limit?.bytes, 3 * MiB);
    assert.equal((last!.body as { scope?: string }).scope, 'session');
  });

  test("a customer onboarded through the partner's session has the larger budget (6 MiB here)", async () => {
    const token = await onboarded('partner', 2);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await upload(token, pdfOfSize(MiB))).status);
    assert.deepEqual(statuses, [201, 201, 201, 201, 201, 409]);
  });

  test('a refused upload (a text file: 415) gives its reservation back; a body without a length spends only what it sent', async () => {
    const token = await onboarded('anonymous', 3);
    for (let i = 0; i < 5; i++) assert.equal((await upload(token, Buffer.alloc(MiB, 'a'), { origin: shop })).status, 415);
    // Streamed: it reserves what the line has left, and gives back what the file did not take.
    assert.equal((await upload(token, pdfOfSize(MiB), { origin: shop, declared: false })).status, 201);
    assert.equal((await upload(token, pdfOfSize(MiB), { origin: shop, declared: false })).status, 201);
    assert.equal((await upload(token, pdfOfSize(MiB), { origin: shop })).status, 409);
  });

  test('a body without a length that runs past what the line has left is refused 409, and spends nothing', async () => {
    const token = await onboarded('anonymous', 8);
    assert.equal((await upload(token, pdfOfSize(MiB), { origin: shop })).status, 201);
    const over = await upload(token, pdfOfSize(2.5 * MiB), { origin: shop, declared: false });
    assert.equal(over.status, 409, JSON.stringify(over.body));
    assert.equal(over.body.code, 'DOCUMENT_QUOTA_EXCEEDED');
    assert.equal((await upload(token, pdfOfSize(MiB), { origin: shop })).status, 201, 'what was reserved for it came back');
  });

  test('concurrent uploads of one line never pass its budget together', async () => {
    const token = await onboarded('anonymous', 4);
    const statuses = await Promise.all(Array.from({ length: 8 }, () => upload(token, pdfOfSize(MiB), { origin: shop }).then((r) => r.status)));
    assert.equal(statuses.filter((s) => s === 201).length, 2, statuses.join(' '));
    assert.ok(statuses.every((s) => s === 201 || s === 409), statuses.join(' '));
  });
});

describe("the partner's documents together", () => {
  let small: TestServer;
  before(async () => {
    small = await startTestServer({ RAMP_MAX_DOCUMENT_BYTES_PER_PARTNER: String(Math.floor(2.5 * MiB)) });
  });
  after(() => small?.close());

  test('past RAMP_MAX_DOCUMENT_BYTES_PER_PARTNER, any customer of the partner is refused 409 DOCUMENT_QUOTA_EXCEEDED naming the partner', async () => {
    const api = client(small, small.apiKey);
    const contract = compileContract(await (await small.app.request('/openapi.json')).json());
    const statuses: number[] = [];
    let last;
    for (const digit of [5, 6, 7]) {
      const c = await api.post('/v2/customers', individual({ taxId: taxIdEndingIn('cpf', digit) }));
      assert.equal((await api.patch(`/v2/customers/${c.body.id}/additional-information`, individualInfo())).status, 200);
      const { body, contentType } = multipartBody({ type: 'BANK_STATEMENT' }, pdfOfSize(MiB));
      const res = await small.app.request(`/v2/customers/${c.body.id}/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${small.apiKey}`, 'content-type': contentType, 'content-length': String(body.length) },
        body: new Uint8Array(body),
      });
      statuses.push(res.status);
      last = (await res.json()) as { code: string; scope?: string };
      // The refusal is what the document says a problem is (its extension members are closed).
      assert.deepEqual(contract.check('POST', `/v2/customers/${c.body.id}/documents`, res.status, res.headers, last), []);
    }
    assert.deepEqual(statuses, [201, 201, 409]);
    assert.equal(last!.code, 'DOCUMENT_QUOTA_EXCEEDED');
    assert.equal(last!.scope, 'partner');
  });
});

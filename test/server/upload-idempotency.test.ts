// Issue 9 item 8 (idempotency): an upload's Idempotency-Key fingerprint is its file's bytes (sha256, hashed while
// streaming) and its fields, not its declared length.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { individual, newPartner, type TestServer, startTestServer } from './harness';
import { individualInfo, PDF } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

async function post(apiKey: string, customerId: string, bytes: Buffer, fields: Record<string, string>, key: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'statement.pdf');
  const req = new Request(`http://ramp.test/v2/customers/${customerId}/documents`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': key }, body: form });
  // Declare the length, as a real client does: the same length for both files below.
  const body = Buffer.from(await req.arrayBuffer());
  const res = await server.app.request(req.url, { method: 'POST', headers: { ...Object.fromEntries(req.headers), 'content-length': String(body.length) }, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
}

test('the same key with another file of the same size is a 409; with the same file it replays', async () => {
  const p = await newPartner(server);
  const id = (await p.api.post('/v2/customers', individual())).body.id as string;
  assert.equal((await p.api.patch(`/v2/customers/${id}/additional-information`, individualInfo())).status, 200);
  const other = Buffer.from(PDF);
  other[other.length - 3] = 'X'.charCodeAt(0); // same size, other bytes
  assert.equal(other.length, PDF.length);

  const first = await post(p.apiKey, id, PDF, { type: 'BANK_STATEMENT' }, 'up-1');
  assert.equal(first.status, 201, first.text);
  const differentFile = await post(p.apiKey, id, other, { type: 'BANK_STATEMENT' }, 'up-1');
  assert.equal(differentFile.status, 409, differentFile.text);
  assert.equal(differentFile.body.code, 'IDEMPOTENCY_KEY_REUSED');
  const differentField = await post(p.apiKey, id, PDF, { type: 'INCOME_TAX_RETURN' }, 'up-1');
  assert.equal(differentField.status, 409, differentField.text);
  const replay = await post(p.apiKey, id, PDF, { type: 'BANK_STATEMENT' }, 'up-1');
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.equal(replay.body.id, first.body.id);
  assert.equal((await p.api.get(`/v2/customers/${id}/documents`)).body.data.length, 1);
});

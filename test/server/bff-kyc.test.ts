// KYC through the BFF and the hosted verification page: the browser's paths to APPROVED, each scoped to one customer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { business, client, individual, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { businessInfo, individualInfo, JPG, PDF, PNG } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

async function boundSession(body: Record<string, unknown>) {
  const s = await client(server, server.apiKey).post('/v2/widget-sessions', {});
  const created = await client(server, s.body.token).post('/bff/customers', body);
  assert.equal(created.status, 201, created.text);
  return { token: created.body.session.token as string, customer: created.body.customer };
}

async function multipart(path: string, token: string, fields: Record<string, string>, bytes: Buffer, name = 'file.bin') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await server.app.request(path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: await res.json() };
}

const verifyToken = (link: string) => new URL(link).pathname.split('/')[2]!;

describe('KYC through the BFF', () => {
  test('an individual goes from a new customer to APPROVED with the session and the hosted link only', async () => {
    const { token, customer } = await boundSession(individual({ taxId: taxIdEndingIn('cpf', 0) }));
    const bff = client(server, token);
    const info = await bff.patch('/bff/customer/additional-information', individualInfo());
    assert.equal(info.status, 200, info.text);
    for (const [fields, bytes] of [
      [{ type: 'ID_CARD', side: 'FRONT_SIDE' }, JPG],
      [{ type: 'ID_CARD', side: 'BACK_SIDE' }, PNG],
      [{ type: 'BANK_STATEMENT' }, PDF],
    ] as const) {
      const up = await multipart('/bff/customer/documents', token, fields, bytes);
      assert.equal(up.status, 201, JSON.stringify(up.body));
    }
    assert.equal((await bff.get('/bff/customer/documents')).body.data.length, 3);

    const link = (await bff.get('/bff/customer')).body.verification.link as string;
    const page = await server.app.request(new URL(link).pathname);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.match(await page.text(), /<ramp-verification api-base="\/verify\/api" session="[\w.-]+"/);

    const hosted = client(server, verifyToken(link));
    assert.equal((await hosted.get('/verify/api/customer')).body.id, customer.id);
    const selfie = await multipart('/verify/api/customer/liveness', verifyToken(link), {}, JPG, 'selfie.jpg');
    assert.equal(selfie.status, 200, JSON.stringify(selfie.body));
    assert.equal(selfie.body.verification.status, 'UNDER_VERIFICATION');
    assert.ok((await bff.get('/bff/customer/documents')).body.data.some((d: { type: string }) => d.type === 'SELFIE'));
    await server.advance(61);
    const approved = await bff.get('/bff/customer');
    assert.equal(approved.body.verification.status, 'APPROVED');
    assert.equal((await bff.get('/bff/customer/verifications')).body.data[0].status, 'APPROVED');
  });

  test('a business adds parties, documents and starts verification through the BFF', async () => {
    const { token } = await boundSession(business({ taxId: taxIdEndingIn('cnpj', 4) }));
    const bff = client(server, token);
    assert.equal((await bff.patch('/bff/customer/additional-information', businessInfo())).status, 200);
    for (const type of ['INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY']) {
      assert.equal((await multipart('/bff/customer/documents', token, { type }, PDF)).status, 201);
    }
    const missing = await bff.post('/bff/customer/verifications');
    assert.equal(missing.status, 409);
    assert.deepEqual(missing.body.missing, ['ASSOCIATED_PARTIES']);
    const party = await bff.post('/bff/customer/associated-parties', {
      type: 'INDIVIDUAL', roles: ['UBO'], ownershipPercentage: '100', name: 'Ivo Reis', taxId: taxIdEndingIn('cpf'), birthDate: '1970-02-02', email: 'ivo@acme.example',
      address: { country: 'BRA', line1: 'Rua B, 2', city: 'Recife', state: 'PE', postalCode: '50000-000' },
    });
    assert.equal(party.status, 201, party.text);
    assert.equal((await multipart('/bff/customer/documents', token, { type: 'PASSPORT', associatedPartyId: party.body.id }, JPG)).status, 201);
    assert.equal((await bff.get('/bff/customer/associated-parties')).body.data.length, 1);
    const started = await bff.post('/bff/customer/verifications');
    assert.equal(started.status, 201, started.text);
    await server.advance(61);
    assert.equal((await bff.get('/bff/customer')).body.verification.status, 'APPROVED');
  });

  test('upload problems reach the browser as they are: 415 for a text file, 409 before additional information', async () => {
    const { token } = await boundSession(individual());
    const early = await multipart('/bff/customer/documents', token, { type: 'BANK_STATEMENT' }, PDF);
    assert.equal(early.status, 409);
    await client(server, token).patch('/bff/customer/additional-information', individualInfo());
    const text = await multipart('/bff/customer/documents', token, { type: 'BANK_STATEMENT' }, Buffer.from('hello, not a pdf'.repeat(20)), 'x.pdf');
    assert.equal(text.status, 415);
  });

  test('an onboarding session that has not created its customer has nothing to act on', async () => {
    const s = await client(server, server.apiKey).post('/v2/widget-sessions', {});
    const bff = client(server, s.body.token);
    for (const res of [
      await bff.get('/bff/customer/documents'),
      await bff.patch('/bff/customer/additional-information', individualInfo()),
      await bff.post('/bff/customer/verifications'),
    ]) {
      assert.equal(res.status, 404);
    }
  });
});

describe('the hosted verification page', () => {
  test('its API answers pages of any origin (an embedded <ramp-verification>): the link token is the only credential', async () => {
    const preflight = await server.app.request('/verify/api/customer', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/);
    const refused = await server.app.request('/verify/api/customer', { headers: { origin: 'https://shop.example', authorization: 'Bearer nope' } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), '*', 'the page can read why');
  });

  test('speaks the language the widget passes in ?lang=, else the browser\'s', async () => {
    const english = { 'accept-language': 'en-US,en;q=0.9' };
    const invalid = async (query: string) => (await server.app.request(`/verify/not-a-token${query}`, { headers: english })).text();
    assert.match(await invalid('?lang=pt-BR'), /<html lang="pt-BR"/);
    assert.match(await invalid(''), /<html lang="en"/);
  });

  test('an invalid link is a 404 page and a 401 API; a link never reaches another customer', async () => {
    assert.equal((await server.app.request('/verify/not-a-token')).status, 404);
    assert.equal((await client(server, 'nope').get('/verify/api/customer')).status, 401);
    const widget = await server.deps.tokens.signWidgetSession({ partnerId: server.deps.partnerId!, customerId: null, allowedOrigins: [], expiresAt: new Date(Date.now() + 60_000) });
    assert.equal((await client(server, widget).get('/verify/api/customer')).status, 401, 'a widget session is not a verification link');
    const a = await boundSession(individual());
    const b = await boundSession(individual());
    const linkA = verifyToken(a.customer.verification.link);
    assert.equal((await client(server, linkA).get('/verify/api/customer')).body.id, a.customer.id);
    assert.notEqual(a.customer.verification.link, b.customer.verification.link);
  });

  test('the selfie must be a photo, and the sandbox can simulate liveness', async () => {
    const { token, customer } = await boundSession(individual({ taxId: taxIdEndingIn('cpf', 6) }));
    const link = verifyToken(customer.verification.link);
    assert.equal((await multipart('/verify/api/customer/liveness', link, {}, PDF, 'me.pdf')).status, 415);
    const simulated = await client(server, link).post('/verify/api/customer/liveness/simulate');
    assert.equal(simulated.status, 200);
    assert.equal(simulated.body.requirements.find((r: { name: string }) => r.name === 'LIVENESS').status, 'SENT');
    assert.equal(simulated.body.verification.status, 'NOT_STARTED', 'documents are still missing');
    await client(server, token).patch('/bff/customer/additional-information', individualInfo());
    await multipart('/verify/api/customer/documents', link, { type: 'PASSPORT' }, JPG);
    await multipart('/verify/api/customer/documents', link, { type: 'BANK_STATEMENT' }, PDF);
    assert.equal((await client(server, token).get('/bff/customer')).body.verification.status, 'UNDER_VERIFICATION');
  });
});

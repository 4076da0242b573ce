// Customers over HTTP: creation of both types, the response shape of the spec, lists, filters, duplicates, tenancy, idempotency.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { business, client, individual, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { individualInfo, JPG, PDF, upload } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

describe('creating customers', () => {
  test('an individual is created with every field of the spec Customer table', async () => {
    const { api } = await newPartner(server);
    const body = individual({ email: 'ana@example.com', metadata: { partnerUserId: 'u_1' } });
    const res = await api.post('/v2/customers', body);
    assert.equal(res.status, 201);
    const c = res.body;
    assert.match(c.id, /^[0-9a-f-]{36}$/);
    assert.equal(res.headers.get('location'), `/v2/customers/${c.id}`);
    assert.equal(c.type, 'INDIVIDUAL');
    assert.equal(c.name, 'Ana Souza');
    assert.equal(c.taxId, body.taxId.replace(/\D/g, ''));
    assert.equal(c.birthDate, '1990-05-17');
    assert.equal(c.email, 'ana@example.com');
    assert.deepEqual(c.metadata, { partnerUserId: 'u_1' });
    assert.deepEqual(c.wallets, []);
    assert.equal(c.verification.status, 'NOT_STARTED');
    assert.equal(c.verification.level, 'STANDARD');
    assert.match(c.verification.link, /^http:\/\/ramp\.test\/verify\/[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.deepEqual(
      c.requirements.map((r: { name: string; status: string }) => [r.name, r.status]),
      [
        ['ADDITIONAL_INFORMATION', 'NOT_SENT'],
        ['ID_CARD', 'NOT_SENT'],
        ['BANK_STATEMENT', 'NOT_SENT'],
        ['LIVENESS', 'NOT_SENT'],
      ],
    );
    assert.equal(c.additionalInformation, undefined);
    assert.equal(c.transactionLimits, undefined);
    assert.ok(!Number.isNaN(Date.parse(c.createdAt)) && c.createdAt.endsWith('Z'));
    assert.equal(c.updatedAt, c.createdAt);
  });

  test('a business is created with its own fields and requirements', async () => {
    const { api } = await newPartner(server);
    const res = await api.post('/v2/customers', business());
    assert.equal(res.status, 201);
    assert.equal(res.body.legalName, 'Acme Pagamentos Ltda');
    assert.equal(res.body.incorporationDate, '2015-03-02');
    assert.equal(res.body.country, 'BRA');
    assert.equal(res.body.name, undefined);
    assert.deepEqual(res.body.metadata, {});
    assert.deepEqual(
      res.body.requirements.map((r: { name: string }) => r.name),
      ['ADDITIONAL_INFORMATION', 'INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY', 'ASSOCIATED_PARTIES'],
    );
  });

  test('a CPF with punctuation and a CNPJ written either way are accepted and stored normalised', async () => {
    const { api } = await newPartner(server);
    const raw = taxIdEndingIn('cpf');
    const formatted = `${raw.slice(0, 3)}.${raw.slice(3, 6)}.${raw.slice(6, 9)}-${raw.slice(9)}`;
    const res = await api.post('/v2/customers', individual({ taxId: formatted }));
    assert.equal(res.status, 201);
    assert.equal(res.body.taxId, raw);
    const alnum = await api.post('/v2/customers', business({ taxId: '12.ABC.345/01DE-35' }));
    assert.equal(alnum.status, 201, alnum.text);
    assert.equal(alnum.body.taxId, '12ABC34501DE35');
  });

  test('a foreign business carries a plain tax id', async () => {
    const { api } = await newPartner(server);
    const res = await api.post('/v2/customers', business({ country: 'USA', taxId: '12-3456789' }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.taxId, '123456789');
  });

  test('an individual without a country is Brazilian: the CPF rule applied, and the record says BRA', async () => {
    const { api } = await newPartner(server);
    const res = await api.post('/v2/customers', individual());
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.country, 'BRA');
  });

  test('a non-Brazilian individual carries their own country\'s tax id and goes all the way to review', async () => {
    const { api, apiKey } = await newPartner(server);
    // A US SSN: 9 digits, no CPF check digits; it ends in 0, which the sandbox approves.
    const res = await api.post('/v2/customers', individual({ name: 'John Doe', country: 'USA', taxId: '123-45-6780' }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.country, 'USA');
    assert.equal(res.body.taxId, '123456780');
    const id = res.body.id as string;
    const info = await api.patch(
      `/v2/customers/${id}/additional-information`,
      individualInfo({ phone: '+14155552671', firstName: 'John', lastName: 'Doe', address: { country: 'USA', line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '73301' }, jurisdictions: ['USA'] }),
    );
    assert.equal(info.status, 200, info.text);
    for (const [fields, bytes] of [
      [{ type: 'PASSPORT', country: 'USA' }, JPG],
      [{ type: 'BANK_STATEMENT' }, PDF],
    ] as const) {
      const up = await upload(server, apiKey, id, fields, { bytes });
      assert.equal(up.status, 201, up.text);
    }
    assert.equal((await api.post(`/v2/sandbox/customers/${id}/liveness`)).status, 200);
    const read = await api.get(`/v2/customers/${id}`);
    assert.equal(read.body.verification.status, 'UNDER_VERIFICATION');
  });

  test('the country decides the tax-id rule: a CPF for BRA only, a bounded id of letters and digits elsewhere', async () => {
    const { api } = await newPartner(server);
    const cpf = taxIdEndingIn('cpf', 0);
    assert.equal((await api.post('/v2/customers', individual({ country: 'BRA', taxId: cpf }))).status, 201);
    // A German Steuer-ID has 11 digits like a CPF but no CPF check digits: fine for DEU.
    const steuerId = await api.post('/v2/customers', individual({ country: 'DEU', taxId: '65 929 970 489' }));
    assert.equal(steuerId.status, 201, steuerId.text);
    for (const [what, body] of [
      ['a Brazilian with a bad CPF', individual({ country: 'BRA', taxId: '529.982.247-26' })],
      ['a Brazilian with a foreign-looking id', individual({ country: 'BRA', taxId: 'X1234567' })],
      ['a foreign id too short', individual({ country: 'DEU', taxId: '12-3' })],
      ['a foreign id too long', individual({ country: 'DEU', taxId: 'A'.repeat(33) })],
      ['a foreign id with no letters or digits', individual({ country: 'DEU', taxId: '-- --' })],
    ] as const) {
      const res = await api.post('/v2/customers', body);
      assert.equal(res.status, 400, `${what}: ${res.text}`);
      assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path), ['taxId'], what);
    }
    const unknown = await api.post('/v2/customers', individual({ country: 'XYZ', taxId: 'ABC12345' }));
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body.errors.map((e: { path: string }) => e.path), ['country']);
  });

  test('the same taxId twice for one partner is a 409 naming the existing customer', async () => {
    const { api } = await newPartner(server);
    const body = individual();
    const first = await api.post('/v2/customers', body);
    const second = await api.post('/v2/customers', { ...body, name: 'Someone Else' });
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'CONFLICT');
    assert.equal(second.body.existingCustomerId, first.body.id);
    assert.match(second.body.detail, new RegExp(first.body.id));
    assert.deepEqual(second.body.errors.map((e: { path: string }) => e.path), ['taxId']);
    const list = await api.get(`/v2/customers?taxId=${body.taxId}`);
    assert.equal(list.body.data.length, 1);
  });

  test('the same taxId at two partners is two customers', async () => {
    const a = await newPartner(server);
    const b = await newPartner(server);
    const body = individual();
    assert.equal((await a.api.post('/v2/customers', body)).status, 201);
    assert.equal((await b.api.post('/v2/customers', body)).status, 201);
  });

  test('creation writes a customer.created event in the same transaction', async () => {
    const { api, partnerId } = await newPartner(server);
    const res = await api.post('/v2/customers', individual());
    const { events } = await import('../../server/store/schema/index');
    const { eq } = await import('drizzle-orm');
    const rows = await server.deps.store.db.select().from(events).where(eq(events.partnerId, partnerId));
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.eventType, 'customer.created');
    assert.equal(rows[0]!.customerId, res.body.id);
    assert.equal((rows[0]!.data as { id: string }).id, res.body.id);
  });
});

describe('bad input', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['an invalid CPF check digit', individual({ taxId: '529.982.247-26' }), ['taxId']],
    ['a CPF of repeated digits', individual({ taxId: '111.111.111-11' }), ['taxId']],
    ['a Brazilian (country BRA) with a bad CPF', individual({ country: 'BRA', taxId: '529.982.247-26' }), ['taxId']],
    ['an invalid CNPJ', business({ taxId: '11.222.333/0001-82' }), ['taxId']],
    ['a birthDate in the future', individual({ birthDate: '2999-01-01' }), ['birthDate']],
    ['a minor', individual({ birthDate: new Date(Date.now() - 10 * 365 * 864e5).toISOString().slice(0, 10) }), ['birthDate']],
    ['a date that does not exist', individual({ birthDate: '1990-02-30' }), ['birthDate']],
    ['a date in another format', individual({ birthDate: '17/05/1990' }), ['birthDate']],
    ['an incorporationDate in the future', business({ incorporationDate: '2999-01-01' }), ['incorporationDate']],
    ['an unknown country', business({ country: 'XYZ' }), ['country']],
    ['an alpha-2 country', business({ country: 'BR' }), ['country']],
    ['a bad email', business({ email: 'not-an-email' }), ['email']],
    ['a missing name', { type: 'INDIVIDUAL', taxId: taxIdEndingIn('cpf'), birthDate: '1990-01-01' }, ['name']],
    ['a business without its required fields', { type: 'BUSINESS', taxId: taxIdEndingIn('cnpj') }, ['legalName', 'incorporationDate', 'country', 'email']],
    ['an unknown type', { type: 'ROBOT', name: 'x' }, ['type']],
    ['an unknown field', individual({ nickname: 'Aninha' }), ['nickname']],
    ['metadata that is not an object', individual({ metadata: 'x' }), ['metadata']],
  ];
  for (const [what, body, paths] of cases) {
    test(`${what} is a 400 naming ${paths.join(', ')}`, async () => {
      const res = await client(server, server.apiKey).post('/v2/customers', body);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.equal(res.body.status, 400);
      assert.ok(res.body.requestId);
      assert.deepEqual(
        res.body.errors.map((e: { path: string }) => e.path).sort(),
        [...paths].sort(),
      );
    });
  }

  test('a refused customer leaves nothing behind', async () => {
    const { api } = await newPartner(server);
    await api.post('/v2/customers', individual({ birthDate: '2999-01-01' }));
    const list = await api.get('/v2/customers');
    assert.equal(list.body.data.length, 0);
  });
});

describe('reading and listing', () => {
  test('a customer reads back as it was created', async () => {
    const { api } = await newPartner(server);
    const created = await api.post('/v2/customers', individual());
    const read = await api.get(`/v2/customers/${created.body.id}`);
    assert.equal(read.status, 200);
    // The verification link is minted afresh on every read (it expires), so it is the one field that differs.
    const withoutLink = (c: { verification: Record<string, unknown> }) => ({ ...c, verification: { ...c.verification, link: undefined } });
    assert.deepEqual(withoutLink(read.body), withoutLink(created.body));
    assert.notEqual(read.body.verification.link, created.body.verification.link);
  });

  test('transactionLimits come only when asked for, with the individual defaults', async () => {
    const { api } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    const read = await api.get(`/v2/customers/${c.id}?includeTransactionLimits=true`);
    assert.deepEqual(read.body.transactionLimits, {
      single: { max: '1000.00' },
      daily: { max: '2000.00', used: '0.00', remaining: '2000.00' },
      monthly: { max: '5000.00', used: '0.00', remaining: '5000.00' },
    });
    const list = await api.get('/v2/customers?includeTransactionLimits=true');
    assert.equal(list.body.data[0].transactionLimits, undefined);
  });

  test('a malformed id is a 400 naming it; an unknown one is 404', async () => {
    const api = client(server, server.apiKey);
    const bad = await api.get('/v2/customers/not-a-uuid');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].path, 'id');
    const missing = await api.get('/v2/customers/01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'NOT_FOUND');
  });

  test('lists page newest first, 25 by default, and walk back with previousCursor', async () => {
    const { api } = await newPartner(server);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await api.post('/v2/customers', individual())).body.id);
    const newestFirst = [...ids].reverse();
    const p1 = await api.get('/v2/customers');
    assert.equal(p1.body.data.length, 25);
    assert.deepEqual(p1.body.data.map((c: { id: string }) => c.id), newestFirst.slice(0, 25));
    assert.deepEqual({ ...p1.body.pagination, nextCursor: !!p1.body.pagination.nextCursor }, {
      size: 25,
      hasNextPage: true,
      hasPreviousPage: false,
      nextCursor: true,
      previousCursor: null,
    });
    const p2 = await api.get(`/v2/customers?cursor=${p1.body.pagination.nextCursor}`);
    assert.deepEqual(p2.body.data.map((c: { id: string }) => c.id), newestFirst.slice(25));
    assert.equal(p2.body.pagination.hasNextPage, false);
    assert.equal(p2.body.pagination.nextCursor, null);
    assert.equal(p2.body.pagination.hasPreviousPage, true);
    const back = await api.get(`/v2/customers?cursor=${p2.body.pagination.previousCursor}`);
    assert.deepEqual(back.body.data.map((c: { id: string }) => c.id), newestFirst.slice(0, 25));
    assert.equal(back.body.pagination.hasPreviousPage, false);
    assert.equal(back.body.pagination.hasNextPage, true);
    const small = await api.get('/v2/customers?size=7');
    assert.equal(small.body.data.length, 7);
  });

  test('filters: type, status, taxId (any punctuation) and email (any case)', async () => {
    const { api } = await newPartner(server);
    const ind = individual({ email: 'Ana@Example.com' });
    await api.post('/v2/customers', ind);
    await api.post('/v2/customers', business());
    const ids = (r: { body: { data: { type: string }[] } }) => r.body.data.map((c) => c.type);
    assert.deepEqual(ids(await api.get('/v2/customers?type=BUSINESS')), ['BUSINESS']);
    assert.deepEqual(ids(await api.get('/v2/customers?type=INDIVIDUAL')), ['INDIVIDUAL']);
    assert.equal((await api.get('/v2/customers?status=NOT_STARTED')).body.data.length, 2);
    assert.equal((await api.get('/v2/customers?status=APPROVED')).body.data.length, 0);
    const d = ind.taxId as string;
    assert.deepEqual(ids(await api.get(`/v2/customers?taxId=${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`)), ['INDIVIDUAL']);
    assert.deepEqual(ids(await api.get('/v2/customers?email=ana@example.COM')), ['INDIVIDUAL']);
  });

  test('bad list parameters are 400s naming the query field', async () => {
    const api = client(server, server.apiKey);
    for (const [q, path] of [
      ['size=0', 'query.size'],
      ['size=101', 'query.size'],
      ['size=abc', 'query.size'],
      ['type=ROBOT', 'query.type'],
      ['status=DONE', 'query.status'],
      ['cursor=garbage', 'query.cursor'],
    ]) {
      const res = await api.get(`/v2/customers?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.errors[0].path, path, q);
    }
  });
});

describe('tenancy', () => {
  test("another partner's customer is 404 and absent from its lists", async () => {
    const a = await newPartner(server);
    const b = await newPartner(server);
    const { body: c } = await a.api.post('/v2/customers', individual());
    const res = await b.api.get(`/v2/customers/${c.id}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'NOT_FOUND');
    assert.equal((await b.api.get('/v2/customers')).body.data.length, 0);
    assert.equal((await b.api.get(`/v2/customers?taxId=${c.taxId}`)).body.data.length, 0);
  });
});

describe('idempotency', () => {
  test('a replay returns the same customer, marked replayed, and creates no second one', async () => {
    const { api } = await newPartner(server);
    const body = individual();
    const first = await api.post('/v2/customers', body, { 'idempotency-key': 'k-1' });
    const replay = await api.post('/v2/customers', body, { 'idempotency-key': 'k-1' });
    assert.equal(first.status, 201);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotency-replayed'), 'true');
    assert.equal(replay.text, first.text);
    assert.equal((await api.get('/v2/customers')).body.data.length, 1);
  });

  test('the same key with another body is a 409', async () => {
    const { api } = await newPartner(server);
    await api.post('/v2/customers', individual(), { 'idempotency-key': 'k-2' });
    const res = await api.post('/v2/customers', individual(), { 'idempotency-key': 'k-2' });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal((await api.get('/v2/customers')).body.data.length, 1);
  });

  test('20 identical requests racing create one customer and all answer it', async () => {
    const { api } = await newPartner(server);
    const body = individual();
    const replies = await Promise.all(Array.from({ length: 20 }, () => api.post('/v2/customers', body, { 'idempotency-key': 'race' })));
    assert.deepEqual(new Set(replies.map((r) => r.status)), new Set([201]));
    assert.equal(new Set(replies.map((r) => r.body.id)).size, 1);
    assert.equal(replies.filter((r) => r.headers.get('idempotency-replayed') === 'true').length, 19);
    assert.equal((await api.get('/v2/customers')).body.data.length, 1);
  });

  test('a refused request releases its key, so the corrected body may use it', async () => {
    const { api } = await newPartner(server);
    const bad = await api.post('/v2/customers', individual({ birthDate: '2999-01-01' }), { 'idempotency-key': 'k-3' });
    assert.equal(bad.status, 400);
    const good = await api.post('/v2/customers', individual(), { 'idempotency-key': 'k-3' });
    assert.equal(good.status, 201);
  });

  test('keys are per partner', async () => {
    const a = await newPartner(server);
    const b = await newPartner(server);
    assert.equal((await a.api.post('/v2/customers', individual(), { 'idempotency-key': 'same' })).status, 201);
    const other = await b.api.post('/v2/customers', individual(), { 'idempotency-key': 'same' });
    assert.equal(other.status, 201);
    assert.equal(other.headers.get('idempotency-replayed'), null);
  });

  test('a malformed key is a 400 naming the header', async () => {
    const res = await client(server, server.apiKey).post('/v2/customers', individual(), { 'idempotency-key': 'x'.repeat(300) });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].path, 'header.Idempotency-Key');
  });
});

describe('idempotency after a crash', () => {
  test('a claim abandoned mid-request (a process that died) is released after five minutes', async () => {
    const { api, partnerId } = await newPartner(server);
    const { claimKey } = await import('../../server/store/queries/idempotency');
    // A request claimed the key and its process died before answering.
    assert.equal(await claimKey(server.deps.store.db, partnerId, 'crashed', 'some-hash', new Date(Date.now() - 6 * 60 * 1000)), true);
    const res = await api.post('/v2/customers', individual(), { 'idempotency-key': 'crashed' });
    assert.equal(res.status, 201, res.text);
  });
});

// Property-based input handling (fast-check): whatever arrives, the answer is a success or a problem naming the field, never a 5xx or a partial write.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { client, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const field = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '1990-02-30', '2999-01-01', '1990-05-17', 'BRA', 'XYZ', 'a@b.co', '529.982.247-25', '11.222.333/0001-81', '\u0000', '💸'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }),
);

const customerLike = fc.record(
  {
    type: fc.oneof(fc.constantFrom('INDIVIDUAL', 'BUSINESS'), field),
    name: field,
    legalName: field,
    taxId: fc.oneof(fc.constant(taxIdEndingIn('cpf')), fc.constant(taxIdEndingIn('cnpj')), field),
    birthDate: field,
    incorporationDate: field,
    country: field,
    email: field,
    metadata: field,
  },
  { requiredKeys: [] },
);

describe('input properties', () => {
  test('POST /v2/customers never answers 5xx, and every 400 names at least one field', async () => {
    const { api } = await newPartner(server);
    await fc.assert(
      fc.asyncProperty(fc.oneof(customerLike, fc.jsonValue()), async (body) => {
        const res = await api.post('/v2/customers', JSON.stringify(body));
        assert.ok(res.status < 500, `${res.status} for ${JSON.stringify(body)}: ${res.text}`);
        if (res.status === 400) assert.ok(res.body.errors?.length > 0 && res.body.errors.every((e: { path: string }) => e.path));
        if (res.status !== 201) assert.equal(res.headers.get('content-type'), 'application/problem+json');
      }),
      { numRuns: 300 },
    );
  });

  test('a customer exists only for the requests that answered 201', async () => {
    const { api } = await newPartner(server);
    let created = 0;
    await fc.assert(
      fc.asyncProperty(customerLike, async (body) => {
        const res = await api.post('/v2/customers', body);
        if (res.status === 201) created++;
      }),
      { numRuns: 150 },
    );
    const list = await api.get('/v2/customers?size=100');
    assert.equal(list.body.data.length, created);
  });

  test('GET /v2/customers never answers 5xx for any query string', async () => {
    const api = client(server, server.apiKey);
    const key = fc.constantFrom('size', 'cursor', 'type', 'status', 'taxId', 'email', 'other');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, fc.string()), { maxLength: 4 }), async (pairs) => {
        const qs = new URLSearchParams(pairs).toString();
        const res = await api.get(`/v2/customers?${qs}`);
        assert.ok(res.status === 200 || res.status === 400, `${res.status} for ?${qs}: ${res.text}`);
      }),
      { numRuns: 200 },
    );
  });

  test('POST /v2/widget-sessions and /bff/customers never answer 5xx', async () => {
    const api = client(server, server.apiKey);
    const session = (await api.post('/v2/widget-sessions', {})).body.token as string;
    const bff = client(server, session);
    await fc.assert(
      fc.asyncProperty(
        fc.record({ customerId: field, allowedOrigins: field, expiresIn: field }, { requiredKeys: [] }),
        customerLike,
        async (sessionBody, customerBody) => {
          const a = await api.post('/v2/widget-sessions', sessionBody);
          assert.ok(a.status < 500, a.text);
          const b = await bff.post('/bff/customers', customerBody);
          assert.ok(b.status < 500, b.text);
        },
      ),
      { numRuns: 150 },
    );
  });
});

// The document and the server agree: every schema in /openapi.json compiles strictly, the statuses and headers any
// request can meet are documented and answered, and the checker that guards every other server test does catch drift.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compileContract } from './contract';
import { client, individual, newPartner, type TestServer, startTestServer } from './harness';

let server: TestServer;
let doc: any;
before(async () => {
  server = await startTestServer();
  doc = (await client(server).get('/openapi.json')).body;
});
after(() => server.close());

const UNKNOWN = '0190c6f0-0000-7000-8000-000000000000';

describe('the document', () => {
  test('every request and response schema compiles under a strict JSON Schema 2020 validator', () => {
    const contract = compileContract(doc);
    let checked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(op.responses)) {
          // An empty body against each schema compiles it (a violation is expected; an exception is not).
          const type = Object.keys(response.content ?? {})[0];
          if (!type) continue;
          contract.check(method.toUpperCase(), path.replace(/\{[^}]+\}/g, UNKNOWN), Number(status), new Headers({ 'content-type': type }), {});
          checked++;
        }
      }
    }
    assert.ok(checked > 100, `checked ${checked} responses`);
  });

  test('servers is relative, so "Try it out" works on any host name of the server', () => {
    assert.deepEqual(
      doc.servers.map((s: any) => s.url),
      ['/'],
    );
  });

  test('every write documents Idempotency-Key, 409, 413 and 415; every answer X-Request-Id; 401 WWW-Authenticate; 429 and 503 Retry-After', () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/v2/')) continue;
      for (const [method, op] of Object.entries<any>(item)) {
        const where = `${method} ${path}`;
        for (const status of ['401', '429', '503']) assert.ok(op.responses[status], `${where} documents ${status}`);
        assert.ok(op.responses['401'].headers['WWW-Authenticate'], where);
        assert.ok(op.responses['429'].headers['Retry-After'], where);
        assert.ok(op.responses['503'].headers['Retry-After'], where);
        for (const response of Object.values<any>(op.responses)) assert.ok(response.headers['X-Request-Id'], where);
        if (path.includes('{')) assert.ok(op.responses['400'], `${where} documents 400 for a malformed id`);
        if (method === 'post' || method === 'patch') {
          assert.ok(op.parameters?.some((p: any) => p.name === 'Idempotency-Key' && p.in === 'header'), `${where} takes Idempotency-Key`);
          assert.ok(op.responses['409'], `${where} documents 409`);
          if (op.requestBody) assert.ok(op.responses['413'] && op.responses['415'], `${where} documents 413 and 415`);
        }
      }
    }
  });

  test('a bank-account response satisfies the strict schema (the holder is not an unsatisfiable allOf)', () => {
    const holder = doc.components.schemas.BankAccount.properties.holder;
    assert.equal(holder.allOf, undefined);
  });
});

describe('what the document promises, the server answers', () => {
  test('a malformed path id is a documented 400 naming the parameter', async () => {
    const api = client(server, server.apiKey);
    for (const path of ['/v2/customers/not-a-uuid', '/v2/bank-accounts/1', `/v2/customers/x/documents`, '/v2/partner-fees/%00']) {
      const res = await api.get(path);
      assert.equal(res.status, 400, path);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
    }
  });

  test('a wrong method is 405 with Allow, not 404', async () => {
    const api = client(server, server.apiKey);
    const res = await api.send('DELETE', '/v2/customers');
    assert.equal(res.status, 405);
    assert.equal(res.body.code, 'METHOD_NOT_ALLOWED');
    assert.deepEqual(res.headers.get('allow')?.split(', ').sort(), ['GET', 'HEAD', 'POST']);
    const one = await api.send('PUT', `/v2/customers/${UNKNOWN}`);
    assert.equal(one.status, 405);
    assert.match(one.headers.get('allow') ?? '', /GET/);
    assert.equal((await api.get('/v2/no-such-thing')).status, 404);
  });

  test('a reused Idempotency-Key with another body is a documented 409 on every kind of write', async () => {
    const { api } = await newPartner(server);
    const customer = (await api.post('/v2/customers', individual())).body;
    const writes: [string, unknown, unknown][] = [
      ['/v2/widget-sessions', {}, { customerId: customer.id }],
      [
        '/v2/partner-fees',
        { name: 'A', walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7', fees: { onRamp: { rate: '10', flatAmount: '0' }, offRamp: { rate: '10', flatAmount: '0' } } },
        { name: 'B', walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7', fees: { onRamp: { rate: '10', flatAmount: '0' }, offRamp: { rate: '10', flatAmount: '0' } } },
      ],
      [
        '/v2/exchange-rates',
        { customerId: customer.id, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', sourceAmount: '100.00', targetCurrency: 'USDC' },
        { customerId: customer.id, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', sourceAmount: '200.00', targetCurrency: 'USDC' },
      ],
      ['/v2/customers', individual(), individual()],
    ];
    for (const [path, first, second] of writes) {
      const key = `reuse-${path}`;
      const a = await api.post(path, first, { 'idempotency-key': key });
      assert.ok(a.status < 300, `${path}: ${a.text}`);
      const replay = await api.post(path, first, { 'idempotency-key': key });
      assert.equal(replay.headers.get('idempotency-replayed'), 'true', path);
      const b = await api.post(path, second, { 'idempotency-key': key });
      assert.equal(b.status, 409, path);
      assert.equal(b.body.code, 'IDEMPOTENCY_KEY_REUSED');
    }
  });

  test('a body over 1 MB is a documented 413 and one that is not JSON a documented 415', async () => {
    const api = client(server, server.apiKey);
    const big = await api.post('/v2/customers', JSON.stringify({ ...individual(), name: 'x'.repeat(1_100_000) }));
    assert.equal(big.status, 413);
    const form = await api.post('/v2/exchange-rates', 'a=b', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 415);
  });
});

describe('the checker', () => {
  test('finds an undocumented status, an undocumented header and a body the schema refuses', () => {
    const contract = compileContract(doc);
    const json = { 'content-type': 'application/json' };
    assert.match(contract.check('GET', `/v2/customers/${UNKNOWN}`, 418, new Headers(json), {}).join(), /status 418 is not documented/);
    assert.match(contract.check('GET', '/v2/customers', 200, new Headers({ ...json, 'x-secret': '1' }), { data: [] }).join(), /header x-secret/);
    assert.match(contract.check('GET', '/v2/customers', 200, new Headers(json), { data: 'nope' }).join(), /body does not match/);
    assert.match(contract.check('PUT', '/v2/customers', 200, new Headers(json), {}).join(), /expected 405/);
    // Without the Location header in the document, the server's answer to POST /v2/customers is a violation.
    const stripped = structuredClone(doc);
    delete stripped.paths['/v2/customers'].post.responses['201'].headers.Location;
    const headers = new Headers({ ...json, location: `/v2/customers/${UNKNOWN}` });
    assert.match(compileContract(stripped).check('POST', '/v2/customers', 201, headers, {}).join(), /header location is not documented/);
  });
});

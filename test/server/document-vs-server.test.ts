// The document vs the server (issue 32 item 17): what /openapi.json says is what the /v2 API does, point by point.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Hono } from 'hono';
import { serveDocument } from '../../server/http/openapi-doc';
import type { AppEnv } from '../../server/http/env';
import { onError } from '../../server/http/problem';
import { documentFor, VERSIONS } from '../../server/http/versions';
import { compileContract } from './contract';
import { business, client, individual, newPartner, type TestServer, startTestServer } from './harness';
import { approvedIndividual, individualInfo, JPG, upload } from './kyc-helpers';

let server: TestServer;
let doc: any;
let api: ReturnType<typeof client>;
let apiKey: string;
before(async () => {
  server = await startTestServer();
  doc = (await client(server).get('/openapi.json')).body;
  ({ api, apiKey } = await newPartner(server));
});
after(() => server.close());

describe('the document describes itself', () => {
  test('info names a licence', () => {
    assert.equal(typeof doc.info.license?.name, 'string');
    assert.ok(doc.info.license.name.length > 0);
  });

  test('every webhook operation has an operationId of its own', () => {
    const ids = Object.values<any>(doc.webhooks).flatMap((item) => Object.values<any>(item).map((op) => op.operationId));
    assert.ok(ids.length > 10, `${ids.length} webhook operations`);
    for (const id of ids) assert.ok(typeof id === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(id), String(id));
    const all = [...ids, ...Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item).map((op) => op.operationId))];
    assert.equal(new Set(all).size, all.length, 'operationIds are unique across paths and webhooks');
  });
});

describe('Ramp-Version is what the document lists', () => {
  test('a version the document does not list (v-prefixed, padded) is a 400 naming the header', async () => {
    const listed: string[] = doc.paths['/v2/customers'].get.parameters.find((p: any) => p.name === 'Ramp-Version').schema.enum;
    for (const bad of ['v2.0.0', 'V2.4.0', 'v2.4.0']) {
      assert.ok(!listed.includes(bad));
      const res = await api.get('/v2/customers', { 'ramp-version': bad });
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.errors[0].path, 'Ramp-Version');
      assert.match(res.body.detail, /Ramp-Version/);
    }
    for (const v of listed) assert.equal((await api.get('/v2/customers?size=1', { 'ramp-version': v })).headers.get('ramp-version'), v);
  });

  test('a 400 on control characters carries Ramp-Version like every other /v2 answer', async () => {
    const query = await api.get('/v2/customers?cursor=%00');
    assert.equal(query.status, 400);
    assert.equal(query.body.errors[0].path, 'query.cursor');
    assert.equal(query.headers.get('ramp-version'), '2.4.0');
    const name = await api.get('/v2/customers?%01=x', { 'ramp-version': '2.3.0' });
    assert.equal(name.status, 400);
    assert.equal(name.headers.get('ramp-version'), '2.3.0');
    const body = await api.post('/v2/customers', { type: 'INDIVIDUAL', name: 'A\u0000' });
    assert.equal(body.status, 400);
    assert.equal(body.headers.get('ramp-version'), '2.4.0');
  });
});

describe('decimals are what the document\'s pattern says', () => {
  const fee = (onRamp: object, offRamp: object) => ({ name: 'Fees', walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7', blockchain: 'POLYGON', fees: { onRamp, offRamp } });

  test('a negative zero fee ("-0", "-0.00") is a 400 naming the field, never stored nor shown', async () => {
    const pattern = new RegExp(doc.components.schemas.CreatePartnerFee.properties.fees.properties.onRamp.properties.rate.pattern);
    for (const [onRamp, offRamp, path] of [
      [{ rate: '-0', flatAmount: '0' }, { rate: '0', flatAmount: '0' }, 'fees.onRamp.rate'],
      [{ rate: '0', flatAmount: '0' }, { rate: '0', flatAmount: '-0.00' }, 'fees.offRamp.flatAmount'],
    ] as const) {
      const bad = Object.values(path.includes('onRamp') ? onRamp : offRamp).find((v) => v.startsWith('-'))!;
      assert.ok(!pattern.test(bad), `the document refuses ${bad}`);
      const res = await api.post('/v2/partner-fees', fee(onRamp, offRamp));
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path), [path]);
    }
    const zero = await api.post('/v2/partner-fees', fee({ rate: '0', flatAmount: '0' }, { rate: '0.00', flatAmount: '0.00' }));
    assert.equal(zero.status, 201);
    assert.doesNotMatch(JSON.stringify(zero.body.fees), /-/);
    const listed = await api.get('/v2/partner-fees');
    assert.doesNotMatch(JSON.stringify(listed.body.data.map((f: { fees: unknown }) => f.fees)), /-0/);
  });
});

describe('documents and requirements', () => {
  test('every document type the upload documents is one the API takes (SELFIE is the hosted page\'s, not listed)', async () => {
    const listed: string[] = doc.components.schemas.UploadDocument.properties.type.enum;
    assert.ok(listed.includes('PASSPORT'));
    assert.ok(!listed.includes('SELFIE'), 'SELFIE is refused on POST /documents, so it is not offered');
    const id = (await api.post('/v2/customers', individual())).body.id as string;
    assert.equal((await api.patch(`/v2/customers/${id}/additional-information`, individualInfo())).status, 200);
    for (const type of listed) {
      const res = await upload(server, apiKey, id, { type, side: 'FRONT_SIDE', country: 'BRA' }, { bytes: JPG, name: 'doc.jpg' });
      assert.ok(res.status !== 400 || !res.body.errors?.some((e: { path: string }) => e.path === 'type'), `${type}: ${res.text}`);
    }
    // A stored selfie is still a document the customer has: the answer's enum keeps it.
    assert.ok(doc.components.schemas.Document.properties.type.enum.includes('SELFIE'));
  });

  test('acceptedTypes is documented for the requirement that carries it, with the types it lists', async () => {
    const id = (await api.post('/v2/customers', individual())).body.id as string;
    const customer = (await api.get(`/v2/customers/${id}`)).body;
    const found: { name: string; acceptedTypes: string[] }[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        if ('acceptedTypes' in v) found.push(v as (typeof found)[number]);
        Object.values(v).forEach(walk);
      }
    };
    walk(customer);
    assert.ok(found.length > 0, 'a new individual has the identity requirement');
    const documented = doc.components.schemas.Requirement.properties.acceptedTypes;
    for (const r of found) {
      assert.match(documented.description, new RegExp(`\\b${r.name}\\b`), `the description names ${r.name}`);
      assert.deepEqual(documented.items.enum, r.acceptedTypes);
    }
    assert.doesNotMatch(documented.description, /IDENTITY_DOCUMENT/, 'no requirement is named IDENTITY_DOCUMENT');
  });
});

describe('Idempotency-Key', () => {
  test('documented only where the server honours it: POST and PATCH, not PUT /transaction-limits (PUT is idempotent by itself)', async () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!op.parameters?.some((p: any) => p.name === 'Idempotency-Key')) continue;
        assert.ok(['post', 'patch'].includes(method), `${method} ${path} documents Idempotency-Key, which the server reads on POST and PATCH only`);
      }
    }
    const put = doc.paths['/v2/customers/{id}/transaction-limits'].put;
    assert.equal(put.responses['409'], undefined, 'no reused key to refuse');
    assert.equal(put.responses['200'].headers['Idempotency-Replayed'], undefined);
    assert.ok(put.responses['413'] && put.responses['415'], 'its body is still bounded and JSON');

    // What the server does: a key neither replays nor refuses; the same body twice leaves the same limits.
    const id = (await api.post('/v2/customers', individual())).body.id as string;
    const first = await api.send('PUT', `/v2/customers/${id}/transaction-limits`, { single: '500.00' }, { 'idempotency-key': 'limits-1' });
    assert.equal(first.status, 200, first.text);
    const again = await api.send('PUT', `/v2/customers/${id}/transaction-limits`, { single: '500.00' }, { 'idempotency-key': 'limits-1' });
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get('idempotency-replayed'), null);
    const other = await api.send('PUT', `/v2/customers/${id}/transaction-limits`, { single: '600.00' }, { 'idempotency-key': 'limits-1' });
    assert.equal(other.status, 200);
    assert.equal(other.body.single.max, '600.00');
  });
});

describe('answers are typed to their last member', () => {
  test('a problem body names and types every extension member, and no other (existingCustomerId, missing, …)', async () => {
    const problem = doc.components.schemas.Problem;
    assert.equal(problem.additionalProperties, false, 'a member not listed would be untyped');
    for (const member of ['existingCustomerId', 'verificationStatus', 'holderStatus', 'missing', 'limit', 'used', 'max', 'remaining', 'amountUsd', 'exchangeRateId', 'expiresAt', 'asset', 'blockchain', 'minimumSourceAmount', 'guaranteedTargetAmount', 'retryAfter']) {
      assert.ok(problem.properties[member], `Problem documents ${member}`);
    }
    // Answers the harness checks against that schema: a member it does not name fails them.
    const taken = individual();
    const first = await api.post('/v2/customers', taken);
    const again = await api.post('/v2/customers', { ...individual(), taxId: taken.taxId });
    assert.equal(again.status, 409);
    assert.equal(again.body.existingCustomerId, first.body.id);
    const company = (await api.post('/v2/customers', business())).body.id as string;
    const early = await api.post(`/v2/customers/${company}/verifications`, {});
    assert.equal(early.status, 409, early.text);
    assert.ok(Array.isArray(early.body.missing), early.text);
  });
});

describe('resources are typed to their last member', () => {
  /** The schema a component or property stands for, its `$ref`s followed. */
  const resolve = (s: any): any => (s?.$ref ? resolve(doc.components.schemas[s.$ref.replace('#/components/schemas/', '')]) : s);
  const options = (s: any): any[] => (resolve(s).anyOf ?? resolve(s).oneOf ?? [resolve(s)]).map(resolve);
  /** An object schema that says which members it has, and nothing else. */
  const closed = (s: any) => s.type === 'object' && s.properties && (s.additionalProperties === false || s.additionalProperties?.type === 'string');

  test('BankAccount.identifier is the union it is sent as: PIX, SEPA or SWIFT', () => {
    const identifier = doc.components.schemas.BankAccount.properties.identifier;
    const kinds = options(identifier).map((o) => Object.keys(o.properties).sort().join(','));
    assert.deepEqual(kinds.sort(), ['accountNumber,bankCountry,bankName,bic', 'bic,iban', 'keyType,keyValue']);
    for (const o of options(identifier)) assert.ok(closed(o), JSON.stringify(o));
  });

  test('Transaction.request is one closed shape per kind, state.payment one per rail', () => {
    const tx = doc.components.schemas.Transaction;
    const requests = options(tx.properties.request);
    assert.equal(requests.length, 3, 'on-ramp, off-ramp, transfer');
    for (const o of requests) assert.ok(closed(o), JSON.stringify(o));
    const onRamp = requests.find((o) => o.properties.sourceAmount)!;
    assert.ok(onRamp.required.includes('purpose') && onRamp.required.includes('payment'));
    const payments = options(tx.properties.state.properties.payment).flatMap((o) => (o.anyOf ? options(o) : [o]));
    for (const o of payments) assert.ok(closed(o), JSON.stringify(o));
    const rails = payments.flatMap((o) => resolve(o.properties.rail).enum ?? [resolve(o.properties.rail).const]);
    for (const rail of ['PIX', 'SEPA', 'SWIFT', 'ACH', 'FEDWIRE']) assert.ok(rails.includes(rail), rail);
  });

  test('an on-ramp over SEPA answers the bank details to pay (BankPayIn), checked against the document', async () => {
    const id = await approvedIndividual(server, api, apiKey);
    const res = await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'INVESTMENT', rail: 'SEPA', sourceCurrency: 'EUR', sourceAmount: '100.00', targetCurrency: 'USDC' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.state.payment.rail, 'SEPA');
    assert.equal(typeof res.body.state.payment.iban, 'string');
    assert.deepEqual(res.body.request.payment, { rail: 'SEPA' });
  });

  test('Event is one shape per event type, its data the schema its webhook documents', async () => {
    const shapes = options(doc.components.schemas.Event);
    const types = shapes.map((o) => {
      const t = resolve(o.properties.eventType);
      return t.const ?? (t.enum?.length === 1 ? t.enum[0] : undefined);
    });
    assert.deepEqual([...types].sort(), Object.keys(doc.webhooks).sort());
    for (const [i, o] of shapes.entries()) {
      const data = o.properties.data;
      const hook = doc.webhooks[types[i]].post.requestBody.content['application/json'].schema;
      assert.deepEqual(data, resolve(hook).properties.data, `${types[i]}: data as its webhook documents it`);
      assert.ok(data.$ref || resolve(data).properties, `${types[i]}: data is a schema, not any object`);
    }
    const customer = await api.post('/v2/customers', individual());
    const events = await api.get(`/v2/events?customerId=${customer.body.id}`);
    assert.equal(events.body.data[0].eventType, 'customer.created');
  });
});

describe('a document per version', () => {
  test('what a pinned version answers is what its document describes (and, before 2.2.0, not what the latest does)', async () => {
    const id = await approvedIndividual(server, api, apiKey);
    const tx = await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'INVESTMENT', rail: 'SEPA', sourceCurrency: 'EUR', sourceAmount: '100.00', targetCurrency: 'USDC' });
    assert.equal(tx.status, 201, tx.text);
    const paths = [`/v2/customers/${id}?includeBalances=true`, `/v2/customers/${id}`, '/v2/customers', `/v2/transactions/${tx.body.id}`, '/v2/transactions', `/v2/events?customerId=${id}`];
    const latest = compileContract(doc);
    for (const v of VERSIONS) {
      const contract = compileContract(documentFor(doc, v));
      const againstLatest: string[] = [];
      for (const path of paths) {
        const res = await server.app.request(path, { headers: { authorization: `Bearer ${apiKey}`, 'ramp-version': v } });
        const body = await res.json();
        assert.equal(res.status, 200, `${v} ${path}`);
        assert.deepEqual(contract.check('GET', path, 200, res.headers, body), [], `${v} ${path}`);
        againstLatest.push(...latest.check('GET', path, 200, res.headers, body));
      }
      if (v < '2.2.0') assert.ok(againstLatest.length > 0, `${v}: the latest document would not describe its answers`);
      else assert.deepEqual(againstLatest, []);
    }
  });

  test('the service serves them: /openapi.json?version=2.1.0 is that version\'s document, ?version=9 a 400 naming query.version', async () => {
    const latest = await (await server.app.request('/openapi.json')).json();
    const pinned = await (await server.app.request('/openapi.json?version=2.1.0')).json();
    assert.equal(pinned.info.version, '2.1.0');
    assert.deepEqual(pinned, JSON.parse(JSON.stringify(documentFor(latest, '2.1.0'))));
    const bad = await server.app.request('/openapi.json?version=9');
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { errors: { path: string }[] }).errors[0]!.path, 'query.version');
  });

  test('/openapi.json?version= serves each listed version\'s document; another is a 400 naming query.version', async () => {
    const docs = new Hono<AppEnv>().onError(onError).get('/openapi.json', serveDocument(() => doc));
    assert.deepEqual(await (await docs.request('/openapi.json')).json(), doc);
    for (const v of VERSIONS) {
      const res = await docs.request(`/openapi.json?version=${v}`);
      assert.equal(res.status, 200);
      const pinned = await res.json();
      assert.equal(pinned.info.version, v);
      assert.deepEqual(pinned, JSON.parse(JSON.stringify(documentFor(doc, v))));
    }
    const old = await (await docs.request('/openapi.json?version=2.1.0')).json();
    assert.deepEqual(Object.keys(old.components.schemas.TransactionLimits.properties.daily.properties), ['max']);
    for (const bad of ['v2.1.0', '2.5.0', '']) {
      const res = await docs.request(`/openapi.json?version=${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(((await res.json()) as any).errors[0].path, 'query.version');
    }
  });
});


// Every request example of the spec (../shared/spec/service-spec.md, "Endpoints"), sent as the spec shows it, succeeds;
// and the OpenAPI document is as strict as the server (item 9 of issue 10): patterns, required fields, one 404 rule.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { approvedIndividual, businessInfo, individualInfo, JPG, PDF, PNG, upload } from './kyc-helpers';
import { holderAddress, settle } from './transactions-helpers';

let server: TestServer;
type Api = ReturnType<typeof client>;
let api: Api;
let apiKey: string;
let customerId: string;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000', RAMP_SANDBOX_STEP_MS: '1000', RAMP_SANDBOX_BANK_ACCOUNT_MS: '1000' });
  const p = await newPartner(server);
  api = p.api;
  apiKey = p.apiKey;
  customerId = await approvedIndividual(server, api, apiKey);
});
after(() => server.close());

const ok = (res: { status: number; text: string }, status: number) => assert.equal(res.status, status, res.text);

/** The spec's bank-account body: customerId, name, type, rail, currency, identifier, holder (without verification). */
const specAccount = (id: string, holder: Record<string, unknown>) => ({
  customerId: id,
  name: 'Conta principal',
  type: 'EXTERNAL',
  rail: 'PIX',
  currency: 'BRL',
  identifier: { keyType: 'CPF', keyValue: holder.taxId },
  holder,
});

describe('spec request examples', () => {
  test('POST /customers, individual: type, name, taxId, birthDate', async () => {
    ok(await api.post('/v2/customers', { type: 'INDIVIDUAL', name: 'Ana Souza', taxId: taxIdEndingIn('cpf', 0), birthDate: '1990-05-17' }), 201);
  });

  test('POST /customers, business: type, legalName, taxId, incorporationDate, country, email', async () => {
    const res = await api.post('/v2/customers', { type: 'BUSINESS', legalName: 'Acme Ltda', taxId: taxIdEndingIn('cnpj', 0), incorporationDate: '2015-03-02', country: 'BRA', email: 'ops@acme.example' });
    ok(res, 201);
    assert.ok(res.body.verification.link);
  });

  test('GET /customers (no transactionLimits) and GET /customers/{id}/verifications/{verificationId}: {customerId, status, level}', async () => {
    const list = await api.get('/v2/customers');
    ok(list, 200);
    assert.ok(list.body.data.every((c: { transactionLimits?: unknown }) => c.transactionLimits === undefined));
    const [v] = (await api.get(`/v2/customers/${customerId}/verifications`)).body.data;
    const read = await api.get(`/v2/customers/${customerId}/verifications/${v.id}`);
    ok(read, 200);
    assert.deepEqual([read.body.customerId, read.body.status, read.body.level], [customerId, 'APPROVED', 'STANDARD']);
  });

  test('GET /customers/{id} with includeBalances and includeTransactionLimits', async () => {
    const res = await api.get(`/v2/customers/${customerId}?includeBalances=true&includeTransactionLimits=true`);
    ok(res, 200);
    assert.ok(res.body.transactionLimits.daily.remaining);
  });

  test('PATCH additional-information (individual and business), then POST documents with file, type, side, country', async () => {
    const ind = await api.post('/v2/customers', { type: 'INDIVIDUAL', name: 'Bia Lima', taxId: taxIdEndingIn('cpf', 0), birthDate: '1991-01-01' });
    ok(await api.patch(`/v2/customers/${ind.body.id}/additional-information`, individualInfo()), 200);
    for (const [fields, bytes] of [
      [{ type: 'ID_CARD', side: 'FRONT_SIDE', country: 'BRA' }, JPG],
      [{ type: 'ID_CARD', side: 'BACK_SIDE', country: 'BRA' }, PNG],
      [{ type: 'PASSPORT', side: 'FRONT_SIDE', country: 'BRA' }, JPG],
      [{ type: 'BANK_STATEMENT', country: 'BRA' }, PDF],
    ] as const) {
      const r = await upload(server, apiKey, ind.body.id, fields, { bytes });
      assert.equal(r.status, 201, r.text);
    }
    const biz = await api.post('/v2/customers', { type: 'BUSINESS', legalName: 'Beta SA', taxId: taxIdEndingIn('cnpj', 0), incorporationDate: '2015-03-02', country: 'BRA', email: 'b@beta.example' });
    ok(await api.patch(`/v2/customers/${biz.body.id}/additional-information`, businessInfo()), 200);
  });

  test('GET /bank-accounts with size, cursor and customerId; POST /bank-accounts as the spec lists it → 201 with holder verification', async () => {
    const { body: customer } = await api.get(`/v2/customers/${customerId}`);
    const created = await api.post('/v2/bank-accounts', specAccount(customerId, { type: 'INDIVIDUAL', relationship: 'SELF', name: customer.name, taxId: customer.taxId, birthDate: customer.birthDate, address: holderAddress }));
    ok(created, 201);
    assert.equal(created.body.holder.verification.level, 'BASIC');
    const list = await api.get(`/v2/bank-accounts?size=1&customerId=${customerId}`);
    ok(list, 200);
    ok(await api.get(`/v2/bank-accounts?size=1&customerId=${customerId}&cursor=${created.body.id}`), 200);
  });

  test('POST /exchange-rates FLOATING: customerId, type, rail, sourceCurrency, sourceAmount, targetCurrency (blockchain, partnerFeeId optional)', async () => {
    const res = await api.post('/v2/exchange-rates', { customerId, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', sourceAmount: '100.00', targetCurrency: 'USDC', blockchain: 'POLYGON' });
    ok(res, 200);
    assert.equal(res.body.blockchain, 'POLYGON');
  });

  test('POST /exchange-rates LOCKED: type, sourceCurrency, sourceAmount, targetCurrency, targetAmount, timeLock, partnerFeeId', async () => {
    const fee = await api.post('/v2/partner-fees', { name: 'Marketplace', walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7', fees: { onRamp: { rate: '10', flatAmount: '0' }, offRamp: { rate: '10', flatAmount: '0' } } });
    ok(fee, 201);
    const res = await api.post('/v2/exchange-rates', { type: 'LOCKED', sourceCurrency: 'BRL', sourceAmount: '100.00', targetCurrency: 'USDC', targetAmount: '1.00', timeLock: '30s', partnerFeeId: fee.body.id });
    ok(res, 200);
    assert.ok(res.body.id && res.body.expiresAt);
    ok(await api.get('/v2/partner-fees'), 200);
    ok(await api.get(`/v2/partner-fees/${fee.body.id}`), 200);
  });

  test('POST /transactions/on-ramp as shown (payment {rail}) and with request-level rail, and with exchangeRateId', async () => {
    const shown = await api.post('/v2/transactions/on-ramp', { customerId, sourceCurrency: 'BRL', sourceAmount: '50.00', targetCurrency: 'USDC', payment: { rail: 'PIX' }, purpose: 'PERSONAL_ACCOUNT' });
    ok(shown, 201);
    assert.equal(shown.body.state.status, 'AWAITING_FUNDS');
    assert.ok(shown.body.state.payment.brCode);
    ok(await api.post('/v2/transactions/on-ramp', { customerId, rail: 'PIX', sourceCurrency: 'BRL', sourceAmount: '50.00', targetCurrency: 'USDC', purpose: 'PERSONAL_ACCOUNT', blockchain: 'BASE' }), 201);
    const lock = await api.post('/v2/exchange-rates', { type: 'LOCKED', sourceCurrency: 'BRL', sourceAmount: '50.00', targetCurrency: 'USDC', timeLock: '1m' });
    ok(await api.post('/v2/transactions/on-ramp', { customerId, exchangeRateId: lock.body.id, purpose: 'PERSONAL_ACCOUNT' }), 201);
  });

  test('POST /transactions/off-ramp (v2.0.0): bankAccountId, exchangeRateId, purpose, blockchain → TRANSFERRING_STABLECOIN', async () => {
    await api.post('/v2/sandbox/wallets/fund', { customerId, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '100' });
    const { body: customer } = await api.get(`/v2/customers/${customerId}`);
    const account = await api.post('/v2/bank-accounts', specAccount(customerId, { type: 'INDIVIDUAL', relationship: 'SELF', name: customer.name, taxId: customer.taxId, address: holderAddress }));
    ok(account, 201);
    await settle(server);
    const lock = await api.post('/v2/exchange-rates', { type: 'LOCKED', sourceCurrency: 'USDC', sourceAmount: '20.000000', targetCurrency: 'BRL', timeLock: '5m' });
    ok(lock, 200);
    const res = await api.post('/v2/transactions/off-ramp', { bankAccountId: account.body.id, exchangeRateId: lock.body.id, purpose: 'PERSONAL_ACCOUNT', blockchain: 'POLYGON' });
    ok(res, 201);
    assert.equal(res.body.state.status, 'TRANSFERRING_STABLECOIN');
    assert.equal(res.body.request.purpose, 'PERSONAL_ACCOUNT');
  });
});

describe('an unknown id in a body: 404 NOT_FOUND naming the field, everywhere', () => {
  const ghost = '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d';
  const named = (res: { status: number; body: any; text: string }, path: string) => {
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.code, 'NOT_FOUND');
    assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path), [path]);
  };

  test('exchange rates, transactions, bank accounts, widget sessions, sandbox, documents and parties', async () => {
    named(await api.post('/v2/exchange-rates', { customerId: ghost, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', sourceAmount: '10.00', targetCurrency: 'USDC' }), 'customerId');
    named(await api.post('/v2/exchange-rates', { type: 'LOCKED', sourceCurrency: 'BRL', sourceAmount: '10.00', targetCurrency: 'USDC', partnerFeeId: ghost }), 'partnerFeeId');
    named(await api.post('/v2/transactions/on-ramp', { customerId: ghost, rail: 'PIX', sourceCurrency: 'BRL', sourceAmount: '10.00', targetCurrency: 'USDC', purpose: 'BILLS' }), 'customerId');
    named(await api.post('/v2/transactions/on-ramp', { customerId, exchangeRateId: ghost, purpose: 'BILLS' }), 'exchangeRateId');
    named(await api.post('/v2/transactions/off-ramp', { bankAccountId: ghost, sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '1', purpose: 'BILLS' }), 'bankAccountId');
    named(await api.post('/v2/transactions/transfer', { currency: 'USDC', from: customerId, to: ghost, amount: '1' }), 'to');
    named(await api.post('/v2/bank-accounts', specAccount(ghost, { type: 'INDIVIDUAL', relationship: 'FRIEND', name: 'X Y', taxId: taxIdEndingIn('cpf', 0), address: holderAddress })), 'customerId');
    named(await api.post('/v2/widget-sessions', { customerId: ghost }), 'customerId');
    named(await api.post('/v2/sandbox/wallets/fund', { customerId: ghost, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '1' }), 'customerId');
    const biz = await api.post('/v2/customers', { type: 'BUSINESS', legalName: 'Gama SA', taxId: taxIdEndingIn('cnpj', 0), incorporationDate: '2015-03-02', country: 'BRA', email: 'g@gama.example' });
    ok(await api.patch(`/v2/customers/${biz.body.id}/additional-information`, businessInfo()), 200);
    named(await api.post(`/v2/customers/${biz.body.id}/associated-parties`, { type: 'INDIVIDUAL', roles: ['SHAREHOLDER'], ownershipPercentage: '30', parentId: ghost, name: 'Davi Lima', taxId: taxIdEndingIn('cpf'), birthDate: '1975-06-30', email: 'd@x.example', address: holderAddress }), 'parentId');
    named(await upload(server, apiKey, biz.body.id, { type: 'PASSPORT', associatedPartyId: ghost }, { bytes: JPG }) as never, 'associatedPartyId');
  });
});

describe('the OpenAPI document is as strict as the server', () => {
  test('decimal patterns on amounts and rates, file required on upload, bankAccountId required and no removed fields on off-ramp, metadata limits', async () => {
    const doc = await (await server.app.request('/openapi.json')).json();
    const s = doc.components.schemas;
    const decimal = (schema: { pattern?: string }) => assert.ok(schema.pattern && new RegExp(schema.pattern).test('10.50') && !new RegExp(schema.pattern).test('1e3'), JSON.stringify(schema));
    for (const f of ['sourceAmount', 'targetAmount']) decimal(s.QuoteRequest.properties[f]);
    for (const f of ['sourceAmount']) decimal(s.OnRampRequest.properties[f]);
    decimal(s.OffRampRequest.properties.amount);
    decimal(s.CreatePartnerFee.properties.fees.properties.onRamp.properties.rate);
    decimal(s.CreatePartnerFee.properties.fees.properties.offRamp.properties.flatAmount);
    assert.ok(s.UploadDocument.required.includes('file'));
    assert.ok(s.OffRampRequest.required.includes('bankAccountId'));
    assert.equal(s.OffRampRequest.properties.customerId, undefined);
    assert.equal(s.OffRampRequest.properties.payment, undefined);
    const offRampBody = doc.paths['/v2/transactions/off-ramp'].post.requestBody.content['application/json'].schema;
    assert.equal(offRampBody.$ref, '#/components/schemas/OffRampRequest');
    assert.equal(typeof s.Metadata.maxProperties, 'number');
    // Where an id in a body can name nothing, 404 is documented.
    for (const [path, method] of <[string, string][]>[['/v2/exchange-rates', 'post'], ['/v2/transactions/on-ramp', 'post'], ['/v2/transactions/off-ramp', 'post'], ['/v2/transactions/transfer', 'post'], ['/v2/bank-accounts', 'post'], ['/v2/widget-sessions', 'post']]) {
      assert.ok(doc.paths[path][method].responses['404'], `${method} ${path} documents 404`);
    }
  });

  test('the pre-v2.0.0 off-ramp (customerId + payment) still answers where the destination went', async () => {
    const res = await api.post('/v2/transactions/off-ramp', { customerId, payment: { rail: 'PIX', keyType: 'CPF', keyValue: '1' }, purpose: 'BILLS' });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].path, 'bankAccountId');
    assert.match(res.body.errors[0].message, /v2\.0\.0/);
  });
});

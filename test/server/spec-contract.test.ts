// Issue 10, server side: requests shaped as the spec shows them are accepted, and the shapes it names are answered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import { eq } from 'drizzle-orm';
import { exchangeRates } from '../../server/store/schema/index';
import { client, individual, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { approvedIndividual, individualInfo, JPG, PNG, readyIndividual, upload } from './kyc-helpers';
import { selfPixAccount, settle } from './transactions-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000', RAMP_SANDBOX_STEP_MS: '1000', RAMP_SANDBOX_BANK_ACCOUNT_MS: '1000' });
});
after(() => server.close());

type Api = ReturnType<typeof client>;

async function approved() {
  const p = await newPartner(server);
  const id = await approvedIndividual(server, p.api, p.apiKey);
  return { ...p, id };
}

/** The locked request exactly as the spec lists it: no customerId, rail or blockchain. */
const specLock = (api: Api, over: Record<string, unknown> = {}) =>
  api.post('/v2/exchange-rates', { type: 'LOCKED', sourceCurrency: 'BRL', sourceAmount: '100.00', targetCurrency: 'USDC', ...over });

describe('locked quote as the spec shows it', () => {
  test('without customerId, rail and blockchain: 200, the rail from the pair, no customer named', async () => {
    const { api } = await newPartner(server);
    const res = await specLock(api, { timeLock: '1m' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.type, 'LOCKED');
    assert.equal(res.body.rail, 'PIX');
    assert.equal(res.body.customerId, undefined);
    assert.ok(res.body.id && res.body.expiresAt);
    for (const [source, target, amount, rail] of [
      ['USDC', 'EUR', '50.000000', 'SEPA'],
      ['USDT', 'USD', '50.000000', 'SWIFT'],
      ['EUR', 'USDC', '50.00', 'SEPA'],
    ]) {
      const r = await specLock(api, { sourceCurrency: source, targetCurrency: target, sourceAmount: amount });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.rail, rail, `${source}→${target}`);
    }
  });

  test('both amounts: the source prices, the target is the least accepted; below the guarantee 422 naming targetAmount with the guaranteed amount', async () => {
    const { api } = await newPartner(server);
    const probe = await specLock(api);
    assert.equal(probe.status, 200, probe.text);
    const guaranteed = probe.body.finalTargetAmount as string;
    const below = new Decimal(guaranteed).minus('1').toFixed(6);
    const ok = await specLock(api, { targetAmount: below });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.sourceAmount, '100.00');
    assert.ok(new Decimal(ok.body.finalTargetAmount).gte(below));
    const tooMuch = new Decimal(guaranteed).plus('5').toFixed(6);
    const refused = await specLock(api, { targetAmount: tooMuch });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'TARGET_AMOUNT_NOT_GUARANTEED');
    assert.deepEqual(refused.body.errors.map((e: { path: string }) => e.path), ['targetAmount']);
    assert.ok(new Decimal(refused.body.guaranteedTargetAmount).lt(tooMuch));
    assert.match(refused.body.detail, new RegExp(refused.body.guaranteedTargetAmount.replace('.', '\\.')));
    const bad = await specLock(api, { targetAmount: 'lots' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].path, 'targetAmount');
  });

  test('a lock without a customer is bound to the customer of its first use; another customer then cannot see it, its owner cannot reuse it', async () => {
    const { api, apiKey, id, partnerId } = await approved();
    const other = await approvedIndividual(server, api, apiKey);
    const lock = await specLock(api, { timeLock: '5m' });
    assert.equal(lock.status, 200, lock.text);
    const first = await api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.customerId, id);
    assert.equal(first.body.request.sourceAmount, '100.00');
    const [row] = await server.deps.store.db.select().from(exchangeRates).where(eq(exchangeRates.id, lock.body.id));
    assert.equal(row!.customerId, id);
    assert.equal(row!.partnerId, partnerId);
    const byOther = await api.post('/v2/transactions/on-ramp', { customerId: other, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' });
    assert.equal(byOther.status, 404, byOther.text);
    const again = await api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'RATE_ALREADY_USED');
  });

  test('an on-ramp refused for its customer leaves the lock unused and unbound; the customer\'s refusal comes before the lock\'s', async () => {
    const { api, id } = await approved();
    const { body: pending } = await api.post('/v2/customers', individual({ taxId: taxIdEndingIn('cpf') }));
    const lock = await specLock(api, { timeLock: '5m' });
    assert.equal(lock.status, 200, lock.text);
    // The quote is redeemed before the customer is locked and checked: the refusal rolls the redemption back.
    const refused = await api.post('/v2/transactions/on-ramp', { customerId: pending.id, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' });
    assert.equal(refused.body.code, 'INVALID_STATE', refused.text);
    const [row] = await server.deps.store.db.select().from(exchangeRates).where(eq(exchangeRates.id, lock.body.id));
    assert.equal(row!.usedAt, null);
    assert.equal(row!.customerId, null);
    const used = await api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' });
    assert.equal(used.status, 201, used.text);
    // Now the lock is used and the other customer still unapproved: the customer's state is what it is told.
    const again = await api.post('/v2/transactions/on-ramp', { customerId: pending.id, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' });
    assert.equal(again.body.code, 'INVALID_STATE', again.text);
  });

  test('a lock with a customer stays that customer\'s', async () => {
    const { api, apiKey, id } = await approved();
    const other = await approvedIndividual(server, api, apiKey);
    const lock = await specLock(api, { customerId: id });
    assert.equal(lock.status, 200, lock.text);
    assert.equal(lock.body.customerId, id);
    const byOther = await api.post('/v2/transactions/on-ramp', { customerId: other, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' });
    assert.equal(byOther.status, 404);
  });

  test('FLOATING still needs customerId and rail (spec v2.0.0)', async () => {
    const { api } = await newPartner(server);
    const res = await api.post('/v2/exchange-rates', { type: 'FLOATING', sourceCurrency: 'BRL', sourceAmount: '100.00', targetCurrency: 'USDC' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path).sort(), ['customerId', 'rail']);
  });

  test('LOCKED with neither amount: 400 naming sourceAmount', async () => {
    const { api } = await newPartner(server);
    const res = await api.post('/v2/exchange-rates', { type: 'LOCKED', sourceCurrency: 'BRL', targetCurrency: 'USDC' });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].path, 'sourceAmount');
  });
});

describe('currencies and amount repeated beside exchangeRateId', () => {
  test('on-ramp: accepted when they match the quote (amounts as decimals), 400 naming each field that differs, and the quote is not spent by a refusal', async () => {
    const { api, id } = await approved();
    const lock = await specLock(api, { customerId: id, timeLock: '5m' });
    const send = (over: Record<string, unknown>) => api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: lock.body.id, purpose: 'INVESTMENT', ...over });
    const wrong = await send({ sourceCurrency: 'BRL', targetCurrency: 'USDT', sourceAmount: '100.01' });
    assert.equal(wrong.status, 400, wrong.text);
    assert.deepEqual(wrong.body.errors.map((e: { path: string }) => e.path).sort(), ['sourceAmount', 'targetCurrency']);
    const ok = await send({ sourceCurrency: 'BRL', sourceAmount: '100', targetCurrency: 'USDC', rail: 'PIX' });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.request.sourceAmount, '100.00');
  });

  test('off-ramp: amount and currencies repeated as quoted are accepted, a different amount is 400 naming amount', async () => {
    const { api, id } = await approved();
    await api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '500' });
    const account = await api.post('/v2/bank-accounts', await selfPixAccount(api, id));
    assert.equal(account.status, 201, account.text);
    await settle(server);
    const lock = await api.post('/v2/exchange-rates', { type: 'LOCKED', sourceCurrency: 'USDC', sourceAmount: '40.000000', targetCurrency: 'BRL', targetAmount: '1.00', timeLock: '5m' });
    assert.equal(lock.status, 200, lock.text);
    const send = (over: Record<string, unknown>) => api.post('/v2/transactions/off-ramp', { bankAccountId: account.body.id, exchangeRateId: lock.body.id, purpose: 'PERSONAL_ACCOUNT', ...over });
    const wrong = await send({ amount: '41' });
    assert.equal(wrong.status, 400, wrong.text);
    assert.deepEqual(wrong.body.errors.map((e: { path: string }) => e.path), ['amount']);
    const ok = await send({ amount: '40', sourceCurrency: 'USDC', targetCurrency: 'BRL' });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.customerId, id);
    // The spec's request echo carries payment: the account's destination.
    assert.deepEqual(ok.body.request.payment, { rail: 'PIX', keyType: 'EVP', keyValue: '123e4567-e12b-42d3-a456-426614174000' });
    assert.equal((await api.get(`/v2/transactions/${ok.body.id}`)).body.request.payment.rail, 'PIX');
  });
});

describe('shapes the spec names', () => {
  test('customer.verification carries statusReason on TEMPORARY_REJECTION (as the verification does), and not otherwise', async () => {
    const { api, apiKey } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 2);
    assert.equal((await api.get(`/v2/customers/${id}`)).body.verification.statusReason, undefined);
    await api.post(`/v2/sandbox/customers/${id}/liveness`);
    await server.advance(61);
    const customer = (await api.get(`/v2/customers/${id}`)).body;
    assert.equal(customer.verification.status, 'TEMPORARY_REJECTION');
    const v = (await api.get(`/v2/customers/${id}/verifications`)).body.data[0];
    assert.deepEqual(customer.verification.statusReason, v.statusReason);
    assert.deepEqual(customer.verification.statusReason.rejectLabels, ['DOCUMENT_OUTDATED']);
    assert.deepEqual(Object.keys(customer.verification.statusReason.documents[0]).sort(), ['comment', 'rejectLabels', 'status', 'type']);
    const listed = (await api.get('/v2/customers')).body.data.find((c: { id: string }) => c.id === id);
    assert.deepEqual(listed.verification.statusReason, v.statusReason);
  });
});

describe('requirements and documents as the spec names them', () => {
  const DOCUMENT_TYPES = ['ID_CARD', 'PASSPORT', 'DRIVERS_LICENSE', 'BANK_STATEMENT', 'INCOME_TAX_RETURN', 'DELIVERY_RECEIPT', 'OTHER', 'INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY'];

  test('every document requirement is named by a document type, and an upload with type=<name> (and every accepted type) is taken', async () => {
    const { api, apiKey } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    await api.patch(`/v2/customers/${c.id}/additional-information`, individualInfo());
    const docs = c.requirements.filter((r: { name: string }) => !['ADDITIONAL_INFORMATION', 'LIVENESS', 'ASSOCIATED_PARTIES'].includes(r.name));
    assert.deepEqual(docs.map((r: { name: string }) => r.name), ['ID_CARD', 'BANK_STATEMENT']);
    for (const r of docs) {
      for (const type of [r.name, ...(r.acceptedTypes ?? [])]) {
        assert.ok(DOCUMENT_TYPES.includes(type), type);
        const res = await upload(server, apiKey, c.id, { type, side: 'FRONT_SIDE' });
        assert.equal(res.status, 201, `${type}: ${res.text}`);
      }
    }
    assert.deepEqual(docs[0].acceptedTypes, ['ID_CARD', 'PASSPORT', 'DRIVERS_LICENSE']);
  });

  test('the requirements met without a document (DESIGN.md lists them) answer an upload with where they are met, naming type', async () => {
    const { api, apiKey } = await newPartner(server);
    const { body: person } = await api.post('/v2/customers', individual());
    await api.patch(`/v2/customers/${person.id}/additional-information`, individualInfo());
    const steps = person.requirements.map((r: { name: string }) => r.name).filter((n: string) => !DOCUMENT_TYPES.includes(n));
    assert.deepEqual(steps, ['ADDITIONAL_INFORMATION', 'LIVENESS']);
    const where: Record<string, RegExp> = {
      ADDITIONAL_INFORMATION: /PATCH \/v2\/customers\/\{id\}\/additional-information/,
      LIVENESS: /hosted verification page/,
      ASSOCIATED_PARTIES: /POST \/v2\/customers\/\{id\}\/associated-parties/,
    };
    for (const type of [...steps, 'ASSOCIATED_PARTIES']) {
      const res = await upload(server, apiKey, person.id, { type });
      assert.equal(res.status, 400, res.text);
      const error = res.body.errors.find((e: { path: string }) => e.path === 'type');
      assert.match(error.message, where[type]!, type);
    }
  });

  test('an ID card needs both sides: the front alone leaves the requirement NOT_SENT and review unstarted; the back starts it', async () => {
    const { api, apiKey } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual({ taxId: taxIdEndingIn('cpf', 0) }));
    await api.patch(`/v2/customers/${c.id}/additional-information`, individualInfo());
    const reqs = async () => Object.fromEntries((await api.get(`/v2/customers/${c.id}`)).body.requirements.map((r: { name: string; status: string }) => [r.name, r.status]));
    assert.equal((await upload(server, apiKey, c.id, { type: 'ID_CARD', side: 'FRONT_SIDE', country: 'BRA' }, { bytes: JPG })).status, 201);
    assert.equal((await upload(server, apiKey, c.id, { type: 'BANK_STATEMENT' })).status, 201);
    await api.post(`/v2/sandbox/customers/${c.id}/liveness`);
    assert.equal((await reqs()).ID_CARD, 'NOT_SENT');
    assert.equal((await api.get(`/v2/customers/${c.id}`)).body.verification.status, 'NOT_STARTED');
    assert.equal((await upload(server, apiKey, c.id, { type: 'ID_CARD', side: 'BACK_SIDE', country: 'BRA' }, { bytes: PNG })).status, 201);
    assert.equal((await reqs()).ID_CARD, 'SENT');
    assert.equal((await api.get(`/v2/customers/${c.id}`)).body.verification.status, 'UNDER_VERIFICATION');
  });

  test("a driver's licence front plus a passport: the passport satisfies the requirement", async () => {
    const { api, apiKey } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    await api.patch(`/v2/customers/${c.id}/additional-information`, individualInfo());
    assert.equal((await upload(server, apiKey, c.id, { type: 'DRIVERS_LICENSE', side: 'FRONT_SIDE' }, { bytes: JPG })).status, 201);
    const before = (await api.get(`/v2/customers/${c.id}`)).body.requirements.find((r: { name: string }) => r.name === 'ID_CARD');
    assert.equal(before.status, 'NOT_SENT');
    assert.equal((await upload(server, apiKey, c.id, { type: 'PASSPORT' }, { bytes: JPG })).status, 201);
    const after = (await api.get(`/v2/customers/${c.id}`)).body.requirements.find((r: { name: string }) => r.name === 'ID_CARD');
    assert.equal(after.status, 'SENT');
  });
});

describe('cursors are uuids (the spec types cursor as a uuid)', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  test('nextCursor and previousCursor are uuids, and either one passed back as cursor answers the page it names', async () => {
    const { api } = await newPartner(server);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await api.post('/v2/customers', individual())).body.id);
    const newest = [...ids].reverse();
    const page = async (cursor?: string) => (await api.get(`/v2/customers?size=3${cursor ? `&cursor=${cursor}` : ''}`)).body;
    const p1 = await page();
    assert.match(p1.pagination.nextCursor, UUID);
    const p2 = await page(p1.pagination.nextCursor);
    const p3 = await page(p2.pagination.nextCursor);
    assert.deepEqual(p3.data.map((c: { id: string }) => c.id), newest.slice(6, 9));
    assert.match(p3.pagination.previousCursor, UUID);
    const back = await page(p3.pagination.previousCursor);
    assert.deepEqual(back.data.map((c: { id: string }) => c.id), newest.slice(3, 6));
    assert.equal(back.pagination.hasPreviousPage, true);
    const top = await page(back.pagination.previousCursor);
    assert.deepEqual(top.data.map((c: { id: string }) => c.id), newest.slice(0, 3));
    assert.equal(top.pagination.hasPreviousPage, false);
    assert.equal(top.pagination.previousCursor, null);
    const p4 = await page(p3.pagination.nextCursor);
    assert.deepEqual(p4.data.map((c: { id: string }) => c.id), newest.slice(9));
    assert.equal(p4.pagination.nextCursor, null);
    // The bank-account list of the spec takes the same uuid cursor.
    assert.equal((await api.get(`/v2/bank-accounts?size=1&cursor=${newest[0]}`)).status, 200);
    const bad = await api.get('/v2/bank-accounts?cursor=bi5vcGFxdWU');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].path, 'query.cursor');
  });
});

describe('examples show the happy path', () => {
  test('every taxId example in /openapi.json and the demo ends in a digit the sandbox approves (0 or 4–9), and is accepted', async () => {
    const doc = await (await server.app.request('/openapi.json')).json();
    const examples: string[] = [];
    const walk = (node: unknown, key = '') => {
      if (Array.isArray(node)) node.forEach((n) => walk(n, key));
      else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, k === 'example' ? key : k);
      if (typeof node === 'string' && key === 'taxId') examples.push(node);
    };
    walk(doc);
    const demo = readFileSync(new URL('../../demo/index.html', import.meta.url), 'utf8');
    const inDemo = [...demo.matchAll(/(?:CPF|CNPJ) <code>([\d./-]+)<\/code>/g)].map((m) => m[1]!);
    assert.ok(examples.length >= 2 && inDemo.length >= 2, `${examples} ${inDemo}`);
    for (const t of [...examples, ...inDemo]) assert.match(t, /[04-9]$/, `${t}: the sandbox review reads the last digit; 1–3 do not approve`);
    const { api } = await newPartner(server);
    const biz = examples.find((t) => t.replace(/\D/g, '').length === 14)!;
    const created = await api.post('/v2/customers', { type: 'BUSINESS', legalName: 'Acme', taxId: biz, incorporationDate: '2015-03-02', country: 'BRA', email: 'a@acme.example' });
    assert.equal(created.status, 201, created.text);
  });
});

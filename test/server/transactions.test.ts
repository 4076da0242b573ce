// Transactions over HTTP: bank accounts per rail, on-ramps with a real BR Code to SUCCESS or EXPIRED, off-ramps with refunds, transfers, and their concurrency.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from 'decimal.js';
import { hasError, isStaticPix, parsePix } from 'pix-utils';
import { eq, sql } from 'drizzle-orm';
import { balanceDrift, ledgerSums } from '../../server/store/queries/ledger';
import { events, limitUsage } from '../../server/store/schema/index';
import { balanceOf, client, individual, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { approvedIndividual, approvedInNewPartner } from './kyc-helpers';
import { pixAccount, selfPixAccount, sepaAccount, settle, swiftAccount } from './transactions-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000', RAMP_SANDBOX_STEP_MS: '1000', RAMP_SANDBOX_BANK_ACCOUNT_MS: '1000' });
});
after(() => server.close());

type Api = ReturnType<typeof client>;

const approved = () => approvedInNewPartner(server);

const lockBuy = async (api: Api, customerId: string, sourceAmount = '500.00') =>
  (await api.post('/v2/exchange-rates', { customerId, type: 'LOCKED', timeLock: '5m', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount })).body;

/** An independent CRC16-CCITT-FALSE, written here again on purpose. */
function crc(s: string): string {
  let c = 0xffff;
  for (const b of Buffer.from(s, 'utf8')) {
    c ^= b << 8;
    for (let i = 0; i < 8; i++) c = (c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1) & 0xffff;
  }
  return c.toString(16).toUpperCase().padStart(4, '0');
}

async function approvedAccount(api: Api, body: Record<string, unknown>) {
  const res = await api.post('/v2/bank-accounts', body);
  assert.equal(res.status, 201, res.text);
  await settle(server, 5);
  const read = await api.get(`/v2/bank-accounts/${res.body.id}`);
  assert.equal(read.body.holder.verification.status, 'APPROVED');
  return read.body;
}

describe('bank accounts', () => {
  test('PIX, SEPA and SWIFT accounts are created with the holder UNDER_VERIFICATION, then approved', async () => {
    const { api, id } = await approved();
    for (const body of [pixAccount(id), sepaAccount(id), swiftAccount(id)]) {
      const res = await api.post('/v2/bank-accounts', body);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.holder.verification, { status: 'UNDER_VERIFICATION', level: 'BASIC' });
    }
    await settle(server, 5);
    const list = await api.get(`/v2/bank-accounts?customerId=${id}`);
    assert.deepEqual(list.body.data.map((a: { rail: string }) => a.rail), ['SWIFT', 'SEPA', 'PIX']);
    assert.ok(list.body.data.every((a: { holder: { verification: { status: string } } }) => a.holder.verification.status === 'APPROVED'));
    assert.equal(list.body.data[1].identifier.iban, 'DE89370400440532013000');
  });

  test('a holder whose taxId ends in 3 is rejected', async () => {
    const { api, id } = await approved();
    const res = await api.post('/v2/bank-accounts', pixAccount(id, { holder: { ...pixAccount(id).holder, taxId: taxIdEndingIn('cpf', 3) } }));
    await settle(server, 5);
    assert.equal((await api.get(`/v2/bank-accounts/${res.body.id}`)).body.holder.verification.status, 'FINAL_REJECTION');
  });

  test("a SELF account's holder is the customer: another tax id or holder type is refused naming the field, nothing stored", async () => {
    const { api, id } = await approved();
    const own = await selfPixAccount(api, id);
    const someoneElse = await api.post('/v2/bank-accounts', { ...own, holder: { ...own.holder, taxId: taxIdEndingIn('cpf', 0) } });
    assert.equal(someoneElse.status, 400, someoneElse.text);
    assert.deepEqual(someoneElse.body.errors.map((e: { path: string }) => e.path), ['holder.taxId']);
    const business = await api.post('/v2/bank-accounts', { ...own, holder: { ...own.holder, type: 'BUSINESS', name: undefined, legalName: 'Ana Ltda', taxId: taxIdEndingIn('cnpj') } });
    assert.equal(business.status, 400, business.text);
    assert.ok(business.body.errors.some((e: { path: string }) => e.path === 'holder.type'), business.text);
    assert.deepEqual((await api.get(`/v2/bank-accounts?customerId=${id}`)).body.data, [], 'nothing was written');
    const punctuated = String(own.holder.taxId).replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
    const created = await api.post('/v2/bank-accounts', { ...own, holder: { ...own.holder, taxId: punctuated } });
    assert.equal(created.status, 201, `the customer's own tax id, punctuated, is the same: ${created.text}`);
    const counterparty = await api.post('/v2/bank-accounts', { ...own, holder: { ...own.holder, relationship: 'FRIEND', taxId: taxIdEndingIn('cpf', 0) } });
    assert.equal(counterparty.status, 201, 'a counterparty may be anyone');
  });

  test("a SELF holder keeps the customer's own foreign tax id wherever they live; a counterparty's is judged by its address", async () => {
    const { api } = await newPartner(server);
    // A US citizen living in São Paulo: their tax id is a US one, their address Brazilian.
    const created = await api.post('/v2/customers', individual({ name: 'John Doe', country: 'USA', taxId: '123-45-6780' }));
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as string;
    const base = pixAccount(id);
    const self = await api.post('/v2/bank-accounts', { ...base, holder: { ...base.holder, relationship: 'SELF', name: 'John Doe', taxId: '123-45-6780' } });
    assert.equal(self.status, 201, self.text);
    assert.equal(self.body.holder.taxId, '123456780');
    const friend = await api.post('/v2/bank-accounts', { ...base, holder: { ...base.holder, relationship: 'FRIEND', taxId: '123-45-6780' } });
    assert.equal(friend.status, 400, 'a counterparty living in Brazil has a CPF');
    assert.deepEqual(friend.body.errors.map((e: { path: string }) => e.path), ['holder.taxId']);
  });

  test('a business holder may give its incorporationDate and email; a future date or a bad email is refused on its field', async () => {
    const { api, id } = await approved();
    const holder = sepaAccount(id).holder;
    const ok = await api.post('/v2/bank-accounts', sepaAccount(id, { holder: { ...holder, incorporationDate: '2015-03-02', email: 'finance@supplier.example' } }));
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual([ok.body.holder.incorporationDate, ok.body.holder.email], ['2015-03-02', 'finance@supplier.example']);
    for (const [over, path] of [
      [{ incorporationDate: '2999-01-01' }, 'holder.incorporationDate'],
      [{ email: 'not-an-email' }, 'holder.email'],
    ] as const) {
      const res = await api.post('/v2/bank-accounts', sepaAccount(id, { holder: { ...holder, ...over } }));
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path), [path]);
    }
  });

  test('each PIX key type, the IBAN, the BIC and the currency are validated, naming the field', async () => {
    const { api, id } = await approved();
    const pix = (keyType: string, keyValue: string) => pixAccount(id, { identifier: { keyType, keyValue } });
    const valid = [pix('CPF', taxIdEndingIn('cpf')), pix('CNPJ', taxIdEndingIn('cnpj')), pix('EMAIL', 'ana@example.com'), pix('PHONE', '+5511987654321'), pix('EVP', '123e4567-e12b-42d3-a456-426614174000')];
    for (const body of valid) assert.equal((await api.post('/v2/bank-accounts', body)).status, 201, JSON.stringify(body.identifier));
    const invalid: [Record<string, unknown>, string][] = [
      [pix('CPF', '123.456.789-00'), 'identifier.keyValue'],
      [pix('CNPJ', '11.222.333/0001-00'), 'identifier.keyValue'],
      [pix('EMAIL', 'not-an-email'), 'identifier.keyValue'],
      [pix('PHONE', '11987654321'), 'identifier.keyValue'],
      [pix('PHONE', '+12025550123'), 'identifier.keyValue'],
      [pix('EVP', 'abc'), 'identifier.keyValue'],
      [sepaAccount(id, { identifier: { iban: 'DE89370400440532013001' } }), 'identifier.iban'],
      [sepaAccount(id, { identifier: { iban: 'DE89370400440532013000', bic: 'XX' } }), 'identifier.bic'],
      [swiftAccount(id, { identifier: { accountNumber: '1', bic: 'CHASUS33', bankName: 'Chase', bankCountry: 'USA' } }), 'identifier.accountNumber'],
      [pixAccount(id, { currency: 'USD' }), 'currency'],
      [pixAccount(id, { holder: { ...pixAccount(id).holder, relationship: 'BOSS' } }), 'holder.relationship'],
      [pixAccount(id, { holder: { ...pixAccount(id).holder, name: undefined } }), 'holder.name'],
      [pixAccount(id, { holder: { ...pixAccount(id).holder, taxId: '111.111.111-11' } }), 'holder.taxId'],
    ];
    for (const [body, path] of invalid) {
      const res = await api.post('/v2/bank-accounts', body);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.ok(res.body.errors.some((e: { path: string }) => e.path === path), `${path}: ${res.text}`);
    }
  });

  test('30 bank accounts page as 25 + 5, newest first, and back again with previousCursor', async () => {
    const { api, id } = await approved();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await api.post('/v2/bank-accounts', pixAccount(id, { name: `Account ${i}` }))).body.id);
    const newest = [...ids].reverse();
    const p1 = await api.get('/v2/bank-accounts');
    assert.deepEqual(p1.body.data.map((a: { id: string }) => a.id), newest.slice(0, 25));
    const p2 = await api.get(`/v2/bank-accounts?cursor=${p1.body.pagination.nextCursor}`);
    assert.deepEqual(p2.body.data.map((a: { id: string }) => a.id), newest.slice(25));
    assert.equal(p2.body.pagination.hasNextPage, false);
    const back = await api.get(`/v2/bank-accounts?cursor=${p2.body.pagination.previousCursor}`);
    assert.deepEqual(back.body.data.map((a: { id: string }) => a.id), newest.slice(0, 25));
    assert.equal(back.body.pagination.hasPreviousPage, false);
  });

  test("read, delete; another partner's account is 404", async () => {
    const { api, id } = await approved();
    const { body: a } = await api.post('/v2/bank-accounts', pixAccount(id));
    const other = await newPartner(server);
    assert.equal((await other.api.get(`/v2/bank-accounts/${a.id}`)).status, 404);
    assert.equal((await other.api.send('DELETE', `/v2/bank-accounts/${a.id}`)).status, 404);
    assert.equal((await api.send('DELETE', `/v2/bank-accounts/${a.id}`)).status, 204);
    assert.equal((await api.get(`/v2/bank-accounts/${a.id}`)).status, 404);
  });
});

describe('on-ramp', () => {
  test('its first event (onramp.awaiting_funds) shows the transaction as created, and it has its payment deadlines', async () => {
    // The event is written from the row as inserted, in the insert's own statement: it must be that row.
    const { api, id } = await approved();
    const q = await lockBuy(api, id);
    const res = await api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: q.id, purpose: 'INVESTMENT', rail: 'PIX' });
    assert.equal(res.status, 201, res.text);
    const listed = await api.get(`/v2/events?customerId=${id}&eventType=onramp.`);
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.data.length, 1);
    assert.equal(listed.body.data[0].eventType, 'onramp.awaiting_funds');
    assert.deepEqual(listed.body.data[0].data, res.body);
    assert.deepEqual((await api.get(`/v2/transactions/${res.body.id}`)).body, res.body);
    const deadlines = await server.deps.store.db.execute(sql`select count(*)::int as n from jobs where payload::text like ${`%${res.body.id}%`}`);
    const rows = (deadlines as unknown as { rows?: { n: number }[] }).rows ?? (deadlines as unknown as { n: number }[]);
    assert.ok(rows[0]!.n >= 1, 'its deadlines are scheduled');
  });

  test('a locked quote becomes AWAITING_FUNDS with a BR Code a bank app reads, then SUCCESS credits the wallet', async () => {
    const { api, id, partnerId } = await approved();
    const q = await lockBuy(api, id);
    const res = await api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: q.id, purpose: 'INVESTMENT', rail: 'PIX' });
    assert.equal(res.status, 201, res.text);
    const t = res.body;
    assert.equal(t.type, 'ON_RAMP');
    assert.equal(t.state.status, 'AWAITING_FUNDS');
    assert.equal(t.request.purpose, 'INVESTMENT');
    assert.equal(t.request.sourceAmount, '500.00');
    const code: string = t.state.payment.brCode;
    assert.equal(t.state.payment.rail, 'PIX');
    assert.ok(Date.parse(t.state.payment.expiresAt) > Date.now());
    // Independent checks: pix-utils parses it, the CRC is recomputed here, the GUI and amount are read from the TLV.
    const parsed = parsePix(code);
    assert.ok(!hasError(parsed), JSON.stringify(parsed));
    assert.equal(crc(code.slice(0, -4)), code.slice(-4));
    assert.match(code, /^000201010212/);
    assert.ok(code.includes('0014br.gov.bcb.pix'));
    assert.ok(code.includes(`54${String(q.sourceAmount.length).padStart(2, '0')}${q.sourceAmount}`));
    assert.ok(!hasError(parsed) && isStaticPix(parsed) && String(parsed.transactionAmount) === '500' && parsed.pixKey.length > 0);

    const paid = await api.post(`/v2/sandbox/transactions/${t.id}/pay`);
    assert.equal(paid.body.state.status, 'TRANSFERRING_FIAT');
    await settle(server);
    const done = (await api.get(`/v2/transactions/${t.id}`)).body;
    assert.equal(done.state.status, 'SUCCESS');
    assert.equal(done.state.receipt.targetAmount, q.finalTargetAmount);
    assert.match(done.state.receipt.transactionHash, /^0x[0-9a-f]{64}$/);
    assert.ok(done.state.receipt.blockExplorerUrl.includes(done.state.receipt.transactionHash));
    assert.equal(await balanceOf(api, id), q.finalTargetAmount);
    const types = (await server.deps.store.db.select().from(events).where(eq(events.partnerId, partnerId)).orderBy(events.id))
      .map((e) => e.eventType)
      .filter((e) => e.startsWith('onramp.'));
    assert.deepEqual(types, ['onramp.awaiting_funds', 'onramp.transferring_fiat', 'onramp.trading', 'onramp.transferring_stablecoin', 'onramp.success']);
    assert.ok((await ledgerSums(server.deps.store.db, partnerId)).every((s) => new Decimal(s.sum).isZero()));
  });

  test('currencies and amount without a quote; the older payment.rail is accepted', async () => {
    const { api, id } = await approved();
    const res = await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', payment: { rail: 'PIX' }, sourceCurrency: 'BRL', targetCurrency: 'USDT', sourceAmount: '100.00', blockchain: 'TRON' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.blockchain, 'TRON');
    assert.equal(res.body.request.rail, 'PIX');
  });

  test('unpaid when the payment window closes: FAILED with EXPIRED, and the limit is released', async () => {
    const { api, id } = await approved();
    const { body: t } = await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1000.00' });
    assert.equal((await api.get(`/v2/customers/${id}?includeTransactionLimits=true`)).body.transactionLimits.daily.used !== '0.00', true);
    await server.advance(15 * 60 + 1);
    const failed = (await api.get(`/v2/transactions/${t.id}`)).body;
    assert.equal(failed.state.status, 'FAILED');
    assert.equal(failed.state.error.code, 'EXPIRED');
    assert.equal((await api.post(`/v2/sandbox/transactions/${t.id}/pay`)).status, 409);
    assert.equal((await api.get(`/v2/customers/${id}?includeTransactionLimits=true`)).body.transactionLimits.daily.used, '0.00');
  });

  test('refused: no purpose, an unapproved customer, a used quote, an expired quote', async () => {
    const { api, id } = await approved();
    const noPurpose = await api.post('/v2/transactions/on-ramp', { customerId: id, rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
    assert.equal(noPurpose.status, 400);
    assert.equal(noPurpose.body.errors[0].path, 'purpose');
    const { body: fresh } = await api.post('/v2/customers', individual());
    const notApproved = await api.post('/v2/transactions/on-ramp', { customerId: fresh.id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
    assert.equal(notApproved.status, 409);
    const q = await lockBuy(api, id);
    assert.equal((await api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: q.id, purpose: 'BILLS' })).status, 201);
    const again = await api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: q.id, purpose: 'BILLS' });
    assert.equal(again.body.code, 'RATE_ALREADY_USED');
    const q2 = await lockBuy(api, id);
    await api.post('/v2/sandbox/clock/advance', { seconds: 301 });
    assert.equal((await api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: q2.id, purpose: 'BILLS' })).body.code, 'RATE_EXPIRED');
    const q3 = await lockBuy(api, id);
    const both = await api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: q3.id, purpose: 'BILLS', sourceAmount: '1.00' });
    assert.equal(both.status, 400);
    assert.equal(both.body.errors[0].path, 'sourceAmount');
  });
});

describe("another partner's customer", () => {
  test("an on-ramp for another partner's customer is 404 naming customerId, and leaves nothing behind (the insert that went first is rolled back)", async () => {
    const a = await approved();
    const b = await approved();
    const { db } = server.deps.store;
    const count = async (table: string, column: string, value: string) =>
      Number(((await db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = '${value}'`))) as unknown as { rows?: { n: number }[] }).rows?.[0]?.n ?? NaN);
    // B's own lock, bound to no customer yet, and a market-priced on-ramp: both name A's customer.
    const { body: lock } = await b.api.post('/v2/exchange-rates', { type: 'LOCKED', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
    const jobsBefore = await count('jobs', 'partner_id', b.partnerId);
    for (const body of [
      { customerId: a.id, exchangeRateId: lock.id, purpose: 'BILLS' },
      { customerId: a.id.toUpperCase(), purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' },
    ]) {
      const res = await b.api.post('/v2/transactions/on-ramp', body);
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.errors[0].path, 'customerId');
    }
    assert.equal(await count('transactions', 'customer_id', a.id), 0);
    assert.equal(await count('limit_reservations', 'customer_id', a.id), 0);
    assert.equal(await count('transactions', 'partner_id', b.partnerId), 0);
    assert.equal(await count('jobs', 'partner_id', b.partnerId), jobsBefore, 'no payment deadlines scheduled');
    assert.equal((await b.api.get('/v2/events?eventType=onramp.')).body.data.length, 0);
    // The lock is still unused and unbound: B's own customer can use it.
    const used = await b.api.post('/v2/transactions/on-ramp', { customerId: b.id.toUpperCase(), exchangeRateId: lock.id, purpose: 'BILLS' });
    assert.equal(used.status, 201, used.text);
    assert.equal(used.body.customerId, b.id);
    assert.equal(used.body.request.customerId, b.id);
  });
});

describe('limits on transactions', () => {
  test('a breach answers 422 TRANSACTION_LIMIT_EXCEEDED naming the limit', async () => {
    const { api, id } = await approved();
    const res = await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '9000.00' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'TRANSACTION_LIMIT_EXCEEDED');
    assert.equal(res.body.limit, 'single');
  });

  test('on-ramps fill the daily limit to the cent, and not a cent more (each counted once, its own reservation included)', async () => {
    const { api, id } = await approved();
    assert.equal((await api.send('PUT', `/v2/customers/${id}/transaction-limits`, { single: '1000.00', daily: '1000.00' })).status, 200);
    const onRamp = (sourceAmount: string) => api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'ACH', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount });
    for (const amount of ['400.00', '400.00', '200.00']) assert.equal((await onRamp(amount)).status, 201, amount);
    const over = await onRamp('0.01');
    assert.equal(over.status, 422, over.text);
    assert.equal(over.body.limit, 'daily');
    assert.equal(over.body.remaining, '0.00');
    const limits = (await api.get(`/v2/customers/${id}?includeTransactionLimits=true`)).body.transactionLimits;
    assert.deepEqual(limits.daily, { max: '1000.00', used: '1000.00', remaining: '0.00' });
  });
});

describe('limits counted from running totals (not a sum of the month under the customer\'s lock)', () => {
  test('each on-ramp adds itself, the check reads the totals, a release gives its amount back, and a new day starts the daily total again', async () => {
    const { api, id } = await approved();
    assert.equal((await api.send('PUT', `/v2/customers/${id}/transaction-limits`, { single: '1000.00', daily: '1000.00', monthly: '5000.00' })).status, 200);
    const onRamp = (sourceAmount: string) => api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'ACH', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount });
    const totals = async () => {
      const [row] = await server.deps.store.db.select().from(limitUsage).where(eq(limitUsage.customerId, id));
      return row!;
    };
    const partnerNow = async () => new Date((await api.post('/v2/exchange-rates', { customerId: id, type: 'FLOATING', rail: 'ACH', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount: '1.00' })).body.createdAt);
    for (const amount of ['400.00', '300.00']) assert.equal((await onRamp(amount)).status, 201, amount);
    assert.equal(new Decimal((await totals()).daily).toFixed(2), '700.00');
    assert.equal(new Decimal((await totals()).monthly).toFixed(2), '700.00');
    // The check reads the totals: 150 more in them (as if another reservation were counted) leaves 150 of the day.
    const bump = (by: string) => server.deps.store.db.update(limitUsage).set({ daily: sql`${limitUsage.daily} + ${by}::numeric` }).where(eq(limitUsage.customerId, id));
    await bump('150');
    const refused = await onRamp('200.00');
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.limit, 'daily');
    assert.equal(refused.body.remaining, '150.00');
    await bump('-150');
    assert.equal(new Decimal((await totals()).daily).toFixed(2), '700.00', 'a refused on-ramp leaves the totals as they were');
    // Both on-ramps expire unpaid: released, their amounts no longer count, though the totals (of what was reserved) keep them.
    await server.advance(15 * 60 + 1);
    const limits = async () => (await api.get(`/v2/customers/${id}?includeTransactionLimits=true`)).body.transactionLimits;
    assert.equal((await limits()).daily.used, '0.00');
    assert.equal((await onRamp('1000.00')).status, 201, 'the released amounts are back');
    const over = await onRamp('0.01');
    assert.equal(over.status, 422, over.text);
    assert.equal(over.body.remaining, '0.00');
    // A day later: the daily total starts again (recomputed for the new day's window).
    const dayBefore = await partnerNow();
    await server.advance(24 * 60 * 60);
    const dayAfter = await partnerNow();
    assert.equal((await onRamp('1000.00')).status, 201, 'a new day');
    const row = await totals();
    assert.equal(new Decimal(row.daily).toFixed(2), '1000.00');
    assert.ok(row.dayStart.getTime() > dayBefore.getTime() - 24 * 3600 * 1000 && row.dayStart.getTime() <= dayAfter.getTime());
    // Yesterday's 1000.00 on-ramp expired unpaid too (released): the month counts today's alone, in a new month or not.
    assert.equal((await limits()).monthly.used, '1000.00');
  });
});

describe('off-ramp', () => {
  async function funded(amount = '100') {
    const a = await approved();
    await a.api.post('/v2/sandbox/wallets/fund', { customerId: a.id, blockchain: 'POLYGON', stablecoin: 'USDC', amount });
    const account = await approvedAccount(a.api, await selfPixAccount(a.api, a.id));
    return { ...a, account };
  }

  test('a locked quote to a PIX account: the stablecoin leaves at once, then TRADING, TRANSFERRING_FIAT and SUCCESS', async () => {
    const { api, id, account, partnerId } = await funded();
    const { body: q } = await api.post('/v2/exchange-rates', { customerId: id, type: 'LOCKED', rail: 'PIX', sourceCurrency: 'USDC', targetCurrency: 'BRL', sourceAmount: '40.000000' });
    const res = await api.post('/v2/transactions/off-ramp', { bankAccountId: account.id, exchangeRateId: q.id, purpose: 'PERSONAL_ACCOUNT' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.state.status, 'TRANSFERRING_STABLECOIN');
    assert.deepEqual(res.body.state.payment, { rail: 'PIX', keyType: 'EVP', keyValue: account.identifier.keyValue });
    assert.equal(await balanceOf(api, id), '60.000000');
    await settle(server);
    const done = (await api.get(`/v2/transactions/${res.body.id}`)).body;
    assert.equal(done.state.status, 'SUCCESS');
    assert.ok(done.state.estimatedSettlementAt);
    assert.equal(done.state.receipt.targetAmount, q.finalTargetAmount);
    assert.ok((await ledgerSums(server.deps.store.db, partnerId)).every((s) => new Decimal(s.sum).isZero()));
  });

  test('a failure after the debit is refunded: REFUNDING then REFUNDED, balance restored', async () => {
    const { api, id, account } = await funded();
    const { body: t } = await api.post('/v2/transactions/off-ramp', { bankAccountId: account.id, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '25.000000' });
    assert.equal(await balanceOf(api, id), '75.000000');
    const failing = await api.post(`/v2/sandbox/transactions/${t.id}/fail`);
    assert.equal(failing.body.state.status, 'REFUNDING');
    await settle(server);
    const refunded = (await api.get(`/v2/transactions/${t.id}`)).body;
    assert.equal(refunded.state.status, 'REFUNDED');
    assert.equal(refunded.state.error.code, 'SANDBOX_FAILURE');
    assert.equal(await balanceOf(api, id), '100.000000');
  });

  test('refused: more than the balance, PERSONAL_ACCOUNT to a counterparty, the pre-v2 form, a holder not yet approved', async () => {
    const { api, id, account } = await funded('10');
    const tooMuch = await api.post('/v2/transactions/off-ramp', { bankAccountId: account.id, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '10.000001' });
    assert.equal(tooMuch.status, 422);
    assert.equal(tooMuch.body.code, 'INSUFFICIENT_BALANCE');
    assert.equal(await balanceOf(api, id), '10.000000');
    assert.equal((await api.get(`/v2/customers/${id}?includeTransactionLimits=true`)).body.transactionLimits.daily.used, '0.00', 'nothing reserved by a refused request');
    const friend = await approvedAccount(api, pixAccount(id, { holder: { ...pixAccount(id).holder, relationship: 'FRIEND' } }));
    const personal = await api.post('/v2/transactions/off-ramp', { bankAccountId: friend.id, purpose: 'PERSONAL_ACCOUNT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '1.000000' });
    assert.equal(personal.status, 400);
    assert.equal(personal.body.errors[0].path, 'purpose');
    const legacy = await api.post('/v2/transactions/off-ramp', { customerId: id, payment: { rail: 'PIX', keyType: 'CPF', keyValue: '1' }, purpose: 'INVESTMENT' });
    assert.equal(legacy.status, 400);
    assert.equal(legacy.body.errors[0].path, 'bankAccountId');
    assert.match(legacy.body.errors[0].message, /bank-accounts/);
    const { body: pending } = await api.post('/v2/bank-accounts', pixAccount(id));
    assert.equal((await api.post('/v2/transactions/off-ramp', { bankAccountId: pending.id, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '1.000000' })).status, 409);
  });
});

describe('transfer', () => {
  test('to another customer and to an address; an invalid address names `to`; a failed transfer returns the funds', async () => {
    const a = await approved();
    await a.api.post('/v2/sandbox/wallets/fund', { customerId: a.id, blockchain: 'BASE', stablecoin: 'USDT', amount: '50' });
    const b = await approvedIndividual(server, a.api, a.apiKey);
    const toCustomer = await a.api.post('/v2/transactions/transfer', { currency: 'USDT', from: a.id, to: b, amount: '20', blockchain: 'BASE' });
    assert.equal(toCustomer.status, 201, toCustomer.text);
    assert.equal(toCustomer.body.state.status, 'TRANSFERRING_STABLECOIN');
    const toAddress = await a.api.post('/v2/transactions/transfer', { currency: 'USDT', from: a.id, to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '10', blockchain: 'BASE' });
    assert.equal(toAddress.status, 201);
    const bad = await a.api.post('/v2/transactions/transfer', { currency: 'USDT', from: a.id, to: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', amount: '1', blockchain: 'BASE' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].path, 'to');
    const failing = await a.api.post('/v2/transactions/transfer', { currency: 'USDT', from: a.id, to: b, amount: '5', blockchain: 'BASE' });
    await a.api.post(`/v2/sandbox/transactions/${failing.body.id}/fail`);
    await settle(server);
    assert.equal((await a.api.get(`/v2/transactions/${toCustomer.body.id}`)).body.state.status, 'SUCCESS');
    assert.equal((await a.api.get(`/v2/transactions/${failing.body.id}`)).body.state.status, 'FAILED');
    assert.equal(await balanceOf(a.api, a.id, 'BASE', 'USDT'), '20.000000');
    assert.equal(await balanceOf(a.api, b, 'BASE', 'USDT'), '20.000000');
  });
});

describe('the ledger after a randomized run', () => {
  test('on-ramps, off-ramps, transfers and failures leave every asset summing to zero and every balance equal to its entries', async () => {
    const a = await approved();
    const other = await approvedIndividual(server, a.api, a.apiKey);
    await a.api.post('/v2/sandbox/wallets/fund', { customerId: a.id, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '200' });
    const account = await approvedAccount(a.api, await selfPixAccount(a.api, a.id));
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) {
      const r = rand();
      const amount = (1 + Math.floor(rand() * 20)).toString();
      let res;
      if (r < 0.4) res = await a.api.post('/v2/transactions/on-ramp', { customerId: a.id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: `${amount}.00` });
      else if (r < 0.7) res = await a.api.post('/v2/transactions/off-ramp', { bankAccountId: account.id, purpose: 'PERSONAL_ACCOUNT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount });
      else res = await a.api.post('/v2/transactions/transfer', { currency: 'USDC', from: a.id, to: other, amount });
      if (res.status !== 201) continue;
      ids.push(res.body.id);
      const fate = rand();
      if (res.body.type === 'ON_RAMP' && fate < 0.7) await a.api.post(`/v2/sandbox/transactions/${res.body.id}/pay`);
      if (fate > 0.8) await a.api.post(`/v2/sandbox/transactions/${res.body.id}/fail`);
      if (i % 5 === 0) await server.advance(1);
    }
    await settle(server);
    await server.advance(16 * 60);
    await settle(server);
    const statuses = new Set<string>();
    for (const id of ids) statuses.add((await a.api.get(`/v2/transactions/${id}`)).body.state.status);
    assert.ok([...statuses].every((s) => ['SUCCESS', 'FAILED', 'REFUNDED'].includes(s)), [...statuses].join());
    const { db } = server.deps.store;
    assert.ok((await ledgerSums(db, a.partnerId)).every((s) => new Decimal(s.sum).isZero()), JSON.stringify(await ledgerSums(db, a.partnerId)));
    assert.ok((await balanceDrift(db, a.partnerId)).every((d) => new Decimal(d.drift).isZero()));
    assert.ok(new Decimal(await balanceOf(a.api, a.id)).gte(0));
  });
});

describe('reads', () => {
  test("list filters by customer, type and status; another partner's transaction is 404", async () => {
    const { api, id } = await approved();
    await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
    const { body: t } = await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '20.00' });
    assert.equal((await api.get(`/v2/transactions?customerId=${id}&type=ON_RAMP&status=AWAITING_FUNDS`)).body.data.length, 2);
    assert.equal((await api.get(`/v2/transactions?type=OFF_RAMP`)).body.data.length, 0);
    assert.equal((await api.get(`/v2/transactions?size=1`)).body.data[0].id, t.id);
    const other = await newPartner(server);
    assert.equal((await other.api.get(`/v2/transactions/${t.id}`)).status, 404);
    assert.equal((await other.api.post(`/v2/sandbox/transactions/${t.id}/pay`)).status, 404);
  });
});

describe('workers', () => {
  test('sandbox autopay pays an on-ramp by itself after RAMP_SANDBOX_AUTOPAY_MS', async () => {
    const auto = await startTestServer({ RAMP_SANDBOX_AUTOPAY_MS: '5000', RAMP_SANDBOX_STEP_MS: '1000', RAMP_SANDBOX_REVIEW_MS: '60000' });
    try {
      const api = client(auto, auto.apiKey);
      const id = await approvedIndividual(auto, api, auto.apiKey);
      const { body: t } = await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
      await auto.advance(4);
      assert.equal((await api.get(`/v2/transactions/${t.id}`)).body.state.status, 'AWAITING_FUNDS');
      await settle(auto);
      assert.equal((await api.get(`/v2/transactions/${t.id}`)).body.state.status, 'SUCCESS');
    } finally {
      await auto.close();
    }
  });

  test('a transaction in flight when the process stops goes on to SUCCESS after it starts again', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { openStore } = await import('../../server/store/db');
    const url = process.env.DATABASE_URL;
    const dir = mkdtempSync(join(tmpdir(), 'ramp-tx-restart-'));
    const schema = `ramp_test_txrestart_${process.pid}`;
    const open = () => (url ? openStore({ databaseUrl: url, schema }) : openStore({ dataDir: dir }));
    const env = { RAMP_SANDBOX_STEP_MS: '30000', RAMP_SANDBOX_REVIEW_MS: '60000', RAMP_API_KEY: `sk_sandbox_${'t'.repeat(32)}`, RAMP_SESSION_SECRET: 'u'.repeat(40) };
    try {
      const first = await startTestServer(env, { store: await open() });
      const api = client(first, first.apiKey);
      const id = await approvedIndividual(first, api, first.apiKey);
      const { body: t } = await api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
      await api.post(`/v2/sandbox/transactions/${t.id}/pay`);
      await first.close();
      await first.deps.store.close();

      const second = await startTestServer(env, { store: await open() });
      try {
        for (let i = 0; i < 4; i++) await second.advance(31);
        assert.equal((await client(second, second.apiKey).get(`/v2/transactions/${t.id}`)).body.state.status, 'SUCCESS');
      } finally {
        await second.close();
        await second.deps.store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      if (url) {
        const { store, drop } = await (await import('./harness')).openTestStore();
        await store.db.execute((await import('drizzle-orm')).sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
        await drop();
      }
    }
  });
});

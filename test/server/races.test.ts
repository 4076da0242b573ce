// Races that prove the mechanisms guarding money: single-use quotes (one conditional UPDATE), balances that never go negative
// (the row update and its CHECK), and limits (the customer row lock in reserveLimit), each raced also where no customer lock
// serialises the contenders. PostgreSQL only: PGlite runs one statement at a time, so a broken mechanism would pass there.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from 'decimal.js';
import { AppError } from '../../server/domain/errors';
import { accounts } from '../../server/domain/ledger';
import { reserveLimit } from '../../server/flows/limits';
import { redeemQuote } from '../../server/store/queries/exchange-rates';
import { advanceAllPartnerClocks } from '../../server/store/queries/partner-clocks';
import { randomUUID } from 'node:crypto';
import { exchangeRates, jobs } from '../../server/store/schema/index';
import { createWorkers } from '../../server/workers/index';
import { and, eq, gt, inArray } from 'drizzle-orm';
import { balanceDrift, ledgerSums, postMovement } from '../../server/store/queries/ledger';
import { business, client, individual, newPartner, type TestServer, startTestServer, taxIdEndingIn } from './harness';
import { address, approvedIndividual, approvedInNewPartner } from './kyc-helpers';
import { pixAccount, settle } from './transactions-helpers';
import { inTransaction } from '../../server/store/db';

const SKIP = process.env.DATABASE_URL
  ? false
  : 'SKIPPED: race tests need PostgreSQL (set DATABASE_URL); PGlite runs one statement at a time, so a broken lock or check would pass there';
if (SKIP) process.stderr.write(`\n*** ${SKIP} ***\n\n`);

type Api = ReturnType<typeof client>;
let server: TestServer;
before(async () => {
  if (!SKIP) server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server?.close());

const approved = () => approvedInNewPartner(server);

const balanceOf = async (api: Api, id: string, chain = 'POLYGON', coin = 'USDC') =>
  (await api.get(`/v2/customers/${id}?includeBalances=true`)).body.wallets
    .find((w: { blockchain: string }) => w.blockchain === chain)
    .balances.find((b: { stablecoin: string }) => b.stablecoin === coin).balance as string;

async function ledgerIsSound(partnerId: string) {
  const { db } = server.deps.store;
  assert.ok((await ledgerSums(db, partnerId)).every((s) => new Decimal(s.sum).isZero()), JSON.stringify(await ledgerSums(db, partnerId)));
  assert.ok((await balanceDrift(db, partnerId)).every((d) => new Decimal(d.drift).isZero()), JSON.stringify(await balanceDrift(db, partnerId)));
}

const lockBuy = async (api: Api, customerId: string, sourceAmount = '100.00') => {
  const res = await api.post('/v2/exchange-rates', { customerId, type: 'LOCKED', timeLock: '5m', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount });
  assert.equal(res.status, 200, res.text);
  return res.body as { id: string; finalTargetAmount: string };
};

describe('races (PostgreSQL)', { skip: SKIP }, () => {
  describe('single-use locked quotes', () => {
    test('100 concurrent redemptions of one quote, straight on the store (no customer lock): exactly one wins', async () => {
      const { api, id, partnerId } = await approved();
      const q = await lockBuy(api, id);
      const { db } = server.deps.store;
      const now = await server.nowFor(partnerId);
      const attempts = await Promise.allSettled(
        Array.from({ length: 100 }, (_, i) => inTransaction(db, (tx) => redeemQuote(tx, { partnerId, customerId: id, id: q.id, usedBy: `tx-${i}`, now }))),
      );
      const won = attempts.filter((a) => a.status === 'fulfilled');
      assert.equal(won.length, 1);
      assert.equal((won[0] as PromiseFulfilledResult<{ finalTargetAmount: string }>).value.finalTargetAmount, q.finalTargetAmount);
      for (const a of attempts.filter((x) => x.status === 'rejected')) assert.equal((a as PromiseRejectedResult).reason.code, 'RATE_ALREADY_USED');
    });

    test("two customers on one quote: concurrent on-ramps by its owner and by another customer (different rows, no shared lock): exactly one 201, the owner's", async () => {
      const { api, id, apiKey } = await approved();
      const other = await approvedIndividual(server, api, apiKey);
      const q = await lockBuy(api, id, '10.00');
      const onRamp = (customerId: string) => api.post('/v2/transactions/on-ramp', { customerId, exchangeRateId: q.id, purpose: 'INVESTMENT' });
      const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => onRamp(i % 2 ? other : id).then((r) => ({ ...r, customerId: i % 2 ? other : id }))));
      const created = replies.filter((r) => r.status === 201);
      assert.equal(created.length, 1, JSON.stringify(replies.map((r) => r.status)));
      assert.equal(created[0]!.body.customerId, id);
      assert.ok(replies.filter((r) => r.customerId === other).every((r) => r.status === 404));
      assert.ok(replies.filter((r) => r.customerId === id && r.status !== 201).every((r) => r.status === 409 && r.body.code === 'RATE_ALREADY_USED'));
    });

    test('a lock made without a customer, raced by on-ramps of two customers: exactly one 201, and the lock is bound to its winner', async () => {
      const { api, id, apiKey } = await approved();
      const other = await approvedIndividual(server, api, apiKey);
      const lock = await api.post('/v2/exchange-rates', { type: 'LOCKED', timeLock: '5m', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
      assert.equal(lock.status, 200, lock.text);
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) => api.post('/v2/transactions/on-ramp', { customerId: i % 2 ? other : id, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' })),
      );
      const created = replies.filter((r) => r.status === 201);
      assert.equal(created.length, 1, JSON.stringify(replies.map((r) => r.status)));
      const winner = created[0]!.body.customerId as string;
      const loser = winner === id ? other : id;
      const [row] = await server.deps.store.db.select().from(exchangeRates).where(eq(exchangeRates.id, lock.body.id));
      assert.equal(row!.customerId, winner);
      // The winner's other attempts lost the single use; the other customer's were refused as not its quote (or lost the race outright).
      assert.ok(replies.filter((r) => r.status !== 201).every((r) => (r.status === 409 && r.body.code === 'RATE_ALREADY_USED') || r.status === 404), JSON.stringify(replies.map((r) => r.status)));
      const after = await api.post('/v2/transactions/on-ramp', { customerId: loser, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' });
      assert.equal(after.status, 404);
    });

    test('100 concurrent redemptions of one customer-less lock by 100 customers ids, straight on the store: exactly one wins and binds it', async () => {
      const { api, partnerId } = await approved();
      const lock = await api.post('/v2/exchange-rates', { type: 'LOCKED', timeLock: '5m', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
      const { db } = server.deps.store;
      const now = await server.nowFor(partnerId);
      const ids = Array.from({ length: 100 }, () => randomUUID());
      const attempts = await Promise.allSettled(ids.map((customerId, i) => inTransaction(db, (tx) => redeemQuote(tx, { partnerId, customerId, id: lock.body.id, usedBy: `tx-${i}`, now }))));
      const won = attempts.flatMap((a, i) => (a.status === 'fulfilled' ? [{ i, quote: a.value }] : []));
      assert.equal(won.length, 1);
      assert.equal(won[0]!.quote.customerId, ids[won[0]!.i]);
      const [row] = await db.select().from(exchangeRates).where(eq(exchangeRates.id, lock.body.id));
      assert.equal(row!.customerId, ids[won[0]!.i]);
      for (const a of attempts.filter((x) => x.status === 'rejected')) assert.ok(['RATE_ALREADY_USED', 'NOT_FOUND'].includes((a as PromiseRejectedResult).reason.code));
    });

    test('100 concurrent on-ramps with one exchangeRateId: exactly one 201', async () => {
      const { api, id } = await approved();
      const q = await lockBuy(api, id, '10.00');
      const replies = await Promise.all(Array.from({ length: 100 }, () => api.post('/v2/transactions/on-ramp', { customerId: id, exchangeRateId: q.id, purpose: 'INVESTMENT' })));
      assert.equal(replies.filter((r) => r.status === 201).length, 1);
      assert.ok(replies.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.code === 'RATE_ALREADY_USED'));
      assert.equal((await api.get(`/v2/transactions?customerId=${id}`)).body.data.length, 1);
    });
  });

  describe('balances', () => {
    test('100 concurrent debits straight through postMovement (no customer lock) never take a balance below zero', async () => {
      const { api, id, partnerId } = await approved();
      await api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'POLYGON', stablecoin: 'USDT', amount: '50' });
      const { db } = server.deps.store;
      const debit = () =>
        inTransaction(db, (tx) =>
          postMovement(
            tx,
            {
              partnerId,
              kind: 'test.debit',
              entries: [
                { account: accounts.customer(id), blockchain: 'POLYGON', asset: 'USDT', amount: '-1.000000' },
                { account: accounts.sandboxTreasury, blockchain: 'POLYGON', asset: 'USDT', amount: '1.000000' },
              ],
            },
            new Date(),
          ),
        );
      const results = await Promise.allSettled(Array.from({ length: 100 }, debit));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 50);
      const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      assert.ok(refused.every((r) => r.reason instanceof AppError && r.reason.code === 'INSUFFICIENT_BALANCE'), String(refused[0]?.reason));
      assert.equal(await balanceOf(api, id, 'POLYGON', 'USDT'), '0.000000');
      await ledgerIsSound(partnerId);
    });

    test('movements in opposite directions between two customers at once neither deadlock nor lose an update', async () => {
      const a = await approved();
      const b = await approvedIndividual(server, a.api, a.apiKey);
      for (const c of [a.id, b]) await a.api.post('/v2/sandbox/wallets/fund', { customerId: c, blockchain: 'BASE', stablecoin: 'USDC', amount: '100' });
      const { db } = server.deps.store;
      const move = (from: string, to: string) =>
        inTransaction(db, (tx) =>
          postMovement(
            tx,
            {
              partnerId: a.partnerId,
              kind: 'test.move',
              entries: [
                { account: accounts.customer(from), blockchain: 'BASE', asset: 'USDC', amount: '-1.000000' },
                { account: accounts.customer(to), blockchain: 'BASE', asset: 'USDC', amount: '1.000000' },
              ],
            },
            new Date(),
          ),
        );
      const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => (i % 2 ? move(a.id, b) : move(b, a.id))));
      const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      assert.equal(failed.length, 0, String(failed[0]?.reason?.cause ?? failed[0]?.reason));
      assert.equal(await balanceOf(a.api, a.id, 'BASE'), '100.000000');
      assert.equal(await balanceOf(a.api, b, 'BASE'), '100.000000');
      await ledgerIsSound(a.partnerId);
    });

    test('transfers between two partners in opposite directions, settled by two job runners at once: no deadlock, no retry, nothing lost', async () => {
      const a = await approved();
      const b = await approved();
      for (const p of [a, b]) await p.api.post('/v2/sandbox/wallets/fund', { customerId: p.id, blockchain: 'BASE', stablecoin: 'USDC', amount: '100' });
      const addressOf = async (p: typeof a) => (await p.api.get(`/v2/customers/${p.id}`)).body.wallets.find((w: { blockchain: string }) => w.blockchain === 'BASE').address as string;
      const [toA, toB] = [await addressOf(a), await addressOf(b)];
      const replies = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 2
            ? a.api.post('/v2/transactions/transfer', { currency: 'USDC', from: a.id, to: toB, amount: '1', blockchain: 'BASE' })
            : b.api.post('/v2/transactions/transfer', { currency: 'USDC', from: b.id, to: toA, amount: '1', blockchain: 'BASE' }),
        ),
      );
      assert.ok(replies.every((r) => r.status === 201), replies.find((r) => r.status !== 201)?.text);
      const second = createWorkers(server.deps);
      const { db } = server.deps.store;
      for (let s = 0; s < 10; s++) {
        await advanceAllPartnerClocks(db, 1000);
        await Promise.all([server.workers.runDue(), second.runDue(), server.workers.runDue()]);
      }
      const retried = await db.select({ id: jobs.id, lastError: jobs.lastError }).from(jobs).where(and(inArray(jobs.partnerId, [a.partnerId, b.partnerId]), gt(jobs.attempts, 0)));
      assert.deepEqual(retried, []);
      for (const r of replies) {
        const p = r.body.customerId === a.id ? a : b;
        assert.equal((await p.api.get(`/v2/transactions/${r.body.id}`)).body.state.status, 'SUCCESS');
      }
      assert.equal(await balanceOf(a.api, a.id, 'BASE'), '100.000000');
      assert.equal(await balanceOf(b.api, b.id, 'BASE'), '100.000000');
      await ledgerIsSound(a.partnerId);
      await ledgerIsSound(b.partnerId);
    });

    test('concurrent off-ramps against one balance never overdraw it', async () => {
      const { api, id, partnerId } = await approved();
      await api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '30' });
      const { body: account } = await api.post('/v2/bank-accounts', pixAccount(id));
      await settle(server, 5);
      const body = { bankAccountId: account.id, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '4.000000' };
      const replies = await Promise.all(Array.from({ length: 20 }, () => api.post('/v2/transactions/off-ramp', body)));
      assert.equal(replies.filter((r) => r.status === 201).length, 7);
      assert.ok(replies.filter((r) => r.status !== 201).every((r) => r.body.code === 'INSUFFICIENT_BALANCE'));
      assert.equal(await balanceOf(api, id), '2.000000');
      await ledgerIsSound(partnerId);
    });
  });

  describe('limits', () => {
    test('10 concurrent reservations straight through reserveLimit: never more than the daily limit', async () => {
      const { api, partnerId } = await newPartner(server);
      const { body: c } = await api.post('/v2/customers', individual());
      const { db } = server.deps.store;
      const reserve = (ref: string) => inTransaction(db, (tx) => reserveLimit(tx, server.deps, { partnerId, customerId: c.id }, '300.00', ref));
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => reserve(`r${i}`)));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 6);
      const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      assert.ok(refused.every((r) => r.reason.code === 'TRANSACTION_LIMIT_EXCEEDED' && r.reason.extra.limit === 'daily'));
      const limits = (await api.get(`/v2/customers/${c.id}?includeTransactionLimits=true`)).body.transactionLimits;
      assert.deepEqual(limits.daily, { max: '2000.00', used: '1800.00', remaining: '200.00' });
    });

    test('20 concurrent on-ramps of one customer (each reading its usage with the lock): never more than the daily limit', async () => {
      const { api, id } = await approved();
      assert.equal((await api.send('PUT', `/v2/customers/${id}/transaction-limits`, { single: '1000.00', daily: '2000.00' })).status, 200);
      const body = { customerId: id, purpose: 'BILLS', rail: 'ACH', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount: '300.00' };
      const replies = await Promise.all(Array.from({ length: 20 }, () => api.post('/v2/transactions/on-ramp', body)));
      assert.equal(replies.filter((r) => r.status === 201).length, 6, replies.map((r) => `${r.status} ${r.body.code ?? ''}`).join(', '));
      assert.ok(replies.filter((r) => r.status !== 201).every((r) => r.status === 422 && r.body.limit === 'daily'));
      const limits = (await api.get(`/v2/customers/${id}?includeTransactionLimits=true`)).body.transactionLimits;
      assert.deepEqual(limits.daily, { max: '2000.00', used: '1800.00', remaining: '200.00' });
    });

    test('an on-ramp, an off-ramp and a transfer at once, each fitting alone: exactly one fits the daily limit', async () => {
      const { api, id } = await approved();
      await api.post('/v2/sandbox/wallets/fund', { customerId: id, blockchain: 'POLYGON', stablecoin: 'USDC', amount: '5000' });
      const { body: account } = await api.post('/v2/bank-accounts', pixAccount(id));
      await settle(server, 5);
      assert.equal((await api.send('PUT', `/v2/customers/${id}/transaction-limits`, { single: '1000.00', daily: '1500.00' })).status, 200);
      for (let round = 0; round < 3; round++) {
        const replies = await Promise.all([
          api.post('/v2/transactions/on-ramp', { customerId: id, purpose: 'BILLS', rail: 'ACH', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount: '900.00' }),
          api.post('/v2/transactions/off-ramp', { bankAccountId: account.id, purpose: 'INVESTMENT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '900.000000' }),
          api.post('/v2/transactions/transfer', { currency: 'USDC', from: id, to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '900', blockchain: 'POLYGON' }),
        ]);
        assert.equal(replies.filter((r) => r.status === 201).length, 1, replies.map((r) => `${r.status} ${r.body.code ?? ''}`).join(', '));
        assert.ok(replies.filter((r) => r.status !== 201).every((r) => r.status === 422 && r.body.limit === 'daily'));
        // Release this round's reservation so the next round races again from zero.
        const done = replies.find((r) => r.status === 201)!.body;
        await api.post(`/v2/sandbox/transactions/${done.id}/fail`);
        await settle(server, 5);
      }
    });
  });
});

describe('associated parties (PostgreSQL)', { skip: SKIP }, () => {
  test('10 shareholders of 30 % added at once: three fit under 100 %, the rest are refused, the sum never passes 100', async () => {
    const { api } = await newPartner(server);
    const { body: biz } = await api.post('/v2/customers', business({ taxId: taxIdEndingIn('cnpj', 0) }));
    const base = `/v2/customers/${biz.id}/associated-parties`;
    const shareholder = (i: number) => ({
      type: 'INDIVIDUAL', roles: ['SHAREHOLDER'], ownershipPercentage: '30', name: `Sócia ${i}`, taxId: taxIdEndingIn('cpf'), birthDate: '1980-01-01', email: `s${i}@acme.example`, address,
    });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => api.post(base, shareholder(i))));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 201, 201, 400, 400, 400, 400, 400, 400, 400], results.map((r) => r.text).join('\n'));
    const kept = (await api.get(base)).body.data as { ownershipPercentage: string }[];
    assert.equal(kept.reduce((sum, p) => sum.plus(p.ownershipPercentage), new Decimal(0)).toFixed(2), '90.00');
  });
});

// The ledger's write path (postMovement): a movement that does not balance per chain and asset is refused before any row is written.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { AppError } from '../../server/domain/errors';
import { accounts, type Entry } from '../../server/domain/ledger';
import { newId } from '../../server/ids';
import { type Db, type Store, inTransaction } from '../../server/store/db';
import { accountBalances, balanceDrift, ledgerSums, postMovement } from '../../server/store/queries/ledger';
import { openTestStore } from './harness';

let store: Store;
let drop: () => Promise<void>;
before(async () => {
  ({ store, drop } = await openTestStore());
});
after(() => drop());

const db = () => store.db;
const entry = (account: string, amount: string, asset = 'USDC', blockchain = 'POLYGON'): Entry => ({ account, blockchain, asset, amount });

/** Rows of the partner in each ledger table, and its balances: what "nothing was written" is checked against. */
async function ledgerOf(partnerId: string) {
  const res = (await db().execute(sql`
    SELECT (SELECT count(*) FROM ledger_movements WHERE partner_id = ${partnerId})::int AS movements,
           (SELECT count(*) FROM ledger_entries WHERE partner_id = ${partnerId})::int AS entries,
           (SELECT count(*) FROM ledger_balances WHERE partner_id = ${partnerId})::int AS balances,
           (SELECT coalesce(string_agg(account || '=' || balance::text, ',' ORDER BY account, blockchain, asset), '') FROM ledger_balances WHERE partner_id = ${partnerId}) AS amounts`)) as unknown as { rows: Record<string, unknown>[] };
  return res.rows[0]!;
}

/** Posts `entries` as one movement in its own transaction, as every caller does. */
const post = (partnerId: string, entries: Entry[], kind = 'test') => inTransaction(db(), (tx) => postMovement(tx as unknown as Db, { partnerId, kind, entries }, new Date()));

/** Asserts that posting is refused with INTERNAL naming the imbalance, and that the partner's ledger is as it was. */
async function refused(partnerId: string, entries: Entry[], message: RegExp) {
  const before = await ledgerOf(partnerId);
  for (const attempt of [() => post(partnerId, entries), () => postMovement(db(), { partnerId, kind: 'test', entries }, new Date())]) {
    await assert.rejects(attempt(), (err: unknown) => {
      assert.ok(err instanceof AppError, `an AppError, not ${String(err)}`);
      assert.equal(err.code, 'INTERNAL');
      assert.match(err.detail, message);
      return true;
    });
    assert.deepEqual(await ledgerOf(partnerId), before, 'no movement, entry or balance was written');
  }
}

describe('ledger: balanced movements only', () => {
  test('a balanced movement is written whole: its entries, and balances that match them', async () => {
    const partnerId = newId();
    const customer = accounts.customer(newId());
    await post(partnerId, [entry(accounts.sandboxTreasury, '-100.50'), entry(customer, '100.50')]);
    assert.deepEqual(await ledgerOf(partnerId), { movements: 1, entries: 2, balances: 2, amounts: `${customer}=100.500000,sandbox:treasury=-100.500000` });
    assert.deepEqual(await accountBalances(db(), partnerId, customer), [{ blockchain: 'POLYGON', asset: 'USDC', balance: '100.500000' }]);
    assert.ok((await ledgerSums(db(), partnerId)).every((s) => Number(s.sum) === 0));
    assert.ok((await balanceDrift(db(), partnerId)).every((d) => Number(d.drift) === 0));
  });

  test('a movement whose entries do not sum to zero is refused, and nothing of it is written', async () => {
    const partnerId = newId();
    const customer = accounts.customer(newId());
    // Money from nowhere: a credit of 100 against a debit of 50.
    await refused(partnerId, [entry(accounts.sandboxTreasury, '-50.00'), entry(customer, '100.00')], /Unbalanced movement: POLYGON\/USDC sums to 50/);
    // A movement that only takes: two debits of system accounts (which may go negative).
    await refused(partnerId, [entry(accounts.sandboxTreasury, '-1.00'), entry(accounts.clearing('PIX'), '-1.00')], /sums to -2/);
    // Off by the smallest unit the ledger keeps.
    await refused(partnerId, [entry(accounts.sandboxTreasury, '-10.000000'), entry(customer, '10.000001')], /sums to 0\.000001/);
  });

  test('a movement must balance per chain and per asset, not only in total', async () => {
    const partnerId = newId();
    const customer = accounts.customer(newId());
    await refused(partnerId, [entry(accounts.sandboxTreasury, '-100', 'USDT'), entry(customer, '100', 'USDC')], /Unbalanced movement: POLYGON\/(USDT|USDC)/);
    await refused(partnerId, [entry(accounts.sandboxTreasury, '-100', 'USDC', 'ETHEREUM'), entry(customer, '100', 'USDC', 'POLYGON')], /Unbalanced movement: (ETHEREUM|POLYGON)\/USDC/);
  });

  test('a movement of one entry, or with an entry of zero, is refused and writes nothing', async () => {
    const partnerId = newId();
    await refused(partnerId, [entry(accounts.sandboxTreasury, '5')], /at least two entries/);
    await refused(partnerId, [], /at least two entries/);
    await refused(partnerId, [entry(accounts.sandboxTreasury, '0'), entry(accounts.clearing('PIX'), '0')], /Ledger entry of 0/);
  });

  test('a balanced movement that would overdraw a customer is refused whole: no movement, no entry, no balance moved', async () => {
    const partnerId = newId();
    const customer = accounts.customer(newId());
    await post(partnerId, [entry(accounts.sandboxTreasury, '-10.00'), entry(customer, '10.00')]);
    const before = await ledgerOf(partnerId);
    // `clearing:` sorts before `customer:`, so its balance is updated first: the transaction must undo it when the customer's fails.
    await assert.rejects(post(partnerId, [entry(customer, '-20.00'), entry(accounts.clearing('PIX'), '20.00')]), (err: unknown) => err instanceof AppError && err.code === 'INSUFFICIENT_BALANCE');
    assert.deepEqual(await ledgerOf(partnerId), before);
    assert.deepEqual(await accountBalances(db(), partnerId, customer), [{ blockchain: 'POLYGON', asset: 'USDC', balance: '10.000000' }]);
  });
});

// Round trips to the database on the hot paths, counted (issue 14): a floating quote, a customer read with balances and
// limits, a locked quote and the on-ramp that uses it. A change that adds a statement to one of them fails here, on purpose:
// raise the number only with the reason in the commit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newPartner, type TestServer, startTestServer } from './harness';
import { approvedInNewPartner } from './kyc-helpers';

let server: TestServer;
let customer: Awaited<ReturnType<typeof approvedInNewPartner>>;
before(async () => {
  // A long rate-limit window, so that no lease runs out (and takes an upsert) in the middle of a count.
  server = await startTestServer({ RAMP_RATE_LIMIT_API_KEY: '1000000/3600', RAMP_RATE_LIMIT_AUTH_FAILURES: '1000000/3600' });
  customer = await approvedInNewPartner(server);
  // Past the second after approval's clock moves, in which a partner's clock offset is not cached.
  await new Promise((r) => setTimeout(r, 1100));
});
after(async () => server?.close());

/** Statements the store sent while `fn` ran; `fn` runs once before, to warm what is cached (key, clock, lease). */
async function counted(fn: () => Promise<void>): Promise<number> {
  await fn();
  const before = server.deps.store.statements();
  await fn();
  return server.deps.store.statements() - before;
}

const floating = () => ({ customerId: customer.id, type: 'FLOATING', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '100.00' });

describe('statements per request on the hot paths', () => {
  test('a floating quote', async () => {
    const n = await counted(async () => {
      const res = await customer.api.post('/v2/exchange-rates', floating());
      assert.equal(res.status, 200, res.text);
    });
    // The key, the partner's clock, the rate-limit lease and the customer's existence are all known already: no statement.
    assert.equal(n, 0);
  });

  test('a customer read with balances and transaction limits', async () => {
    const n = await counted(async () => {
      const res = await customer.api.get(`/v2/customers/${customer.id}?includeBalances=true&includeTransactionLimits=true`);
      assert.equal(res.status, 200, res.text);
    });
    // The row, documents, parties, wallets, balances and limit usage in one json_agg statement.
    assert.equal(n, 1);
  });

  test('a locked quote and the on-ramp that uses it', async () => {
    const n = await counted(async () => {
      const lock = await customer.api.post('/v2/exchange-rates', { ...floating(), type: 'LOCKED', sourceAmount: '10.00' });
      assert.equal(lock.status, 200, lock.text);
      const onRamp = await customer.api.post('/v2/transactions/on-ramp', { customerId: customer.id, exchangeRateId: lock.body.id, purpose: 'INVESTMENT' });
      assert.equal(onRamp.status, 201, onRamp.text);
    });
    // Lock: the stored quote (1). On-ramp: BEGIN, customer locked once, quote redeemed, limit override and usage (one
    // statement), reservation, transaction, event, deadlines (one multi-row insert), COMMIT (9).
    assert.equal(n, 10);
  });
});

describe('what is cached to save them', () => {
  test("a customer another partner has quoted for is still unknown to this one (the existence cache is per partner)", async () => {
    assert.equal((await customer.api.post('/v2/exchange-rates', floating())).status, 200);
    const other = await newPartner(server);
    const res = await other.api.post('/v2/exchange-rates', floating());
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.errors[0].path, 'customerId');
  });
});

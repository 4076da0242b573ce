// Helpers of the in-process payout tests: a paid on-ramp run to its payout, the chain monitor run by hand, reads of the result.
import assert from 'node:assert/strict';
import { and, eq, inArray } from 'drizzle-orm';
import type { ChainTransferKind } from '../../../server/domain/chain/payout';
import { type ChainTransferRow, transferOf } from '../../../server/store/queries/chain-transfers';
import { chainTransfers } from '../../../server/store/schema/index';
import { type ChainMonitor, chainMonitor } from '../../../server/workers/chain-monitor';
import { client, type TestServer } from '../harness';
import { approvedIndividual } from '../kyc-helpers';
import { settle } from '../transactions-helpers';

export function payouts(server: TestServer) {
  const api = client(server, server.apiKey);
  const monitor: ChainMonitor = chainMonitor(server.deps);
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** Lets the monitor look once what it checked last is due again (each check puts the next RAMP_CHAIN_POLL_MS ahead). */
  async function check() {
    await wait(server.deps.config.RAMP_CHAIN_POLL_MS + 10);
    await monitor.runDue();
  }

  /** The transaction's own leg (an on-ramp's payout, an off-ramp's or a transfer's move); not its GAS or REFUND. */
  const transferRow = async (id: string) =>
    (await server.deps.store.db.select().from(chainTransfers).where(and(eq(chainTransfers.transactionId, id), inArray(chainTransfers.kind, ['PAYOUT', 'OFFRAMP', 'TRANSFER']))))[0] as ChainTransferRow;
  async function untilRow(read: () => Promise<ChainTransferRow | undefined>, done: (row: ChainTransferRow) => boolean, what: string, ms: number) {
    const end = Date.now() + ms;
    for (;;) {
      const row = await read();
      if (row && done(row)) return row;
      if (Date.now() > end) assert.fail(`${what}: the transfer is ${row ? `${row.status} (${row.waitReason ?? 'no wait'}: ${row.lastError ?? ''})` : 'not queued'}`);
      await check();
    }
  }
  const statusOf = async (id: string) => (await api.get(`/v2/transactions/${id}`)).body.state.status as string;

  return {
    api,
    monitor,
    check,
    transferRow,
    statusOf,
    /** Checks until `done` holds of the transfer's row (backoffs pass by themselves), or fails after `ms`. */
    until: (id: string, done: (row: ChainTransferRow) => boolean, what: string, ms = 10_000) => untilRow(() => transferRow(id), done, what, ms),
    /** The same for the transaction's leg of `kind` (its GAS or REFUND too), once it exists. */
    untilLeg: (kind: ChainTransferKind, id: string, done: (row: ChainTransferRow) => boolean, what: string, ms = 10_000) =>
      untilRow(() => transferOf(server.deps.store.db, kind, id), done, what, ms),
    /** Mines one block and lets the monitor look, `n` times. */
    async mineAndCheck(mine: () => Promise<void>, n = 1) {
      for (let i = 0; i < n; i++) {
        await mine();
        await check();
      }
    },
    /** An approved customer's on-ramp on `blockchain`, paid and run to TRANSFERRING_STABLECOIN, where the payout is queued. */
    async paidOnRamp(blockchain: string, sourceAmount = '100.00', targetCurrency = 'USDC') {
      const customerId = await approvedIndividual(server, api, server.apiKey);
      const created = await api.post('/v2/transactions/on-ramp', { customerId, purpose: 'BILLS', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency, sourceAmount, blockchain });
      assert.equal(created.status, 201, created.text);
      assert.equal((await api.post(`/v2/sandbox/transactions/${created.body.id}/pay`)).status, 200);
      await settle(server);
      const t = (await api.get(`/v2/transactions/${created.body.id}`)).body;
      assert.equal(t.state.status, 'TRANSFERRING_STABLECOIN');
      const { body: customer } = await api.get(`/v2/customers/${customerId}`);
      const wallet = customer.wallets.find((w: { blockchain: string }) => w.blockchain === blockchain);
      return { id: created.body.id as string, customerId, wallet: wallet.address as string, amount: t.quote.finalTargetAmount as string };
    },
    /** The balance of `coin` on `blockchain` that the API reports for the customer. */
    async apiBalance(customerId: string, blockchain: string, coin = 'USDC') {
      const { body } = await api.get(`/v2/customers/${customerId}?includeBalances=true`);
      return body.wallets.find((w: { blockchain: string }) => w.blockchain === blockchain).balances.find((b: { stablecoin: string }) => b.stablecoin === coin).balance as string;
    },
  };
}

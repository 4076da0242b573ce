// Helpers of the in-process tests of a customer's own on-chain legs (off-ramps, their refunds, transfers): a customer whose
// wallet holds stablecoin the chain gave it (a deposit, credited), an off-ramp or transfer run to where its leg is queued,
// and the books read against the chain.
import assert from 'node:assert/strict';
import { DEV_ACCOUNTS } from '../../../scripts/devnet/anvil.mjs';
import { mint } from '../../../scripts/devnet/token.mjs';
import { toBaseUnits } from '../../../server/domain/chain/amounts';
import type { Address, Hex } from '../../../server/domain/chain/chain-client';
import { reconcile } from '../../../server/flows/chain/reconcile';
import type { TestServer } from '../harness';
import { approvedIndividual } from '../kyc-helpers';
import { selfPixAccount, settle } from '../transactions-helpers';
import type { ChainNode } from './chain-node';
import type { payouts } from './payouts';

export function chainLegs(server: TestServer, p: ReturnType<typeof payouts>, chain: ChainNode) {
  const blockchain = chain.blockchain;
  return {
    /** An approved customer holding `amount` USDC (a deposit, credited), with an approved PIX account of their own. */
    async fundedCustomer(amount: string) {
      const customerId = await approvedIndividual(server, p.api, server.apiKey);
      const wallet = (await p.api.get(`/v2/customers/${customerId}`)).body.wallets.find((w: { blockchain: string }) => w.blockchain === blockchain).address as string;
      await mint(chain.rpcUrl, { token: chain.usdc, to: wallet as Address, amount: toBaseUnits(amount, 6), ownerKey: DEV_ACCOUNTS[0]!.privateKey as Hex });
      await p.monitor.scanDeposits();
      assert.equal(await p.apiBalance(customerId, blockchain), `${amount}.000000`, 'credited as a deposit');
      const account = await p.api.post('/v2/bank-accounts', await selfPixAccount(p.api, customerId));
      assert.equal(account.status, 201, account.text);
      await settle(server, 5);
      return { customerId, wallet, accountId: account.body.id as string };
    },

    /** An off-ramp of `amount` USDC to the bank account, run to the step that queues its on-chain leg. */
    async offRamp(accountId: string, amount: string) {
      const res = await p.api.post('/v2/transactions/off-ramp', { bankAccountId: accountId, purpose: 'PERSONAL_ACCOUNT', sourceCurrency: 'USDC', targetCurrency: 'BRL', amount, blockchain });
      assert.equal(res.status, 201, res.text);
      await settle(server, 5);
      return res.body.id as string;
    },

    /** A transfer of `amount` USDC from a customer to an address or another customer, run to where its leg is queued. */
    async transfer(from: string, to: string, amount: string) {
      const res = await p.api.post('/v2/transactions/transfer', { currency: 'USDC', from, to, amount, blockchain });
      assert.equal(res.status, 201, res.text);
      await settle(server, 5);
      return res.body.id as string;
    },

    /** What `ops reconcile` says of the books against the chain. */
    async books() {
      const r = await reconcile(server.deps.store.db, server.deps.chains);
      return { ok: r.ok, discrepancies: r.discrepancies, errors: r.errors };
    },
  };
}

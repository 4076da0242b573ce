// What the sandbox's helper routes do (/v2/sandbox, never mounted in production): partners on demand, credits made up
// from the sandbox treasury, a partner's clock moved forward, and a review decided now.
import type { Blockchain } from '../../src/contract/blockchains';
import { generateApiKey } from '../domain/api-keys';
import { AppError, notFound, unknownReference } from '../domain/errors';
import { accounts } from '../domain/ledger';
import type { Stablecoin } from '../domain/money';
import type { Deps } from '../deps';
import { sandboxRejectedDocument } from '../sandbox/review-provider';
import { type Db, inTransaction } from '../store/db';
import { type CustomerRow, getCustomer, lockCustomer } from '../store/queries/customers';
import { wakeWorkers } from '../store/queries/jobs';
import { accountBalances, postMovement } from '../store/queries/ledger';
import { advancePartnerClock } from '../store/queries/partner-clocks';
import { createPartner } from '../store/queries/partners';
import { latestVerification } from '../store/queries/verifications';
import { walletsOf } from '../store/queries/wallets';
import { applyDecision, type FlowDeps } from './verification';

/** A new partner with a sandbox API key, shown only this once. */
export async function createSandboxPartner(db: Db, name: string): Promise<{ partnerId: string; apiKey: string }> {
  const apiKey = generateApiKey('sandbox');
  const { partnerId } = await createPartner(db, name, apiKey);
  return { partnerId, apiKey };
}

/** Credits `value` to the customer's wallet on `blockchain` from the sandbox treasury; answers the wallet's new balance. */
export async function fundCustomerWallet(
  db: Db,
  deps: Pick<Deps, 'chains' | 'clock'>,
  partnerId: string,
  f: { customerId: string; blockchain: Blockchain; stablecoin: Stablecoin; value: string },
): Promise<string> {
  const customer = await getCustomer(db, partnerId, f.customerId);
  if (!customer) throw unknownReference('customerId', 'customer');
  const wallet = (await walletsOf(db, partnerId, [customer.id])).find((w) => w.blockchain === f.blockchain);
  if (!wallet) throw new AppError('INVALID_STATE', 'The customer has no wallets yet: wallets are provisioned when verification is APPROVED.');
  // A chain that settles on a node holds the real balances: a credit made up here would put the books beside the chain.
  if (deps.chains.get(f.blockchain)) throw new AppError('INVALID_STATE', `${f.blockchain} settles on-chain here: its balances come from the chain (an on-ramp pays them), never from a sandbox credit.`);
  await inTransaction(db, (tx) =>
    postMovement(
      tx,
      {
        partnerId,
        kind: 'sandbox.fund',
        reference: customer.id,
        entries: [
          { account: accounts.sandboxTreasury, blockchain: f.blockchain, asset: f.stablecoin, amount: `-${f.value}` },
          { account: accounts.customer(customer.id), blockchain: f.blockchain, asset: f.stablecoin, amount: f.value },
        ],
      },
      deps.clock.now(),
    ),
  );
  const balance = (await accountBalances(db, partnerId, accounts.customer(customer.id))).find((b) => b.blockchain === f.blockchain && b.asset === f.stablecoin);
  return balance?.balance ?? '0.000000';
}

/** Moves this partner's clock only (another partner's quotes and payment windows keep their own time); answers its new offset. */
export async function advanceSandboxClock(db: Db, partnerId: string, ms: number): Promise<number> {
  const offsetMs = await advancePartnerClock(db, partnerId, ms);
  wakeWorkers(); // jobs may be due now on this partner's clock
  return offsetMs;
}

/** Decides the review of a customer under verification now; a temporary rejection asks again for a sandbox document. */
export async function decideSandboxReview(db: Db, deps: FlowDeps, partnerId: string, id: string, outcome: 'APPROVED' | 'TEMPORARY_REJECTION' | 'FINAL_REJECTION'): Promise<CustomerRow> {
  return inTransaction(db, async (tx) => {
    const customer = await lockCustomer(tx, partnerId, id);
    if (!customer) throw notFound('Customer');
    const v = await latestVerification(tx, partnerId, id);
    if (customer.verificationStatus !== 'UNDER_VERIFICATION' || !v) {
      throw new AppError('INVALID_STATE', `Only a verification under review can be decided; this one is ${customer.verificationStatus}.`);
    }
    const type = sandboxRejectedDocument(customer.type);
    return applyDecision(tx, deps, customer, v,
      outcome === 'TEMPORARY_REJECTION'
        ? { outcome, statusReason: { rejectLabels: ['SANDBOX_REVIEW'], documents: [{ type, status: 'REJECTED', comment: 'Rejected in sandbox review.', rejectLabels: ['SANDBOX_REVIEW'] }] } }
        : { outcome },
    );
  });
}

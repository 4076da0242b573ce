// Verification as it moves: start (automatic for individuals, explicit for businesses), resume after corrections, decide. Each step is one transaction with its event.
import { TWO_SIDED_TYPES } from '../domain/requirements';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { AppError, notFound } from '../domain/errors';
import { assertMove, missingForBusiness, missingForIndividual, type VerificationStatus } from '../domain/verification';
import { presentCustomerEvent } from '../presenters';
import type { ReviewDecision, ReviewProvider } from '../sandbox/review-provider';
import { type Db, inTransaction } from '../store/db';
import { setPartiesStatus } from '../store/queries/associated-parties';
import { type CustomerRow, lockCustomer, updateCustomer } from '../store/queries/customers';
import { listDocuments, markDocuments } from '../store/queries/documents';
import { insertEvent } from '../store/queries/events';
import { enqueueJob } from '../store/queries/jobs';
import { getVerification, insertVerification, latestVerification, listVerifications, updateVerification, type VerificationRow } from '../store/queries/verifications';
import type { RateSource } from '../domain/rates/rate-source';
import { deriveWallets } from '../domain/wallets';
import { insertWallets } from '../store/queries/wallets';
import type { Tokens } from '../tokens';
import { newId } from '../ids';
import { findCustomer } from './customers';
import { loadKycSnapshots } from './kyc-state';

export interface FlowDeps {
  config: Config;
  clock: Clock;
  tokens: Tokens;
  reviews: ReviewProvider;
  rates: RateSource;
  walletSeed: string;
}

export const REVIEW_JOB = 'verification.review';

const eventOf: Partial<Record<VerificationStatus, string>> = {
  UNDER_VERIFICATION: 'customer.under_verification',
  APPROVED: 'customer.approved',
  TEMPORARY_REJECTION: 'customer.temporary_rejection',
  FINAL_REJECTION: 'customer.final_rejection',
};

async function moveCustomer(tx: Db, deps: FlowDeps, c: CustomerRow, to: VerificationStatus): Promise<CustomerRow> {
  assertMove(c.verificationStatus, to);
  const now = deps.clock.now();
  const row = await updateCustomer(tx, c.partnerId, c.id, { verificationStatus: to, updatedAt: now });
  if (to === 'APPROVED') {
    // One wallet per chain, in the same transaction as the approval: an approved customer always has somewhere to receive.
    const list = deriveWallets({ seedHex: deps.walletSeed, customerId: c.id, sandbox: deps.config.sandbox, defaultBlockchain: deps.config.RAMP_DEFAULT_BLOCKCHAIN });
    await insertWallets(tx, c.partnerId, c.id, list, now);
  }
  const eventType = eventOf[to];
  if (eventType) await insertEvent(tx, { partnerId: c.partnerId, customerId: c.id, eventType, data: await presentCustomerEvent(tx, deps, row) }, now);
  return row;
}

async function scheduleReview(tx: Db, deps: FlowDeps, c: CustomerRow, verificationId: string, resumed: boolean) {
  await enqueueJob(tx, {
    partnerId: c.partnerId,
    kind: REVIEW_JOB,
    payload: { customerId: c.id, verificationId, resumed },
    runAt: new Date(deps.clock.now().getTime() + deps.config.RAMP_SANDBOX_REVIEW_MS),
  });
}

/** What is still missing before review can start ([] when ready). Reads through `tx`, so the answer holds for the transaction. */
export async function missingForReview(tx: Db, c: CustomerRow): Promise<string[]> {
  const snap = (await loadKycSnapshots(tx, c.partnerId, [c])).get(c.id)!;
  return c.type === 'INDIVIDUAL' ? missingForIndividual(snap.kyc, { includeLiveness: true }) : missingForBusiness(snap.kyc, snap.parties);
}

/**
 * Starts review when the customer is NOT_STARTED and nothing is missing. Individuals get here automatically (after liveness,
 * or after the last document when liveness came first); businesses through POST /verifications, which passes `explicit`.
 */
export async function startVerification(tx: Db, deps: FlowDeps, c: CustomerRow, opts: { explicit: boolean }): Promise<VerificationRow | undefined> {
  if (c.verificationStatus !== 'NOT_STARTED') {
    if (opts.explicit) throw new AppError('INVALID_STATE', `Verification already ${c.verificationStatus}.`, { extra: { verificationStatus: c.verificationStatus } });
    return undefined;
  }
  const missing = await missingForReview(tx, c);
  if (missing.length > 0) {
    if (opts.explicit) throw new AppError('INVALID_STATE', `Verification cannot start: missing ${missing.join(', ')}.`, { extra: { missing } });
    return undefined;
  }
  const now = deps.clock.now();
  if (!deps.reviews.starts({ type: c.type, taxId: c.taxId })) {
    return insertVerification(tx, { id: newId(), partnerId: c.partnerId, customerId: c.id, status: 'NOT_STARTED', createdAt: now, updatedAt: now });
  }
  const v = await insertVerification(tx, {
    id: newId(),
    partnerId: c.partnerId,
    customerId: c.id,
    status: 'UNDER_VERIFICATION',
    createdAt: now,
    updatedAt: now,
  });
  const moved = await moveCustomer(tx, deps, c, 'UNDER_VERIFICATION');
  await setPartiesStatus(tx, c.partnerId, c.id, 'UNDER_VERIFICATION', now);
  await scheduleReview(tx, deps, moved, v.id, false);
  return v;
}

/** After TEMPORARY_REJECTION: once every rejected document has a newer upload, review resumes by itself. */
export async function resumeIfCorrected(tx: Db, deps: FlowDeps, c: CustomerRow): Promise<boolean> {
  if (c.verificationStatus !== 'TEMPORARY_REJECTION') return false;
  const docs = await listDocuments(tx, c.partnerId, c.id);
  const latestByType = new Map<string, (typeof docs)[number]>();
  // Per side for two-sided documents: a corrected front does not stand in for a rejected back.
  for (const d of [...docs].reverse()) latestByType.set(`${d.associatedPartyId ?? ''}:${d.type}:${TWO_SIDED_TYPES.includes(d.type) ? (d.side ?? '') : ''}`, d);
  if ([...latestByType.values()].some((d) => d.status === 'REJECTED')) return false;
  const v = await latestVerification(tx, c.partnerId, c.id);
  if (!v) return false;
  const now = deps.clock.now();
  await updateVerification(tx, v.id, { status: 'UNDER_VERIFICATION', updatedAt: now });
  const moved = await moveCustomer(tx, deps, c, 'UNDER_VERIFICATION');
  await scheduleReview(tx, deps, moved, v.id, true);
  return true;
}

/** Applies a review outcome to the customer, its verification, its documents and its parties. */
export async function applyDecision(tx: Db, deps: FlowDeps, c: CustomerRow, v: VerificationRow, decision: Exclude<ReviewDecision, { outcome: 'PENDING' }>) {
  const now = deps.clock.now();
  const docs = await listDocuments(tx, c.partnerId, c.id);
  const pending = docs.filter((d) => d.status === 'SENT');
  if (decision.outcome === 'TEMPORARY_REJECTION') {
    for (const r of decision.statusReason.documents) {
      // The newest upload of the named type is the one rejected; older ones were already superseded.
      const target = docs.find((d) => d.type === r.type && !d.associatedPartyId);
      if (target) await markDocuments(tx, c.partnerId, c.id, [target.id], { status: 'REJECTED', comment: r.comment, rejectLabels: r.rejectLabels }, now);
    }
  } else if (decision.outcome === 'APPROVED') {
    await markDocuments(tx, c.partnerId, c.id, pending.map((d) => d.id), { status: 'APPROVED' }, now);
  }
  await updateVerification(tx, v.id, {
    status: decision.outcome,
    statusReason: decision.outcome === 'APPROVED' ? null : (decision.statusReason ?? null),
    decidedAt: now,
    updatedAt: now,
  });
  await setPartiesStatus(tx, c.partnerId, c.id, decision.outcome, now);
  return moveCustomer(tx, deps, c, decision.outcome);
}

/** The review job: decides with the provider unless the customer moved on in the meantime. */
export async function runReview(tx: Db, deps: FlowDeps, job: { partnerId: string; payload: Record<string, unknown> }): Promise<void> {
  const customerId = String(job.payload.customerId);
  const c = await lockCustomer(tx, job.partnerId, customerId);
  if (!c || c.verificationStatus !== 'UNDER_VERIFICATION') return;
  const v = await latestVerification(tx, c.partnerId, c.id);
  if (!v || v.id !== job.payload.verificationId) return;
  const decision = deps.reviews.decide({ type: c.type, taxId: c.taxId, resumed: job.payload.resumed === true });
  if (decision.outcome === 'PENDING') return;
  await applyDecision(tx, deps, c, v, decision);
}

/** POST /verifications: a business asks for review itself; individuals start with liveness, and a final rejection is final. */
export async function requestVerification(db: Db, deps: FlowDeps, partnerId: string, customerId: string): Promise<VerificationRow> {
  return inTransaction(db, async (tx) => {
    const customer = await lockCustomer(tx, partnerId, customerId);
    if (!customer) throw notFound('Customer');
    if (customer.type !== 'BUSINESS') {
      throw new AppError('INVALID_STATE', 'Individuals start verification by completing the liveness check on their verification link.');
    }
    if (customer.verificationStatus === 'FINAL_REJECTION') throw new AppError('INVALID_STATE', 'This customer was finally rejected.');
    return (await startVerification(tx, deps, customer, { explicit: true }))!;
  });
}

/** The reviews of the partner's customer (404 for an unknown customer). */
export async function listCustomerVerifications(db: Db, partnerId: string, customerId: string): Promise<VerificationRow[]> {
  const customer = await findCustomer(db, partnerId, customerId);
  return listVerifications(db, customer.partnerId, customer.id);
}

/** One review of the partner's customer; anything else is 404. */
export async function readVerification(db: Db, partnerId: string, customerId: string, id: string): Promise<VerificationRow> {
  const v = await getVerification(db, partnerId, customerId, id);
  if (!v) throw notFound('Verification');
  return v;
}

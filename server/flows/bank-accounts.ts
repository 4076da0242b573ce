// Bank accounts as they move: creation with the holder under verification, and the (sandbox) holder review that approves or rejects it.
import type { CreateBankAccount } from '../../src/contract/bank-accounts';
import { checkBirthDate, checkPastDate, checkTaxId, fieldErrorCode, fieldErrorMessages } from '../../src/contract/customer-rules';
import { isAlpha3Country } from '../../src/contract/countries';
import { normalizeTaxId } from '../../src/contract/tax-id';
import { type AccountRail, checkIdentifier, checkSelfHolder, currencyOfRail } from '../domain/bank-accounts';
import { type FieldIssue, invalid, notFound, unknownReference } from '../domain/errors';
import { assertWritable } from '../domain/verification';
import type { Deps } from '../deps';
import { newId } from '../ids';
import { presentBankAccount } from '../presenters';
import { type Db, inTransaction } from '../store/db';
import { type BankAccountRow, getBankAccount, insertBankAccount, listBankAccounts, lockBankAccount, updateBankAccount } from '../store/queries/bank-accounts';
import { lockCustomer } from '../store/queries/customers';
import { insertEvent } from '../store/queries/events';
import { enqueueJob } from '../store/queries/jobs';

export const BANK_REVIEW_JOB = 'bank_account.review';

/** A page of the partner's bank accounts, newest first (of one customer when asked). */
export const listPartnerBankAccounts = (db: Db, partnerId: string, customerId: string | undefined, pageQuery: Parameters<typeof listBankAccounts>[3]) =>
  listBankAccounts(db, partnerId, { customerId }, pageQuery);

/** The partner's bank account; another partner's, a deleted or an unknown one is 404. */
export async function readBankAccount(db: Db, partnerId: string, id: string): Promise<BankAccountRow> {
  const row = await getBankAccount(db, partnerId, id);
  if (!row) throw notFound('Bank account');
  return row;
}

/** Deletes the partner's bank account: reads answer 404 from then on; what was paid to it keeps its record. */
export async function deleteBankAccount(db: Db, deps: Pick<Deps, 'clock'>, partnerId: string, id: string): Promise<void> {
  const row = await readBankAccount(db, partnerId, id);
  await updateBankAccount(db, row.id, { deletedAt: deps.clock.now(), updatedAt: deps.clock.now() });
}

type BankDeps = Pick<Deps, 'clock' | 'config'>;

/** Adds to `issues` what the rules find on a new account; answers the identifier as the rail keeps it. */
function collectIssues(body: CreateBankAccount, now: Date, issues: FieldIssue[]) {
  const rail = body.rail as AccountRail;
  if (body.currency !== currencyOfRail[rail]) issues.push({ path: 'currency', message: `must be ${currencyOfRail[rail]} for ${rail}`, code: 'CONFLICTING_FIELDS' });
  const identifier = checkIdentifier(rail, body.identifier as Record<string, string>, issues);
  const h = body.holder;
  if (h.type === 'INDIVIDUAL' && !h.name) issues.push({ path: 'holder.name', message: 'is required for an individual holder', code: 'REQUIRED' });
  if (h.type === 'BUSINESS' && !h.legalName) issues.push({ path: 'holder.legalName', message: 'is required for a business holder', code: 'REQUIRED' });
  if (!isAlpha3Country(h.address.country)) issues.push({ path: 'holder.address.country', message: 'must be an ISO 3166-1 alpha-3 code such as BRA', code: 'INVALID_COUNTRY' });
  // A counterparty's tax id is judged by the country of the holder's address. A SELF holder's tax id is the customer's
  // own, already judged by the customer's country when the customer was created (a German living in São Paulo keeps
  // their German id): it is compared with the customer's below instead.
  if (h.relationship !== 'SELF') {
    const taxIssue = checkTaxId(h.taxId, h.type, isAlpha3Country(h.address.country) ? h.address.country : undefined);
    if (taxIssue) issues.push({ path: 'holder.taxId', message: fieldErrorMessages[taxIssue], code: fieldErrorCode[taxIssue] });
  }
  if (h.birthDate) {
    const e = checkBirthDate(h.birthDate, now);
    if (e) issues.push({ path: 'holder.birthDate', message: fieldErrorMessages[e], code: fieldErrorCode[e] });
  }
  if (h.incorporationDate) {
    const e = checkPastDate(h.incorporationDate, now);
    if (e) issues.push({ path: 'holder.incorporationDate', message: fieldErrorMessages[e], code: fieldErrorCode[e] });
  }
  return identifier;
}

/**
 * The rules on a new account beyond its shape, on any input: a body whose shape was refused is checked as far as its
 * rail, identifier and holder can be read, so that one answer names every bad field.
 */
export function newBankAccountIssues(input: unknown, now: Date): FieldIssue[] {
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!obj(input) || typeof input.rail !== 'string' || !(input.rail in currencyOfRail) || !obj(input.identifier) || !obj(input.holder)) return [];
  const holder = input.holder;
  if (!obj(holder.address) || !Object.values(input.identifier).every((v) => typeof v === 'string')) return [];
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const issues: FieldIssue[] = [];
  collectIssues({ ...input, holder: { ...holder, taxId: text(holder.taxId) ?? '', birthDate: text(holder.birthDate), incorporationDate: text(holder.incorporationDate), address: { ...holder.address, country: text(holder.address.country) ?? '' } } } as CreateBankAccount, now, issues);
  return issues;
}

export async function createBankAccount(db: Db, deps: BankDeps, partnerId: string, body: CreateBankAccount): Promise<BankAccountRow> {
  const issues: FieldIssue[] = [];
  const now = deps.clock.now();
  const identifier = collectIssues(body, now, issues);
  if (issues.length) throw invalid(issues);
  const h = body.holder;
  const rail = body.rail as AccountRail;
  return inTransaction(db, async (tx) => {
    const customer = await lockCustomer(tx, partnerId, body.customerId);
    if (!customer) throw unknownReference('customerId', 'customer');
    assertWritable(customer.verificationStatus);
    const selfIssues = checkSelfHolder(h, customer);
    if (selfIssues.length) throw invalid(selfIssues);
    const row = await insertBankAccount(tx, {
      id: newId(),
      partnerId,
      customerId: customer.id,
      name: body.name,
      rail,
      currency: body.currency,
      identifier,
      holder: { ...h, taxId: normalizeTaxId(h.taxId) },
      holderStatus: 'UNDER_VERIFICATION',
      createdAt: now,
      updatedAt: now,
    });
    await insertEvent(tx, { partnerId, customerId: customer.id, eventType: 'bank_account.under_verification', data: presentBankAccount(row) }, now);
    if (deps.config.sandbox) {
      await enqueueJob(tx, { partnerId, kind: BANK_REVIEW_JOB, payload: { bankAccountId: row.id }, runAt: new Date(now.getTime() + deps.config.RAMP_SANDBOX_BANK_ACCOUNT_MS) });
    }
    return row;
  });
}

/** Job (sandbox): a holder whose taxId ends in 3 is rejected, any other approved. */
export async function reviewBankAccountJob(tx: Db, deps: BankDeps, job: { partnerId: string; payload: Record<string, unknown> }): Promise<void> {
  const row = await lockBankAccount(tx, job.partnerId, String(job.payload.bankAccountId));
  if (!row || row.holderStatus !== 'UNDER_VERIFICATION') return;
  const taxId = String((row.holder as { taxId?: string }).taxId ?? '');
  const status = taxId.endsWith('3') ? 'FINAL_REJECTION' : 'APPROVED';
  const now = deps.clock.now();
  const updated = (await updateBankAccount(tx, row.id, { holderStatus: status, updatedAt: now }))!;
  await insertEvent(tx, { partnerId: row.partnerId, customerId: row.customerId, eventType: `bank_account.${status.toLowerCase()}`, data: presentBankAccount(updated) }, now);
}

// Associated parties of a business as they change: added, corrected and removed while verification has not started,
// each change one transaction with the customer row locked.
import { Decimal } from 'decimal.js';
import { checkBirthDate, checkPastDate, checkTaxId, fieldErrorCode, fieldErrorMessages } from '../../src/contract/customer-rules';
import { isAlpha3Country } from '../../src/contract/countries';
import type { CreateAssociatedParty, UpdateAssociatedParty } from '../../src/contract/kyc';
import { normalizeTaxId } from '../../src/contract/tax-id';
import type { Clock } from '../clock';
import { checkParty } from '../domain/associated-parties';
import { AppError, type FieldIssue, invalid, notFound } from '../domain/errors';
import { assertWritable } from '../domain/verification';
import { newId } from '../ids';
import { type Db, inTransaction } from '../store/db';
import { deleteParty, insertParty, listParties, type PartyRow, updateParty } from '../store/queries/associated-parties';
import { type CustomerRow, lockCustomer, updateCustomer } from '../store/queries/customers';
import { type DocumentRow, listDocuments } from '../store/queries/documents';

interface PartyDeps {
  db: Db;
  clock: Clock;
}

/** The customer, locked, when its parties may change: a business not under verification. */
async function editableCustomer(tx: Db, partnerId: string, id: string, action: string): Promise<CustomerRow> {
  const customer = await lockCustomer(tx, partnerId, id);
  if (!customer) throw notFound('Customer');
  assertWritable(customer.verificationStatus);
  if (customer.type !== 'BUSINESS') throw new AppError('INVALID_STATE', 'Associated parties belong to business customers only.');
  if (customer.verificationStatus !== 'NOT_STARTED' && customer.verificationStatus !== 'TEMPORARY_REJECTION') {
    throw new AppError('INVALID_STATE', `Parties can be ${action} while NOT_STARTED or TEMPORARY_REJECTION, not ${customer.verificationStatus}.`);
  }
  return customer;
}

/** Every rule a party must meet, against the customer's other parties (`self` excluded when correcting one). */
function partyIssues(body: CreateAssociatedParty, parties: PartyRow[], now: Date, self?: string): FieldIssue[] {
  const others = parties.filter((p) => p.id !== self);
  const parent = body.parentId ? others.find((p) => p.id === body.parentId) : undefined;
  const siblings = others.filter((p) => (p.parentId ?? undefined) === body.parentId && p.roles.includes('SHAREHOLDER') && p.ownershipPercentage);
  const issues: FieldIssue[] = checkParty(body, parent, siblings.map((p) => p.ownershipPercentage!));
  const country = body.address.country;
  if (!isAlpha3Country(country)) issues.push({ path: 'address.country', message: 'must be an ISO 3166-1 alpha-3 code such as BRA', code: 'INVALID_COUNTRY' });
  const taxIssue = checkTaxId(body.taxId, body.type, isAlpha3Country(country) ? country : undefined);
  if (taxIssue) issues.push({ path: 'taxId', message: fieldErrorMessages[taxIssue], code: fieldErrorCode[taxIssue] });
  const dateIssue = body.type === 'INDIVIDUAL' ? body.birthDate && checkBirthDate(body.birthDate, now) : body.incorporationDate && checkPastDate(body.incorporationDate, now);
  if (dateIssue) issues.push({ path: body.type === 'INDIVIDUAL' ? 'birthDate' : 'incorporationDate', message: fieldErrorMessages[dateIssue], code: fieldErrorCode[dateIssue] });
  return issues;
}

/** A stored party as the body that would create it, to check a correction as a whole. */
function asBody(p: PartyRow): CreateAssociatedParty {
  return {
    type: p.type,
    roles: p.roles,
    ...(p.ownershipPercentage !== null ? { ownershipPercentage: p.ownershipPercentage } : {}),
    ...(p.parentId ? { parentId: p.parentId } : {}),
    ...(p.name !== null ? { name: p.name } : {}),
    ...(p.legalName !== null ? { legalName: p.legalName } : {}),
    taxId: p.taxId,
    ...(p.birthDate !== null ? { birthDate: p.birthDate } : {}),
    ...(p.incorporationDate !== null ? { incorporationDate: p.incorporationDate } : {}),
    email: p.email,
    address: p.address,
  };
}

/** The fields a party's row stores, from a checked body. */
function storedFields(body: CreateAssociatedParty) {
  return {
    roles: body.roles,
    ownershipPercentage: body.ownershipPercentage === undefined ? null : new Decimal(String(body.ownershipPercentage)).toFixed(2),
    name: body.type === 'INDIVIDUAL' ? body.name! : null,
    legalName: body.type === 'BUSINESS' ? body.legalName! : null,
    taxId: normalizeTaxId(body.taxId),
    birthDate: body.type === 'INDIVIDUAL' ? body.birthDate! : null,
    incorporationDate: body.type === 'BUSINESS' ? body.incorporationDate! : null,
    email: body.email,
    address: body.address,
  };
}

export async function addParty(deps: PartyDeps, partnerId: string, customerId: string, body: CreateAssociatedParty): Promise<PartyRow> {
  return inTransaction(deps.db, async (tx) => {
    await editableCustomer(tx, partnerId, customerId, 'added');
    const now = deps.clock.now();
    const issues = partyIssues(body, await listParties(tx, partnerId, customerId), now);
    if (issues.length) throw invalid(issues);
    const row = await insertParty(tx, {
      id: newId(),
      partnerId,
      customerId,
      parentId: body.parentId ?? null,
      type: body.type,
      ...storedFields(body),
      createdAt: now,
      updatedAt: now,
    });
    await updateCustomer(tx, partnerId, customerId, { updatedAt: now });
    return row;
  });
}

export async function correctParty(
  deps: PartyDeps,
  partnerId: string,
  customerId: string,
  partyId: string,
  patch: UpdateAssociatedParty,
): Promise<{ party: PartyRow; documents: DocumentRow[] }> {
  return inTransaction(deps.db, async (tx) => {
    await editableCustomer(tx, partnerId, customerId, 'corrected');
    const parties = await listParties(tx, partnerId, customerId);
    const current = parties.find((p) => p.id === partyId);
    if (!current) throw notFound('Associated party');
    const body: CreateAssociatedParty = { ...asBody(current), ...patch };
    const now = deps.clock.now();
    const issues = partyIssues(body, parties, now, partyId);
    if (issues.length) throw invalid(issues);
    const party = await updateParty(tx, partnerId, partyId, { ...storedFields(body), updatedAt: now });
    await updateCustomer(tx, partnerId, customerId, { updatedAt: now });
    return { party, documents: await listDocuments(tx, partnerId, customerId) };
  });
}

export async function removeParty(deps: PartyDeps, partnerId: string, customerId: string, partyId: string): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    await editableCustomer(tx, partnerId, customerId, 'removed');
    const parties = await listParties(tx, partnerId, customerId);
    if (!parties.some((p) => p.id === partyId)) throw notFound('Associated party');
    if (parties.some((p) => p.parentId === partyId)) throw new AppError('CONFLICT', 'Remove the shareholders nested under this party first.');
    await deleteParty(tx, partnerId, partyId);
    await updateCustomer(tx, partnerId, customerId, { updatedAt: deps.clock.now() });
  });
}

export async function partiesOf(db: Db, customer: CustomerRow): Promise<{ parties: PartyRow[]; documents: DocumentRow[] }> {
  return { parties: await listParties(db, customer.partnerId, customer.id), documents: await listDocuments(db, customer.partnerId, customer.id) };
}

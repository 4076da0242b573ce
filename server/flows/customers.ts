// Customers as the partner's API sees them: created (with their customer.created event), listed, found, and given their
// additional information.
import type { CreateCustomerRequest, Customer } from '../../src/contract/customers';
import { checkNewCustomer, DEFAULT_TAX_COUNTRY, fieldErrorCode, fieldErrorMessages } from '../../src/contract/customer-rules';
import type { AdditionalInformation } from '../../src/contract/kyc';
import { normalizeTaxId } from '../../src/contract/tax-id';
import { AppError, type FieldIssue, invalid, notFound, unknownReference } from '../domain/errors';
import { assertAdditionalInformationAllowed } from '../domain/verification';
import type { Deps } from '../deps';
import { newId } from '../ids';
import { presentCustomer, presentCustomerEvent, presentCustomers } from '../presenters';
import { type Db, inTransaction } from '../store/db';
import { type CustomerRow, getCustomer, getCustomerByExternalUserId, insertCustomer, listCustomers, lockCustomer, updateCustomer } from '../store/queries/customers';
import { insertEvent } from '../store/queries/events';

export type { CustomerRow };

type CustomerDeps = Pick<Deps, 'tokens' | 'config' | 'clock' | 'rates'>;

/** The partner's customer; another partner's or an unknown one is 404. */
export async function findCustomer(db: Db, partnerId: string, id: string): Promise<CustomerRow> {
  const row = await getCustomer(db, partnerId, id);
  if (!row) throw notFound('Customer');
  return row;
}

/** The partner's customer, or undefined (a link whose customer is gone, a check that answers its own problem). */
export const customerIfAny = (db: Db, partnerId: string, id: string): Promise<CustomerRow | undefined> => getCustomer(db, partnerId, id);

/** A `customerId` in a request body names one of the partner's customers, or the request is refused (400). */
export async function assertCustomerReference(db: Db, partnerId: string, customerId: string): Promise<void> {
  if (!(await getCustomer(db, partnerId, customerId))) throw unknownReference('customerId', 'customer');
}

/** The partner's customer for its user `externalUserId`, or undefined; another partner's is never found. */
export const customerOfUser = (db: Db, partnerId: string, externalUserId: string): Promise<CustomerRow | undefined> =>
  getCustomerByExternalUserId(db, partnerId, externalUserId);

/** The rules on a new customer's fields, as field issues; on any input, so a refused body's answer names them too. */
export function newCustomerIssues(input: unknown, now: Date): FieldIssue[] {
  if (!input || typeof input !== 'object') return [];
  const body = input as Record<string, unknown>;
  const type = body.type === 'INDIVIDUAL' ? 'INDIVIDUAL' : body.type === 'BUSINESS' ? 'BUSINESS' : undefined;
  if (!type) return [];
  const text = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : undefined);
  const fields: Parameters<typeof checkNewCustomer>[0] = { type, name: text('name'), legalName: text('legalName'), taxId: text('taxId'), birthDate: text('birthDate'), incorporationDate: text('incorporationDate'), country: text('country'), email: text('email') };
  return Object.entries(checkNewCustomer(fields, now)).map(([path, key]) => ({ path, message: fieldErrorMessages[key], code: fieldErrorCode[key] }));
}

/**
 * Creates a customer and its customer.created event in one transaction; the same taxId, or externalUserId, twice for a
 * partner is 409 naming the field and the existing customer.
 */
export async function createCustomer(db: Db, deps: CustomerDeps, partnerId: string, body: CreateCustomerRequest): Promise<Customer> {
  const now = deps.clock.now();
  const bad = newCustomerIssues(body, now);
  if (bad.length) throw invalid(bad);
  return inTransaction(db, async (tx) => {
    const result = await insertCustomer(tx, {
      id: newId(),
      partnerId,
      type: body.type,
      name: body.type === 'INDIVIDUAL' ? body.name : null,
      legalName: body.type === 'BUSINESS' ? body.legalName : null,
      taxId: normalizeTaxId(body.taxId),
      birthDate: body.type === 'INDIVIDUAL' ? body.birthDate : null,
      incorporationDate: body.type === 'BUSINESS' ? body.incorporationDate : null,
      // An individual without a country was checked as Brazilian (a CPF): the record says so.
      country: body.country ?? (body.type === 'INDIVIDUAL' ? DEFAULT_TAX_COUNTRY : null),
      email: body.email ?? null,
      externalUserId: body.externalUserId ?? null,
      metadata: body.metadata ?? {},
      createdAt: now,
      updatedAt: now,
    });
    if ('existingId' in result) {
      throw new AppError('CONFLICT', `A customer with this ${result.taken} already exists: ${result.existingId}.`, {
        errors: [{ path: result.taken, message: `already belongs to customer ${result.existingId}`, code: 'NOT_UNIQUE' }],
        extra: { existingCustomerId: result.existingId },
      });
    }
    await insertEvent(tx, { partnerId, customerId: result.row.id, eventType: 'customer.created', data: await presentCustomerEvent(tx, deps, result.row) }, now);
    return presentCustomer(tx, deps, result.row);
  });
}


/** A page of the partner's customers, newest first, presented; a taxId filter matches however it was typed. */
export async function listPartnerCustomers(db: Db, deps: CustomerDeps, partnerId: string, filter: Parameters<typeof listCustomers>[2], pageQuery: Parameters<typeof listCustomers>[3]) {
  const page = await listCustomers(db, partnerId, { ...filter, taxId: filter.taxId ? normalizeTaxId(filter.taxId) : undefined }, pageQuery);
  return { data: await presentCustomers(db, deps, page.data), pagination: page.pagination };
}

/** Records the questionnaire while the verification allows it; the record must be of the customer's own type. */
export async function setAdditionalInformation(db: Db, deps: CustomerDeps, partnerId: string, id: string, info: AdditionalInformation): Promise<Customer> {
  return inTransaction(db, async (tx) => {
    const row = await lockCustomer(tx, partnerId, id);
    if (!row) throw notFound('Customer');
    assertAdditionalInformationAllowed(row.verificationStatus);
    if (row.type !== info.type) {
      throw new AppError('VALIDATION_FAILED', `This customer is ${row.type}; send the ${row.type} record.`, { errors: [{ path: 'type', message: `must be ${row.type}`, code: 'CONFLICTING_FIELDS' }] });
    }
    const updated = await updateCustomer(tx, partnerId, id, { additionalInformation: info, updatedAt: deps.clock.now() });
    return presentCustomer(tx, deps, updated);
  });
}

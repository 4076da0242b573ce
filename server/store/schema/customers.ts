// Customers: individuals and businesses, with their verification state and the additional information they sent.
import { isNotNull } from 'drizzle-orm';
import { date, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId, updatedAt } from './columns';

export const customers = pgTable(
  'customers',
  {
    id: id(),
    partnerId: partnerId(),
    type: text('type', { enum: ['INDIVIDUAL', 'BUSINESS'] }).notNull(),
    name: text('name'),
    legalName: text('legal_name'),
    /** Normalised: digits (and the letters of an alphanumeric CNPJ), no punctuation. */
    taxId: text('tax_id').notNull(),
    birthDate: date('birth_date', { mode: 'string' }),
    incorporationDate: date('incorporation_date', { mode: 'string' }),
    country: text('country'),
    email: text('email'),
    /** The partner's own id for its user: widget sessions minted with it are bound to this customer. */
    externalUserId: text('external_user_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    verificationStatus: text('verification_status', {
      enum: ['NOT_STARTED', 'UNDER_VERIFICATION', 'APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'],
    })
      .notNull()
      .default('NOT_STARTED'),
    additionalInformation: jsonb('additional_information').$type<Record<string, unknown>>(),
    /** When the liveness check (selfie on the hosted page) completed. */
    livenessCompletedAt: timestamp('liveness_completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('customers_partner_tax_id_uq').on(t.partnerId, t.taxId),
    // One customer per partner user: two first sessions of one user racing to onboard make one customer.
    uniqueIndex('customers_partner_external_user_uq').on(t.partnerId, t.externalUserId).where(isNotNull(t.externalUserId)),
    index('customers_partner_id_idx').on(t.partnerId, t.id),
    index('customers_partner_email_idx').on(t.partnerId, t.email),
    // The list filters (newest first within a status or type), so `?status=` does not scan the partner's customers.
    index('customers_partner_status_idx').on(t.partnerId, t.verificationStatus, t.id),
    index('customers_partner_type_idx').on(t.partnerId, t.type, t.id),
  ],
);

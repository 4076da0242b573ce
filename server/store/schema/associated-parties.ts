// Associated parties of a business customer: UBOs, shareholders (nested through parentId) and representatives.
import { date, index, jsonb, numeric, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId, updatedAt } from './columns';

export interface PartyAddress {
  line1: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

export const associatedParties = pgTable(
  'associated_parties',
  {
    id: id(),
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    parentId: uuid('parent_id'),
    type: text('type', { enum: ['INDIVIDUAL', 'BUSINESS'] }).notNull(),
    roles: jsonb('roles').$type<('UBO' | 'SHAREHOLDER' | 'REPRESENTATIVE')[]>().notNull(),
    ownershipPercentage: numeric('ownership_percentage', { precision: 5, scale: 2 }),
    name: text('name'),
    legalName: text('legal_name'),
    taxId: text('tax_id').notNull(),
    birthDate: date('birth_date', { mode: 'string' }),
    incorporationDate: date('incorporation_date', { mode: 'string' }),
    email: text('email').notNull(),
    address: jsonb('address').$type<PartyAddress>().notNull(),
    verificationStatus: text('verification_status', {
      enum: ['NOT_STARTED', 'UNDER_VERIFICATION', 'APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'],
    })
      .notNull()
      .default('NOT_STARTED'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('associated_parties_customer_idx').on(t.partnerId, t.customerId, t.id)],
);

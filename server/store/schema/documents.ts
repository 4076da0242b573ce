// Documents: one uploaded file each, for a customer or one of its associated parties; the bytes live in the file store, named by hash.
import { bigint, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId, updatedAt } from './columns';

export const documents = pgTable(
  'documents',
  {
    id: id(),
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    associatedPartyId: uuid('associated_party_id'),
    type: text('type').notNull(),
    side: text('side', { enum: ['FRONT_SIDE', 'BACK_SIDE'] }),
    country: text('country'),
    status: text('status', { enum: ['SENT', 'APPROVED', 'REJECTED'] }).notNull().default('SENT'),
    comment: text('comment'),
    rejectLabels: jsonb('reject_labels').$type<string[]>(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('documents_customer_idx').on(t.partnerId, t.customerId, t.id), index('documents_sha256_idx').on(t.sha256)],
);

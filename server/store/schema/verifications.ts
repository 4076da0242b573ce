// Verifications: one row per review of a customer (a re-upload after TEMPORARY_REJECTION resumes the same one).
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, partnerId, updatedAt } from './columns';

export interface StatusReason {
  rejectLabels: string[];
  documents: { type: string; status: 'REJECTED'; comment: string; rejectLabels: string[] }[];
}

export const verifications = pgTable(
  'verifications',
  {
    id: id(),
    partnerId: partnerId(),
    customerId: uuid('customer_id').notNull(),
    status: text('status', {
      enum: ['NOT_STARTED', 'UNDER_VERIFICATION', 'APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'],
    }).notNull(),
    statusReason: jsonb('status_reason').$type<StatusReason>(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verifications_customer_idx').on(t.partnerId, t.customerId, t.id)],
);

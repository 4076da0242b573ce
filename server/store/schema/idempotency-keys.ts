// Idempotency keys: the first request with a key claims it; its response is stored and replayed for 24 h, then cleaned up.
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, partnerId } from './columns';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    partnerId: partnerId(),
    key: text('key').notNull(),
    /** sha256 of method, path and body: the same key with another request is a conflict. */
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['IN_PROGRESS', 'COMPLETE'] }).notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /** Encrypted (`enc:v1:`, see SealedBox in tokens.ts): answers carry secrets. Plain in rows written before that. */
    responseBody: text('response_body'),
    createdAt: createdAt(),
    lockedAt: timestamp('locked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

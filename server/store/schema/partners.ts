// Partners: the tenants. Every other row carries a partner id, so data can shard by partner later.
import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

export const partners = pgTable('partners', {
  id: id(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

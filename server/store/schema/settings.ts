// Instance settings shared by every process on one database (a generated session secret, say).
import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

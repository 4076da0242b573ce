// Column helpers every table shares: UUIDv7 ids (time-ordered, so newest first is ORDER BY id DESC) and UTC timestamps.
import { timestamp, uuid } from 'drizzle-orm/pg-core';

export const id = () => uuid('id').primaryKey();
export const partnerId = () => uuid('partner_id').notNull();
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

// Instance settings shared through the database: the first process to start decides, every other one reads.
import { eq } from 'drizzle-orm';
import type { Db } from '../db';
import { settings } from '../schema/index';

export async function getOrInitSetting(db: Db, key: string, init: () => string): Promise<string> {
  await db.insert(settings).values({ key, value: init() }).onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row!.value;
}

/** A setting as stored, without making one (the ops CLI reads; only the server decides). */
export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value;
}

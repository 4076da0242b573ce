// Partners and their API keys.
import { and, eq, isNull } from 'drizzle-orm';
import { displayPrefix, hashApiKey } from '../../domain/api-keys';
import { newId } from '../../ids';
import { type Db, inTransaction } from '../db';
import { apiKeys, partners } from '../schema/index';

/** The partner an API key belongs to, when the key exists and is not revoked. The lookup is by hash, so timing reveals nothing of the key. */
export async function partnerIdForKey(db: Db, key: string): Promise<string | undefined> {
  const [row] = await db
    .select({ partnerId: apiKeys.partnerId })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row?.partnerId;
}

export async function createPartner(db: Db, name: string, key: string): Promise<{ partnerId: string }> {
  return inTransaction(db, async (tx) => {
    const partnerId = newId();
    await tx.insert(partners).values({ id: partnerId, name });
    await tx.insert(apiKeys).values({ id: newId(), partnerId, keyHash: hashApiKey(key), displayPrefix: displayPrefix(key) });
    return { partnerId };
  });
}

/** Makes sure `key` belongs to a partner (the one this instance serves), creating both on first start. */
export async function ensurePartnerForKey(db: Db, key: string, name: string): Promise<{ partnerId: string; created: boolean }> {
  const existing = await partnerIdForKey(db, key);
  if (existing) return { partnerId: existing, created: false };
  try {
    return { ...(await createPartner(db, name, key)), created: true };
  } catch (err) {
    // Another process bootstrapping the same key at the same moment won the unique index.
    const raced = await partnerIdForKey(db, key);
    if (raced) return { partnerId: raced, created: false };
    throw err;
  }
}

export async function getPartner(db: Db, partnerId: string): Promise<{ id: string; name: string; createdAt: Date } | undefined> {
  const [row] = await db.select().from(partners).where(eq(partners.id, partnerId)).limit(1);
  return row;
}

// The API key → partner cache: a hit costs no query; a revoked key stops working when its entry expires or is evicted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { generateApiKey, hashApiKey } from '../../server/domain/api-keys';
import { ApiKeyCache } from '../../server/http/auth';
import type { Store } from '../../server/store/db';
import { createPartner } from '../../server/store/queries/partners';
import { apiKeys } from '../../server/store/schema/index';
import { openTestStore } from './harness';

describe('API key cache', () => {
  let store: Store;
  let drop: () => Promise<void>;
  before(async () => ({ store, drop } = await openTestStore()));
  after(() => drop());

  test('remembers a key for its TTL; a revocation shows once the entry expires or is evicted', async () => {
    const key = generateApiKey('sandbox');
    const { partnerId } = await createPartner(store.db, 'Cached', key);
    let now = 1_000_000;
    const cache = new ApiKeyCache(30_000, 100, () => now);
    assert.equal(await cache.partnerFor(store.db, key), partnerId);
    await store.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.keyHash, hashApiKey(key)));
    assert.equal(await cache.partnerFor(store.db, key), partnerId, 'within the TTL the cached partner answers');
    now += 30_001;
    assert.equal(await cache.partnerFor(store.db, key), undefined, 'after the TTL the revocation is seen');

    await store.db.update(apiKeys).set({ revokedAt: null }).where(eq(apiKeys.keyHash, hashApiKey(key)));
    assert.equal(await cache.partnerFor(store.db, key), partnerId);
    await store.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.keyHash, hashApiKey(key)));
    cache.evict({ partnerId });
    assert.equal(await cache.partnerFor(store.db, key), undefined, 'eviction (rotation, revocation) takes effect at once');
  });

  test('an unknown key is not remembered: a key created afterwards works at once', async () => {
    const cache = new ApiKeyCache();
    const key = generateApiKey('sandbox');
    assert.equal(await cache.partnerFor(store.db, key), undefined);
    const { partnerId } = await createPartner(store.db, 'Late', key);
    assert.equal(await cache.partnerFor(store.db, key), partnerId);
  });
});

// Identifiers (server/ids.ts): UUIDv7 from one generator over a pooled CSPRNG.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isUuid, newId, newRequestId } from '../../server/ids';

test('ids are UUIDv7, unique and increasing, across many refills of the random pool', () => {
  const ids = Array.from({ length: 10_000 }, newId);
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.every((id, i) => i === 0 || id > ids[i - 1]!), 'each id sorts after the one before');
  // The random tail (the last 8 bytes past the counter) is not the same few values over and over.
  assert.ok(new Set(ids.map((id) => id.slice(-12))).size > 9_900);
  assert.ok(ids.every(isUuid));
});

test('request ids are req_ and 32 hex digits', () => {
  const a = newRequestId();
  assert.match(a, /^req_[0-9a-f]{32}$/);
  assert.notEqual(a, newRequestId());
});

// A test file with one failing test: the run must report it and end with a non-zero status.
import assert from 'node:assert/strict';
import { test } from 'node:test';

test('a deliberately failing test', () => {
  assert.equal(1 + 1, 3);
});

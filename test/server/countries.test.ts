// The packed country-code table the browser ships is exactly i18n-iso-countries' ISO 3166-1 list.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { alpha3ToAlpha2, isAlpha3Country } from '../../src/contract/countries';

const codes = createRequire(import.meta.url)('i18n-iso-countries/codes.json') as [string, string, string, string][];

test('every ISO 3166-1 country, alpha-3 to alpha-2, and nothing else', () => {
  assert.deepEqual(new Map(codes.map(([a2, a3]) => [a3, a2])), alpha3ToAlpha2);
  assert.equal(isAlpha3Country('BRA'), true);
  assert.equal(isAlpha3Country('BR'), false);
  assert.equal(isAlpha3Country('XXX'), false);
});

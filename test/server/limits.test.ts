// What a customer read shows of its transaction limits: the max, what is used and what remains, per window, as strings
// with two decimals. Nothing used is the common case and skips decimal.js; the answers must be the same either way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultLimits, transactionLimits } from '../../server/domain/limits';

const individual = defaultLimits.INDIVIDUAL;

test('nothing used (the database answers 0 or 0.00): every limit remains whole', () => {
  for (const zero of ['0', '0.00', '0.0']) {
    assert.deepEqual(transactionLimits(individual, { daily: zero, monthly: zero }), {
      single: { max: '1000.00' },
      daily: { max: '2000.00', used: '0.00', remaining: '2000.00' },
      monthly: { max: '5000.00', used: '0.00', remaining: '5000.00' },
    });
  }
});

test('something used: what remains is the difference, never below zero, always two decimals', () => {
  assert.deepEqual(transactionLimits(individual, { daily: '150.5', monthly: '4999.99' }), {
    single: { max: '1000.00' },
    daily: { max: '2000.00', used: '150.50', remaining: '1849.50' },
    monthly: { max: '5000.00', used: '4999.99', remaining: '0.01' },
  });
  // Under a unit: starts with 0 but is not nothing.
  assert.deepEqual(transactionLimits(individual, { daily: '0.50', monthly: '0.05' }).daily, { max: '2000.00', used: '0.50', remaining: '1999.50' });
  assert.deepEqual(transactionLimits(individual, { daily: '0.50', monthly: '0.05' }).monthly, { max: '5000.00', used: '0.05', remaining: '4999.95' });
  const over = transactionLimits(individual, { daily: '2500.00', monthly: '2500.00' });
  assert.equal(over.daily.remaining, '0.00');
  assert.equal(over.monthly.remaining, '2500.00');
});

test('a limit not written with two decimals is still shown with two, whether or not anything is used', () => {
  const limits = { single: '10.00', daily: '2000', monthly: '5000.5' };
  const none = transactionLimits(limits, { daily: '0', monthly: '0' });
  assert.deepEqual(none.daily, { max: '2000', used: '0.00', remaining: '2000.00' });
  assert.deepEqual(none.monthly, { max: '5000.5', used: '0.00', remaining: '5000.50' });
  // A usage that only looks like zero at first sight goes the long way, and comes out the same.
  assert.deepEqual(transactionLimits(individual, { daily: '0.001', monthly: '00' }).daily, { max: '2000.00', used: '0.00', remaining: '2000.00' });
});

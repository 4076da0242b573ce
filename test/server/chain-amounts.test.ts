// Token amounts ⇄ base units (server/domain/chain/amounts.ts): exact both ways for any uint256 and any decimals, and
// never a silent rounding — an amount finer than the token refuses to convert.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BaseUnitsError, baseUnitsToDecimal, fromBaseUnits, MAX_UINT256, toBaseUnits } from '../../server/domain/chain/amounts';
import { Decimal } from '../../server/domain/money';

const uint256 = fc.bigInt({ min: 0n, max: MAX_UINT256 });
// ERC-20 decimals are a uint8; real tokens use 0–18, so the common range is drawn more often.
const decimals = fc.oneof(fc.integer({ min: 0, max: 18 }), fc.integer({ min: 0, max: 255 }));

describe('token amounts and base units', () => {
  test('known values: USDC (6) and an 18-decimal token', () => {
    assert.equal(toBaseUnits('1.5', 6), 1_500_000n);
    assert.equal(toBaseUnits('0.000001', 6), 1n);
    assert.equal(toBaseUnits('1000000', 6), 1_000_000_000_000n);
    assert.equal(toBaseUnits('0', 6), 0n);
    assert.equal(toBaseUnits('1', 18), 10n ** 18n);
    assert.equal(toBaseUnits('123.456789012345678901', 18), 123_456_789_012_345_678_901n);
    assert.equal(toBaseUnits('42', 0), 42n);
    assert.equal(fromBaseUnits(1_500_000n, 6), '1.500000');
    assert.equal(fromBaseUnits(1n, 6), '0.000001');
    assert.equal(fromBaseUnits(0n, 6), '0.000000');
    assert.equal(fromBaseUnits(42n, 0), '42');
    assert.equal(fromBaseUnits(10n ** 18n, 18), '1.000000000000000000');
  });

  test('a Decimal converts like its string, however large or fine', () => {
    assert.equal(toBaseUnits(new Decimal('10.25'), 6), 10_250_000n);
    assert.equal(toBaseUnits(new Decimal('-0'), 6), 0n);
    // Past decimal.js's 64-digit precision and its exponent notation: still exact.
    const long = `9${'0'.repeat(70)}.000001`;
    assert.equal(toBaseUnits(new Decimal(long), 6), BigInt(`9${'0'.repeat(70)}000001`));
    assert.equal(toBaseUnits(new Decimal('1e-18'), 18), 1n);
    assert.ok(baseUnitsToDecimal(1_500_000n, 6).eq('1.5'));
  });

  test('trailing zeros beyond the decimals are fine; a significant digit beyond them is refused, never rounded', () => {
    assert.equal(toBaseUnits('1.500000000', 6), 1_500_000n);
    assert.equal(toBaseUnits('7.0', 0), 7n);
    assert.throws(() => toBaseUnits('1.0000001', 6), (e: unknown) => e instanceof BaseUnitsError && /7 decimal places; the token has 6/.test(e.message));
    assert.throws(() => toBaseUnits('0.5', 0), BaseUnitsError);
    assert.throws(() => toBaseUnits(new Decimal('0.0000001'), 6), BaseUnitsError);
  });

  test('only plain non-negative decimals within uint256 convert', () => {
    for (const bad of ['', '-1', '-0.5', '1e6', '+1', '.5', '1.', '01', ' 1', '1,5', '0x10', 'NaN', 'Infinity']) {
      assert.throws(() => toBaseUnits(bad, 6), BaseUnitsError, JSON.stringify(bad));
    }
    assert.throws(() => toBaseUnits(new Decimal(-1), 6), BaseUnitsError);
    assert.equal(toBaseUnits(MAX_UINT256.toString(), 0), MAX_UINT256);
    assert.throws(() => toBaseUnits((MAX_UINT256 + 1n).toString(), 0), /uint256/);
    assert.throws(() => toBaseUnits('1', 78), /uint256/); // 10^78 > 2^256
    assert.throws(() => fromBaseUnits(-1n, 6), BaseUnitsError);
    assert.throws(() => fromBaseUnits(MAX_UINT256 + 1n, 6), BaseUnitsError);
    for (const d of [-1, 1.5, 256, Number.NaN]) {
      assert.throws(() => toBaseUnits('1', d), BaseUnitsError);
      assert.throws(() => fromBaseUnits(1n, d), BaseUnitsError);
    }
  });

  test('property: toBaseUnits(fromBaseUnits(x)) === x for every uint256 and decimals', () => {
    fc.assert(
      fc.property(uint256, decimals, (units, d) => {
        const text = fromBaseUnits(units, d);
        assert.equal(toBaseUnits(text, d), units);
        // The string has exactly d places, and as a Decimal it converts the same way.
        assert.equal(text.includes('.') ? (text.split('.')[1] ?? '').length : 0, d);
        assert.equal(toBaseUnits(new Decimal(text), d), units);
      }),
      { numRuns: 2000 },
    );
  });

  test('property: an amount with at most `decimals` places survives the round trip as the same number', () => {
    const amount = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), fc.integer({ min: 0, max: 18 }))
      .map(([units, places, d]) => ({ text: fromBaseUnits(units, places), places, d: Math.max(places, d) }));
    fc.assert(
      fc.property(amount, ({ text, d }) => {
        assert.ok(new Decimal(fromBaseUnits(toBaseUnits(text, d), d)).eq(text));
      }),
    );
  });

  test('property: one more significant decimal than the token has is always refused', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), fc.integer({ min: 1, max: 9 }), (whole, d, last) => {
        const text = `${whole}.${'0'.repeat(d)}${last}`; // d + 1 places, the last one not zero
        assert.throws(() => toBaseUnits(text, d), BaseUnitsError);
      }),
    );
  });
});

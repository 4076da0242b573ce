// Rates: the simulated market drifts within its bounds, gives the same digits for the same instant, moves with time, and applies its spread.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CURRENCIES, type Currency, Decimal, FIAT, STABLECOINS } from '../../server/domain/money';
import { applySpread, parseSpreadBps } from '../../server/domain/rates/rate-source';
import { DEFAULT_SPREAD_BPS, maxDrift, profileOf, SimulatedMarket } from '../../server/domain/rates/simulated-market';

const RUNS = { numRuns: 300 };
// Any instant from 1970 to 2100: the drift must stay bounded however far the clock goes.
const instant = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms));
const pairs: [Currency, Currency][] = [];
for (const f of FIAT) for (const s of STABLECOINS) pairs.push([f, s], [s, f]);
const pair = fc.constantFrom(...pairs);

describe('simulated market', () => {
  const market = new SimulatedMarket();

  test('fiat drifts by at most ±0.3 %, USDT by ±0.01 %, USD and USDC not at all', () => {
    for (const c of FIAT) if (c !== 'USD') assert.equal(maxDrift(c).toString(), '0.003');
    assert.equal(maxDrift('USDT').toString(), '0.0001');
    assert.equal(maxDrift('USDC').toString(), '0');
    assert.equal(maxDrift('USD').toString(), '0');
  });

  test('each price per USD stays within its anchor ± its drift, at any instant', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...CURRENCIES), (at, c) => {
        const anchor = new Decimal(profileOf(c).perUsd);
        const v = market.perUsd(c, at);
        const bound = anchor.times(maxDrift(c));
        assert.ok(v.minus(anchor).abs().lte(bound), `${c} at ${at.toISOString()}: ${v.toString()} strays beyond ${anchor.toString()} ± ${bound.toString()}`);
      }),
      RUNS,
    );
  });

  test('mid rates stay within the bounds their two drifts allow, and sit near the real market', () => {
    fc.assert(
      fc.property(instant, pair, (at, [base, quote]) => {
        const mid = new Decimal(market.midRateAt(base, quote, at));
        const [b, q] = [profileOf(base), profileOf(quote)];
        const anchor = new Decimal(q.perUsd).dividedBy(b.perUsd);
        const low = anchor.times(new Decimal(1).minus(maxDrift(quote))).dividedBy(new Decimal(1).plus(maxDrift(base)));
        const high = anchor.times(new Decimal(1).plus(maxDrift(quote))).dividedBy(new Decimal(1).minus(maxDrift(base)));
        const slack = new Decimal('1e-10'); // mids are rounded to 10 decimals
        assert.ok(mid.gte(low.minus(slack)) && mid.lte(high.plus(slack)), `${base}→${quote} ${mid.toString()} outside [${low.toString()}, ${high.toString()}]`);
      }),
      RUNS,
    );
    const at = new Date('2026-01-08T12:00:00Z');
    const usdcBrl = new Decimal(market.midRateAt('USDC', 'BRL', at));
    assert.ok(usdcBrl.gt('5.28') && usdcBrl.lt('5.32'), `USDC→BRL ${usdcBrl.toString()} ≈ 5.3`);
    const eurUsdc = new Decimal(market.midRateAt('EUR', 'USDC', at));
    assert.ok(eurUsdc.gt('1.08') && eurUsdc.lt('1.09'), `EUR→USDC ${eurUsdc.toString()} ≈ 1/0.92`);
  });

  test('the same instant gives the same digits, from any instance, sync or async', async () => {
    await fc.assert(
      fc.asyncProperty(instant, pair, async (at, [base, quote]) => {
        const a = market.midRateAt(base, quote, at);
        assert.equal(new SimulatedMarket().midRateAt(base, quote, new Date(at.getTime())), a);
        assert.equal(await market.midRate(base, quote, at), a);
        assert.equal(await market.quoteRate(base, quote, at), market.quoteRateAt(base, quote, at));
        assert.match(a, /^\d+\.\d{10}$/);
      }),
      { numRuns: 100 },
    );
    // Pinned digits: a change to the model shows up here as a diff, not as a quiet change in prices.
    assert.equal(market.midRateAt('BRL', 'USDC', new Date('2026-01-08T12:00:00Z')), '0.1888157574');
  });

  test('floating quotes move from one second to the next, but smoothly', () => {
    const start = Date.parse('2026-01-08T12:00:00Z');
    const seen = new Set<string>();
    let largest = new Decimal(0);
    for (let s = 0; s < 600; s++) {
      const now = new Decimal(market.midRateAt('BRL', 'USDC', new Date(start + s * 1000)));
      const next = new Decimal(market.midRateAt('BRL', 'USDC', new Date(start + s * 1000 + 1000)));
      seen.add(now.toString());
      const step = next.minus(now).abs().dividedBy(now);
      if (step.gt(largest)) largest = step;
    }
    assert.ok(seen.size > 590, 'the rate changes nearly every second');
    assert.ok(largest.lt('0.00005'), `at most 0.005 % per second (saw ${largest.toString()})`);
  });

  test('over a day the drift covers a real part of its range, not a sliver', () => {
    const start = Date.parse('2026-01-08T00:00:00Z');
    let low = new Decimal(Infinity);
    let high = new Decimal(-Infinity);
    for (let m = 0; m < 24 * 60; m += 5) {
      const v = market.perUsd('BRL', new Date(start + m * 60_000));
      low = Decimal.min(low, v);
      high = Decimal.max(high, v);
    }
    assert.ok(high.minus(low).dividedBy('5.3').gt('0.002'), `BRL ranged only ${low.toString()}–${high.toString()}`);
  });

  test('stablecoins sit at par: USDC exactly, USDT a hair under', () => {
    fc.assert(
      fc.property(instant, (at) => {
        assert.equal(market.perUsd('USDC', at).toString(), '1');
        const usdt = market.perUsd('USDT', at);
        assert.ok(usdt.gte('0.9997') && usdt.lte('0.9999'));
        assert.equal(market.midRateAt('USD', 'USDC', at), '1.0000000000');
      }),
      { numRuns: 100 },
    );
  });

  test('an invalid date is an error, not NaN prices', () => {
    assert.throws(() => market.midRateAt('BRL', 'USDC', new Date('nope')), /invalid date/);
  });
});

describe('spread', () => {
  test('the quote rate is the mid less the spread, rounded down to 8 decimals, in either direction', () => {
    fc.assert(
      fc.property(instant, pair, fc.integer({ min: 0, max: 50_000 }), (at, [base, quote], hundredths) => {
        const spreadBps = new Decimal(hundredths).dividedBy(100).toString();
        const market = new SimulatedMarket({ spreadBps });
        const mid = new Decimal(market.midRateAt(base, quote, at));
        const rate = market.quoteRateAt(base, quote, at);
        assert.match(rate, /^\d+\.\d{8}$/);
        const exact = mid.times(new Decimal(1).minus(new Decimal(spreadBps).dividedBy(10000)));
        const r = new Decimal(rate);
        assert.ok(r.lte(exact) && r.plus('0.00000001').gt(exact), `${rate} is not ${exact.toString()} rounded down`);
        if (hundredths > 0) assert.ok(r.lt(mid), 'a spread always gives the customer less than the mid');
      }),
      RUNS,
    );
  });

  test('the default spread is 20 bps', () => {
    assert.equal(new SimulatedMarket().spreadBps, DEFAULT_SPREAD_BPS);
    assert.equal(DEFAULT_SPREAD_BPS, '20');
    assert.equal(applySpread('5.3000000000', '20'), '5.28940000');
    assert.equal(applySpread('0.1886792453', '0'), '0.18867924');
  });

  test('bad spreads are refused', () => {
    for (const bad of ['-1', '10000', '1e2', 'abc', '0.001']) assert.throws(() => parseSpreadBps(bad), /spread/, bad);
    assert.throws(() => new SimulatedMarket({ spreadBps: '12345' }), /spread/);
    assert.throws(() => applySpread('0', '20'), /positive/);
  });

  test('a rate is computed once per pair per tick (one second), and changes with the next tick', () => {
    const m = new SimulatedMarket();
    let computed = 0;
    const perUsd = m.perUsd.bind(m);
    m.perUsd = (c, at) => (computed++, perUsd(c, at));
    const start = Date.parse('2026-01-08T12:00:00Z');
    const first = m.quoteRateAt('BRL', 'USDC', new Date(start + 10));
    for (let ms = 0; ms < 1000; ms += 37) assert.equal(m.quoteRateAt('BRL', 'USDC', new Date(start + ms)), first);
    assert.equal(computed, 2, 'two prices per USD (base and quote), once in the tick');
    assert.equal(m.midRateAt('BRL', 'USDC', new Date(start + 999)), new SimulatedMarket().midRateAt('BRL', 'USDC', new Date(start)));
    const mid = m.midRateAt('BRL', 'USDC', new Date(start));
    assert.notEqual(m.midRateAt('BRL', 'USDC', new Date(start + 1000)), mid);
    assert.equal(computed, 4);
  });
});

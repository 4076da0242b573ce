// Money core: quotes are exact to the last decimal, rounded the customer-honest way, solvable for an exact target, monotone, and never touch a JS number.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../server/domain/errors';
import {
  defaultFeeSchedule,
  type FeeRule,
  type FeeSchedule,
  FeeScheduleError,
  parseFeeSchedule,
  parsePartnerFees,
  type TimeLock,
} from '../../server/domain/fee-schedule';
import {
  CURRENCIES,
  type Currency,
  decimalsOf,
  FIAT,
  formatAmount,
  parseAmount,
  RAILS,
  type Rail,
  railFiat,
  roundDown,
  STABLECOINS,
} from '../../server/domain/money';
import { type PricedQuote, priceQuote, priceQuoteRemembered, validatePair } from '../../server/domain/pricing';

const RUNS = { numRuns: 400 };

// ---------------------------------------------------------------------------------------------------------
// An independent reference model in scaled BigInt integers: no decimal.js, no floats. If the domain ever let
// a JS number carry an amount, the 15-integer-digit amounts generated below (beyond 2^53 in minor units)
// would come out different in the last places and these comparisons would fail.

const units = (s: string, dp: number): bigint => {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) throw new Error(`not a decimal: ${s}`);
  const frac = (m[3] ?? '').padEnd(dp, '0');
  if (frac.length > dp) throw new Error(`${s} has more than ${dp} decimals`);
  const v = BigInt((m[2] ?? '0') + frac);
  return m[1] ? -v : v;
};
const str = (u: bigint, dp: number): string => {
  const neg = u < 0n;
  const digits = (neg ? -u : u).toString().padStart(dp + 1, '0');
  return `${neg ? '-' : ''}${dp ? `${digits.slice(0, -dp)}.${digits.slice(-dp)}` : digits}`;
};
const ceilDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? (a + b - 1n) / b : -(-a / b));
const P10 = (n: number): bigint => 10n ** BigInt(n);

/** Basis points carry up to 2 decimals: work in hundredths of a basis point, i.e. parts per million. */
const ppm = (bps: string): bigint => units(bps, 2);

interface ModelQuote {
  base: bigint;
  serviceFormulaCeil: bigint;
  partner: bigint;
  totalFees: bigint;
  final: bigint;
}

function model(sourceUnits: bigint, sd: number, rate: string, td: number, service: { ppm: bigint; flat: bigint }, partner: { ppm: bigint; flat: bigint }): ModelQuote {
  const rateUnits = units(rate, 8);
  const base = (sourceUnits * rateUnits * P10(td)) / P10(sd + 8); // floor: all positive
  const serviceNum = base * service.ppm + service.flat * 1_000_000n;
  const partnerNum = base * partner.ppm + partner.flat * 1_000_000n;
  const totalFees = ceilDiv(serviceNum + partnerNum, 1_000_000n);
  return { base, serviceFormulaCeil: ceilDiv(serviceNum, 1_000_000n), partner: ceilDiv(partnerNum, 1_000_000n), totalFees, final: base - totalFees };
}

// ---------------------------------------------------------------------------------------------------------
// Generators

interface Scenario {
  source: Currency;
  target: Currency;
  rail: Rail;
  rate: string;
  serviceRule: FeeRule;
  partnerFee: FeeRule | null;
  timeLock: TimeLock | undefined;
  schedule: FeeSchedule;
}

const validTriples: [Currency, Currency, Rail][] = [];
for (const fiat of FIAT) {
  for (const coin of STABLECOINS) {
    for (const rail of RAILS.filter((r) => railFiat(r) === fiat)) {
      validTriples.push([fiat, coin, rail], [coin, fiat, rail]);
    }
  }
}

const decimalString = (dp: number, min: bigint, max: bigint) => fc.bigInt({ min, max }).map((u) => str(u, dp));

/** Rates from 1e-8 to 20 (8 decimals), skewed toward realistic magnitudes. */
const rateArb = fc.oneof(decimalString(8, 1n, 2_000_000_000n), decimalString(8, 15_000_000n, 600_000_000n));

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    triple: fc.constantFrom(...validTriples),
    rate: rateArb,
    serviceBps: decimalString(2, 0n, 50_000n), // 0–500 bps
    serviceFlatUnits: fc.bigInt({ min: 0n, max: 5_000n }),
    partner: fc.option(fc.record({ bps: decimalString(2, 0n, 30_000n), flatUnits: fc.bigInt({ min: 0n, max: 5_000n }) }), { nil: null }),
    timeLock: fc.constantFrom<TimeLock | undefined>(undefined, '30s', '1m', '5m'),
    premiums: fc.tuple(decimalString(2, 0n, 5_000n), decimalString(2, 0n, 5_000n)),
  })
  .map(({ triple: [source, target, rail], rate, serviceBps, serviceFlatUnits, partner, timeLock, premiums }) => {
    const td = decimalsOf(target);
    const direction = FIAT.includes(source as never) ? 'onRamp' : 'offRamp';
    const serviceRule = { rate: serviceBps, flatAmount: str(serviceFlatUnits, td) };
    const schedule = structuredClone(defaultFeeSchedule);
    schedule.service[direction][rail] = serviceRule;
    const [a, b] = units(premiums[0], 2) <= units(premiums[1], 2) ? premiums : [premiums[1], premiums[0]];
    schedule.lockPremiumBps = { '1m': a, '5m': b };
    return {
      source,
      target,
      rail,
      rate,
      serviceRule,
      partnerFee: partner ? { rate: partner.bps, flatAmount: str(partner.flatUnits, td) } : null,
      timeLock,
      schedule,
    };
  });

/**
 * Source amounts in minor units: small ones, and ones up to the 15-integer-digit maximum (beyond 2^53), leaving
 * room below it for the monotonicity test to add up to 10000 units.
 */
const sourceUnitsArb = (dp: number) =>
  fc.oneof(fc.bigInt({ min: 1n, max: P10(dp + 5) }), fc.bigInt({ min: 1n, max: P10(15 + dp) - 10_001n }));

const premiumOf = (s: Scenario): string => (s.timeLock === '1m' ? s.schedule.lockPremiumBps['1m'] : s.timeLock === '5m' ? s.schedule.lockPremiumBps['5m'] : '0');

function modelFor(s: Scenario, sourceUnits: bigint): ModelQuote {
  const td = decimalsOf(s.target);
  return model(
    sourceUnits,
    decimalsOf(s.source),
    s.rate,
    td,
    { ppm: ppm(s.serviceRule.rate) + ppm(premiumOf(s)), flat: units(s.serviceRule.flatAmount, td) },
    s.partnerFee ? { ppm: ppm(s.partnerFee.rate), flat: units(s.partnerFee.flatAmount, td) } : { ppm: 0n, flat: 0n },
  );
}

const quote = (s: Scenario, amount: { sourceAmount?: string; targetAmount?: string }, timeLock = s.timeLock): PricedQuote =>
  priceQuote({ sourceCurrency: s.source, targetCurrency: s.target, rail: s.rail, ...amount, timeLock, partnerFee: s.partnerFee, rate: s.rate, schedule: s.schedule });

const isTooSmall = (err: unknown, path: string): boolean =>
  err instanceof AppError && err.code === 'VALIDATION_FAILED' && err.errors?.[0]?.path === path && err.errors[0].code === 'BELOW_MINIMUM';

/** Prices by source, or undefined when the fees eat it all (asserting that the error is the right one). */
function tryQuote(s: Scenario, sourceUnits: bigint): PricedQuote | undefined {
  try {
    return quote(s, { sourceAmount: str(sourceUnits, decimalsOf(s.source)) });
  } catch (err) {
    assert.ok(isTooSmall(err, 'sourceAmount'), `unexpected error ${String(err)}`);
    return undefined;
  }
}

const finalUnits = (q: PricedQuote | undefined, td: number): bigint => (q ? units(q.finalTargetAmount, td) : -1n);

// ---------------------------------------------------------------------------------------------------------

describe('pricing: a quote given its source amount', () => {
  test('final = base − service − partner exactly, and every amount matches the exact integer model', () => {
    fc.assert(
      fc.property(scenarioArb.chain((s) => fc.tuple(fc.constant(s), sourceUnitsArb(decimalsOf(s.source)))), ([s, su]) => {
        const td = decimalsOf(s.target);
        const m = modelFor(s, su);
        const q = tryQuote(s, su);
        if (!q) {
          assert.ok(m.final <= 0n, 'refused a quote whose final amount is positive');
          return;
        }
        assert.ok(m.final > 0n);
        const [base, service, partner, final] = [q.baseTargetAmount, q.fees.service.totalAmount, q.fees.partner.totalAmount, q.finalTargetAmount].map((v) => units(v, td)) as [bigint, bigint, bigint, bigint];
        assert.equal(final, base - service - partner, 'final = base − service − partner');
        assert.equal(base, m.base, 'base = source × rate, rounded down');
        assert.equal(final, m.final, 'final amount');
        assert.equal(partner, m.partner, 'partner fee = its formula, rounded up');
        assert.equal(service + partner, m.totalFees, 'total fees = the sum of the formulas, rounded up once');
        if (s.partnerFee === null || (units(s.partnerFee.rate, 2) === 0n && units(s.partnerFee.flatAmount, td) === 0n)) {
          assert.equal(service, m.serviceFormulaCeil, 'without a partner fee the service fee is its formula rounded up');
        } else {
          assert.ok(service === m.serviceFormulaCeil || service === m.serviceFormulaCeil - 1n, 'the service absorbs at most one unit of rounding');
        }
        // Wire shapes: exactly the target's decimals for amounts, 8 for rates, the source's for the source.
        const amountShape = new RegExp(`^\\d+\\.\\d{${td}}$`);
        for (const v of [q.baseTargetAmount, q.finalTargetAmount, q.fees.service.totalAmount, q.fees.service.flatAmount, q.fees.partner.totalAmount, q.fees.partner.flatAmount]) assert.match(v, amountShape);
        assert.match(q.sourceAmount, new RegExp(`^\\d+\\.\\d{${decimalsOf(s.source)}}$`));
        assert.equal(q.baseExchangeRate, s.rate);
        assert.equal(q.fees.service.currency, s.target);
        assert.equal(q.fees.partner.currency, s.target);
        // finalExchangeRate = final / source, rounded down to 8 decimals.
        const fr = units(q.finalExchangeRate, 8);
        const lhs = final * P10(decimalsOf(s.source) + 8);
        assert.ok(fr * su * P10(td) <= lhs && (fr + 1n) * su * P10(td) > lhs, 'finalExchangeRate is final/source rounded down');
      }),
      RUNS,
    );
  });

  test('a larger source never gives a smaller final amount (including one unit more, where rounding bites)', () => {
    fc.assert(
      fc.property(
        scenarioArb.chain((s) => fc.tuple(fc.constant(s), sourceUnitsArb(decimalsOf(s.source)), fc.oneof(fc.constant(1n), fc.bigInt({ min: 1n, max: 10_000n })))),
        ([s, su, more]) => {
          const td = decimalsOf(s.target);
          assert.ok(finalUnits(tryQuote(s, su + more), td) >= finalUnits(tryQuote(s, su), td));
        },
      ),
      RUNS,
    );
  });

  test('off-ramps with a partner fee stay monotone across a long run of micro-unit steps', () => {
    // USDC → BRL moves the base by 0 or 1 cent per micro-USDC: where two separately rounded fees would both step up at once.
    const s: Scenario = {
      source: 'USDC',
      target: 'BRL',
      rail: 'PIX',
      rate: '5.30000000',
      serviceRule: defaultFeeSchedule.service.offRamp.PIX,
      partnerFee: { rate: '60', flatAmount: '0.00' },
      timeLock: '30s',
      schedule: defaultFeeSchedule,
    };
    let previous = -1n;
    for (let su = 1_000_000_000n; su < 1_000_000_000n + 20_000n; su += 1n) {
      const f = finalUnits(tryQuote(s, su), 2);
      assert.ok(f >= previous, `final dropped at source ${str(su, 6)}`);
      previous = f;
    }
  });

  test('longer locks are never better for the customer, and strictly worse once the premium reaches one unit', () => {
    fc.assert(
      fc.property(scenarioArb.chain((s) => fc.tuple(fc.constant({ ...s, schedule: defaultFeeSchedule }), sourceUnitsArb(decimalsOf(s.source)))), ([s, su]) => {
        const td = decimalsOf(s.target);
        const amount = { sourceAmount: str(su, decimalsOf(s.source)) };
        const attempt = (lock: TimeLock) => {
          try {
            return quote(s, amount, lock);
          } catch (err) {
            assert.ok(isTooSmall(err, 'sourceAmount'));
            return undefined;
          }
        };
        const [q30, q1, q5] = [attempt('30s'), attempt('1m'), attempt('5m')];
        const [f30, f1, f5] = [q30, q1, q5].map((q) => finalUnits(q, td)) as [bigint, bigint, bigint];
        assert.ok(f30 >= f1 && f1 >= f5);
        if (q30) {
          const base = units(q30.baseTargetAmount, td);
          // 10 and 20 more basis points (1m, then 5m over 1m) move the fee by a full unit once base × bps ≥ one unit.
          if (base * 10n >= 10_000n) assert.ok(f30 > f1, '1m is strictly worse than 30s');
          if (base * 20n >= 10_000n) assert.ok(f1 > f5, '5m is strictly worse than 1m');
          assert.equal(q30.fees.service.rate, defaultFeeSchedule.service[q30.direction][s.rail].rate);
        }
        if (q5) assert.equal(units(q5.fees.service.rate, 2), units(defaultFeeSchedule.service[q5.direction][s.rail].rate, 2) + 3000n, '5m adds its 30 bps to the service rate');
      }),
      RUNS,
    );
  });

  test('an amount that the fees eat is refused on sourceAmount, naming the smallest amount that works', () => {
    const s = { sourceCurrency: 'USDC', targetCurrency: 'USD', rail: 'SWIFT', rate: '0.99800000', schedule: defaultFeeSchedule } as const;
    let caught: unknown;
    try {
      priceQuote({ ...s, sourceAmount: '5.00' });
    } catch (err) {
      caught = err;
    }
    assert.ok(isTooSmall(caught, 'sourceAmount'));
    const minimum = (caught as AppError).extra?.minimumSourceAmount as string;
    assert.match(minimum, /^\d+\.\d{6}$/);
    const q = priceQuote({ ...s, sourceAmount: minimum });
    assert.equal(q.finalTargetAmount, '0.01', 'the minimum delivers the smallest unit');
    const below = str(units(minimum, 6) - 1n, 6);
    assert.throws(() => priceQuote({ ...s, sourceAmount: below }), (err) => isTooSmall(err, 'sourceAmount'));
  });
});

describe('pricing: a quote given its target amount', () => {
  test('delivers exactly the target from the smallest source that can pay for it; the dust is less than the last source unit bought', () => {
    fc.assert(
      fc.property(
        scenarioArb.chain((s) => fc.tuple(fc.constant(s), fc.oneof(fc.bigInt({ min: 1n, max: P10(decimalsOf(s.target) + 5) }), fc.bigInt({ min: 1n, max: P10(12 + decimalsOf(s.target)) })))),
        ([s, tu]) => {
          const [sd, td] = [decimalsOf(s.source), decimalsOf(s.target)];
          const target = str(tu, td);
          const q = quote(s, { targetAmount: target });
          assert.equal(q.finalTargetAmount, target, 'exactly the requested amount');
          const [base, service, partner] = [q.baseTargetAmount, q.fees.service.totalAmount, q.fees.partner.totalAmount].map((v) => units(v, td)) as [bigint, bigint, bigint];
          assert.equal(tu, base - service - partner, 'final = base − service − partner');
          assert.match(q.sourceAmount, new RegExp(`^\\d+\\.\\d{${sd}}$`));
          const su = units(q.sourceAmount, sd);
          // The forward quote at the solved source reaches the target; one unit less of source does not.
          const atSource = modelFor(s, su);
          assert.ok(atSource.final >= tu, 'forward(source) ≥ target');
          assert.equal(base, atSource.base);
          assert.equal(partner, atSource.partner, 'the partner fee is untouched by the dust');
          const oneLess = su > 1n ? modelFor(s, su - 1n).final : -1n;
          assert.ok(oneLess < tu, 'the source is the smallest that reaches the target (rounded up, not more)');
          // The dust went to the service fee, and is smaller than what the last unit of source bought.
          const dust = atSource.final - tu;
          assert.equal(service, atSource.totalFees - atSource.partner + dust);
          assert.ok(dust < atSource.final - oneLess, 'dust < value of one source unit');
        },
      ),
      RUNS,
    );
  });

  test('a longer lock costs a larger source for the same target', () => {
    fc.assert(
      fc.property(scenarioArb.chain((s) => fc.tuple(fc.constant(s), fc.bigInt({ min: 1n, max: P10(decimalsOf(s.target) + 6) }))), ([s, tu]) => {
        const target = str(tu, decimalsOf(s.target));
        const [a, b, c] = (['30s', '1m', '5m'] as const).map((lock) => units(quote(s, { targetAmount: target }, lock).sourceAmount, decimalsOf(s.source))) as [bigint, bigint, bigint];
        assert.ok(a <= b && b <= c);
      }),
      RUNS,
    );
  });

  test('fees of 100 % or more make every target unreachable, said on targetAmount', () => {
    const partnerFee = { rate: '9950', flatAmount: '0.000000' };
    assert.throws(
      () => priceQuote({ sourceCurrency: 'BRL', targetCurrency: 'USDC', rail: 'PIX', targetAmount: '1.000000', partnerFee, rate: '0.18000000', schedule: defaultFeeSchedule }),
      (err) => isTooSmall(err, 'targetAmount'),
    );
  });
});

describe('pricing: errors', () => {
  test('every currency and rail combination: fiat ↔ stablecoin over the fiat’s own rail, or UNSUPPORTED_PAIR', () => {
    for (const source of CURRENCIES) {
      for (const target of CURRENCIES) {
        for (const rail of RAILS) {
          const fiatSide = FIAT.includes(source as never) ? source : FIAT.includes(target as never) ? target : undefined;
          const mixed = FIAT.includes(source as never) !== FIAT.includes(target as never);
          const ok = mixed && fiatSide !== undefined && railFiat(rail) === fiatSide;
          if (ok) {
            const pair = validatePair(source, target, rail);
            assert.equal(pair.direction, FIAT.includes(source as never) ? 'onRamp' : 'offRamp');
            assert.equal(pair.fiat, fiatSide);
          } else {
            assert.throws(
              () => validatePair(source, target, rail),
              (err) => err instanceof AppError && err.code === 'UNSUPPORTED_PAIR' && err.errors?.[0]?.path === (mixed ? 'rail' : 'targetCurrency'),
              `${source} → ${target} over ${rail}`,
            );
          }
        }
      }
    }
  });

  test('unknown currencies and rails are field errors, not unsupported pairs', () => {
    for (const [s, t, r, path] of [
      ['BTC', 'USDC', 'PIX', 'sourceCurrency'],
      ['BRL', 'usdc', 'PIX', 'targetCurrency'],
      ['BRL', 'USDC', 'TED', 'rail'],
    ] as const) {
      assert.throws(() => validatePair(s, t, r), (err) => err instanceof AppError && err.code === 'VALIDATION_FAILED' && err.errors?.[0]?.path === path && err.errors[0].code === 'NOT_ONE_OF');
    }
  });

  const base = { sourceCurrency: 'BRL', targetCurrency: 'USDC', rail: 'PIX', rate: '0.18000000', schedule: defaultFeeSchedule };
  for (const [label, amount, code] of [
    ['an exponent', '1e3', 'NOT_A_DECIMAL'],
    ['a plus sign', '+10', 'NOT_A_DECIMAL'],
    ['a minus sign', '-10.00', 'NOT_POSITIVE'],
    ['zero', '0.00', 'NOT_POSITIVE'],
    ['spaces', ' 10', 'NOT_A_DECIMAL'],
    ['a trailing point', '10.', 'NOT_A_DECIMAL'],
    ['a bare fraction', '.5', 'NOT_A_DECIMAL'],
    ['a leading zero', '010', 'NOT_A_DECIMAL'],
    ['three decimals of BRL', '10.001', 'TOO_MANY_DECIMALS'],
    ['16 integer digits', '1000000000000000', 'ABOVE_MAXIMUM'],
    ['a JSON number', 10, 'NOT_A_DECIMAL'],
    ['a comma', '10,00', 'NOT_A_DECIMAL'],
  ] as const) {
    test(`a sourceAmount with ${label} is refused on sourceAmount with code ${code}`, () => {
      assert.throws(
        () => priceQuote({ ...base, sourceAmount: amount }),
        (err) => err instanceof AppError && err.code === 'VALIDATION_FAILED' && err.errors?.[0]?.path === 'sourceAmount' && err.errors[0].code === code,
      );
    });
  }

  test('trailing zeros beyond the decimals are the same amount, not an error', () => {
    assert.equal(priceQuote({ ...base, sourceAmount: '10.500' }).sourceAmount, '10.50');
  });

  test('neither amount, an unguaranteed minimum target or an unknown lock are refused on the right field', () => {
    const path = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err instanceof AppError ? err.errors?.[0]?.path : 'not an AppError';
      }
      return 'no error';
    };
    // Both: the source prices, the target is the least accepted.
    const forward = priceQuote({ ...base, sourceAmount: '10.00' });
    assert.equal(priceQuote({ ...base, sourceAmount: '10.00', targetAmount: forward.finalTargetAmount }).finalTargetAmount, forward.finalTargetAmount);
    assert.equal(path(() => priceQuote({ ...base, sourceAmount: '10.00', targetAmount: '1000000.000000' })), 'targetAmount');
    try {
      priceQuote({ ...base, sourceAmount: '10.00', targetAmount: '1000000.000000' });
    } catch (err) {
      assert.equal((err as AppError).code, 'TARGET_AMOUNT_NOT_GUARANTEED');
      assert.equal((err as AppError).extra?.guaranteedTargetAmount, forward.finalTargetAmount);
    }
    assert.equal(path(() => priceQuote({ ...base, sourceAmount: '10.00', targetAmount: 'x' })), 'targetAmount');
    assert.equal(path(() => priceQuote({ ...base })), 'sourceAmount');
    assert.equal(path(() => priceQuote({ ...base, sourceAmount: '10.00', timeLock: '10s' })), 'timeLock');
  });

  test('no string input ever produces anything but an AppError (never a 500)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^-?\d{0,17}(\.\d{0,8})?(e\d)?$/)), fc.boolean(), (amount, asTarget) => {
        try {
          priceQuote({ ...base, ...(asTarget ? { targetAmount: amount } : { sourceAmount: amount }) });
        } catch (err) {
          assert.ok(err instanceof AppError, String(err));
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('fee schedule', () => {
  test('the default schedule is valid by its own parser, and its flats sit on the target grid', () => {
    assert.deepEqual(parseFeeSchedule(JSON.stringify(defaultFeeSchedule)), defaultFeeSchedule);
    for (const rail of RAILS) {
      assert.equal(defaultFeeSchedule.service.offRamp[rail].flatAmount, formatAmount(defaultFeeSchedule.service.offRamp[rail].flatAmount, railFiat(rail)));
      assert.equal(defaultFeeSchedule.service.onRamp[rail].flatAmount, formatAmount(defaultFeeSchedule.service.onRamp[rail].flatAmount, 'USDC'));
    }
  });

  test('an override changes only what it names', () => {
    const s = parseFeeSchedule('{"service":{"offRamp":{"PIX":{"rate":"70","flatAmount":"1"}}},"lockPremiumBps":{"5m":"45.5"}}');
    assert.deepEqual(s.service.offRamp.PIX, { rate: '70', flatAmount: '1.00' });
    assert.deepEqual(s.service.onRamp, defaultFeeSchedule.service.onRamp);
    assert.deepEqual(s.lockPremiumBps, { '1m': '10', '5m': '45.5' });
  });

  for (const [json, path] of [
    ['not json', '(root)'],
    ['[]', '(root)'],
    ['{"servce":{}}', 'servce'],
    ['{"service":{"sideways":{}}}', 'service.sideways'],
    ['{"service":{"onRamp":{"TED":{"rate":"1","flatAmount":"0"}}}}', 'service.onRamp.TED'],
    ['{"service":{"onRamp":{"PIX":{"rate":50,"flatAmount":"0"}}}}', 'service.onRamp.PIX.rate'],
    ['{"service":{"onRamp":{"PIX":{"rate":"50","flatAmount":"0.0000001"}}}}', 'service.onRamp.PIX.flatAmount'],
    ['{"service":{"offRamp":{"PIX":{"rate":"50","flatAmount":"0.505"}}}}', 'service.offRamp.PIX.flatAmount'],
    ['{"service":{"offRamp":{"PIX":{"rate":"10001","flatAmount":"0"}}}}', 'service.offRamp.PIX.rate'],
    ['{"service":{"offRamp":{"PIX":{"rate":"1","flatAmount":"0","extra":"1"}}}}', 'service.offRamp.PIX.extra'],
    ['{"lockPremiumBps":{"30s":"5"}}', 'lockPremiumBps.30s'],
    ['{"lockPremiumBps":{"1m":"50","5m":"20"}}', 'lockPremiumBps.5m'],
  ] as const) {
    test(`RAMP_FEE_SCHEDULE ${json} is refused, naming ${path}`, () => {
      assert.throws(() => parseFeeSchedule(json), (err) => err instanceof FeeScheduleError && err.issues[0]?.path === path && err.message.startsWith(`${path}:`));
    });
  }

  test('partner fees: flat amounts fit every target of their direction', () => {
    assert.deepEqual(parsePartnerFees({ onRamp: { rate: '25', flatAmount: '0.1' }, offRamp: { rate: '0', flatAmount: '1' } }), {
      onRamp: { rate: '25', flatAmount: '0.100000' },
      offRamp: { rate: '0', flatAmount: '1.00' },
    });
    assert.throws(
      () => parsePartnerFees({ onRamp: { rate: '25', flatAmount: '0' }, offRamp: { rate: '0', flatAmount: '0.001' } }),
      (err) => err instanceof AppError && err.code === 'VALIDATION_FAILED' && err.errors?.[0]?.path === 'fees.offRamp.flatAmount',
    );
    assert.throws(() => parsePartnerFees({ onRamp: { rate: '25', flatAmount: '0' } }), (err) => err instanceof AppError && err.errors?.[0]?.path === 'fees.offRamp');
  });
});

describe('money never rides a JS number', () => {
  // The domain's money modules, read as text with comments removed: none of the ways a decimal string becomes a
  // float may appear, nor any Math function (which only works on floats). Time and counts live elsewhere.
  const domain = join(import.meta.dirname, '../../server/domain');
  const moneyFiles = ['money.ts', 'pricing.ts', 'fee-schedule.ts', ...readdirSync(join(domain, 'rates')).map((f) => join('rates', f))];
  for (const file of moneyFiles) {
    test(`${file} has no parseFloat, parseInt, Number(…), toNumber, unary-plus conversion or Math.*`, () => {
      const code = readFileSync(join(domain, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:])\/\/.*$/gm, '$1');
      for (const banned of [/\bparseFloat\s*\(/, /\bparseInt\s*\(/, /\bNumber\s*\(/, /\bNumber\.parse/, /\.toNumber\s*\(/, /\bMath\./, /[=(,]\s*\+\s*[A-Za-z_(]/]) {
        assert.doesNotMatch(code, banned, `${file} matches ${banned}`);
      }
    });
  }

  test('the money helpers refuse numbers at the type level and at run time', () => {
    // @ts-expect-error: a JS number is not a DecimalValue, so no helper can be handed one.
    assert.throws(() => formatAmount(0.1 + 0.2, 'USD'));
    // @ts-expect-error: same for rounding.
    roundDown(1.005, 'USD');
    const parsed = parseAmount(10.5, 'USD');
    assert.equal(parsed.ok, false);
    assert.equal(!parsed.ok && parsed.error, 'amount.not_a_string');
  });

  test('a priced quote is strings all the way down (checked by the compiler and at run time)', () => {
    type HasNumber<T> = T extends number | bigint ? true : T extends object ? { [K in keyof T]-?: HasNumber<T[K]> }[keyof T] : false;
    const noNumbers: HasNumber<PricedQuote> extends false ? true : never = true;
    assert.ok(noNumbers);
    const q = priceQuote({ sourceCurrency: 'USDT', targetCurrency: 'EUR', rail: 'SEPA', sourceAmount: '999999999999999.999999', rate: '0.92123456', schedule: defaultFeeSchedule });
    const leaves = (v: unknown): unknown[] => (typeof v === 'object' && v !== null ? Object.values(v).flatMap(leaves) : [v]);
    for (const leaf of leaves(q)) assert.equal(typeof leaf, 'string');
    // 999999999999999.999999 × 0.92123456 = 921234559999999.99907876543… → 921234559999999.99: digits a double cannot hold.
    assert.equal(q.baseTargetAmount, '921234559999999.99');
    assert.equal(roundDown('0.30000000000000004', 'USD').toFixed(2), '0.30');
  });
});

describe('priceQuoteRemembered', () => {
  const input = { sourceCurrency: 'BRL', targetCurrency: 'USDC', rail: 'PIX', sourceAmount: '1000.00', rate: '0.18512345', schedule: defaultFeeSchedule };

  test('the same request at the same rate is the same answer, priced once and frozen', () => {
    const first = priceQuoteRemembered(input);
    assert.deepEqual(first, priceQuote(input));
    assert.equal(priceQuoteRemembered({ ...input }), first);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.fees) && Object.isFrozen(first.fees.service));
  });

  test('anything priceQuote reads prices afresh: the rate, the amounts, the lock, the partner fee, the schedule', () => {
    const first = priceQuoteRemembered(input);
    for (const changed of [
      { rate: '0.18512346' },
      { sourceAmount: '1000.01' },
      { sourceAmount: undefined, targetAmount: '185.00' },
      { timeLock: '5m' },
      { partnerFee: { rate: '10', flatAmount: '0' } },
      { partnerFee: { rate: '0', flatAmount: '0.10' } },
      { schedule: structuredClone(defaultFeeSchedule) },
    ]) {
      const other = priceQuoteRemembered({ ...input, ...changed });
      assert.notEqual(other, first, JSON.stringify(changed));
      assert.deepEqual(other, priceQuote({ ...input, ...changed }), JSON.stringify(changed));
    }
  });

  test('a request that fails fails every time', () => {
    for (let i = 0; i < 2; i++) assert.throws(() => priceQuoteRemembered({ ...input, sourceAmount: '0.001' }), AppError);
  });
});

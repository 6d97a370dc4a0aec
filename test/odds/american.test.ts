import { describe, it, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import {
  americanDistance,
  compareForTaker,
  EVEN_ODDS,
  fromDecimal,
  fromProbability,
  impliedProbability,
  invertOdds,
  isAtLeastAsGoodForTaker,
  isValidAmericanOdds,
  normalizeOdds,
  oddsRank,
  payout,
  toDecimal,
  withinPostArbBand,
} from '../../src/odds/american.ts';

const validOdds = fc.oneof(fc.integer({ min: 100, max: 5000 }), fc.integer({ min: -5000, max: -100 }));

describe('isValidAmericanOdds', () => {
  it('accepts integers with |odds| >= 100', () => {
    for (const o of [100, -100, 101, -101, 150, -110, 5000, -5000]) expect(isValidAmericanOdds(o)).toBe(true);
  });
  it('rejects small, fractional and non-numbers', () => {
    for (const o of [0, 99, -99, 50, -1, 110.5, -110.5, Number.NaN, Infinity, -Infinity, '110', null, undefined]) {
      expect(isValidAmericanOdds(o)).toBe(false);
    }
  });
});

describe('±100 equivalence', () => {
  it('normalizes -100 to +100 and leaves others alone', () => {
    expect(normalizeOdds(-100)).toBe(100);
    expect(normalizeOdds(100)).toBe(100);
    expect(normalizeOdds(-110)).toBe(-110);
    expect(normalizeOdds(150)).toBe(150);
    expect(EVEN_ODDS).toBe(100);
  });
  it('-100 and +100 are the same price', () => {
    expect(payout(-100)).toBe(payout(100));
    expect(compareForTaker(-100, 100)).toBe(0);
    expect(oddsRank(-100)).toBe(0);
    expect(oddsRank(100)).toBe(0);
    expect(americanDistance(-100, 100)).toBe(0);
    expect(invertOdds(-100)).toBe(100);
    expect(invertOdds(100)).toBe(100);
  });
});

describe('invertOdds', () => {
  it('flips the sign', () => {
    expect(invertOdds(-330)).toBe(330);
    expect(invertOdds(104)).toBe(-104);
    expect(invertOdds(-104)).toBe(104);
  });
  test.prop([validOdds], { numRuns: 300 })('round trip returns the normalized odds', (o) => {
    expect(invertOdds(invertOdds(o))).toBe(normalizeOdds(o));
    expect(isValidAmericanOdds(invertOdds(o))).toBe(true);
  });
});

describe('payout, decimal, implied probability', () => {
  it('matches known values', () => {
    expect(payout(150)).toBe(1.5);
    expect(payout(-200)).toBe(0.5);
    expect(payout(-110)).toBeCloseTo(0.909090909, 9);
    expect(payout(100)).toBe(1);
    expect(toDecimal(150)).toBe(2.5);
    expect(toDecimal(-110)).toBeCloseTo(1.909090909, 9);
    expect(toDecimal(-100)).toBe(2);
    expect(impliedProbability(100)).toBe(0.5);
    expect(impliedProbability(150)).toBeCloseTo(0.4, 12);
    expect(impliedProbability(-110)).toBeCloseTo(0.523809524, 9);
    expect(impliedProbability(-300)).toBeCloseTo(0.75, 12);
  });
  test.prop([validOdds], { numRuns: 300 })('decimal = 1 + payout and probability in (0, 1)', (o) => {
    expect(toDecimal(o)).toBeCloseTo(1 + payout(o), 12);
    const p = impliedProbability(o);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1);
    // a price and its inverse are complementary (no margin)
    expect(impliedProbability(o) + impliedProbability(invertOdds(o))).toBeCloseTo(1, 12);
  });
});

describe('fromDecimal / fromProbability', () => {
  it('converts exact prices', () => {
    expect(fromDecimal(2.5)).toBe(150);
    expect(fromDecimal(1.5)).toBe(-200);
    expect(fromDecimal(2)).toBe(100);
    expect(fromProbability(0.5)).toBe(100);
    expect(fromProbability(0.4)).toBe(150);
    expect(fromProbability(0.6)).toBe(-150);
    expect(fromProbability(0.75)).toBe(-300);
  });
  it('rounds in the requested direction', () => {
    // 1.909 → -110.01
    expect(fromDecimal(1.909)).toBe(-110);
    expect(fromDecimal(1.909, 'lower-payout')).toBe(-111);
    expect(fromDecimal(1.909, 'higher-payout')).toBe(-110);
    // 2.105 → +110.5 (decimal noise must not flip the half)
    expect(fromDecimal(2.105)).toBe(111);
    expect(fromDecimal(2.105, 'lower-payout')).toBe(110);
    expect(fromDecimal(2.105, 'higher-payout')).toBe(111);
    // 0.55 → 1.8181… → -122.2
    expect(fromProbability(0.55)).toBe(-122);
    expect(fromProbability(0.55, 'lower-payout')).toBe(-123);
    expect(fromProbability(0.55, 'higher-payout')).toBe(-122);
    // 0.3 → 3.333… → +233.3
    expect(fromProbability(0.3, 'lower-payout')).toBe(233);
    expect(fromProbability(0.3, 'higher-payout')).toBe(234);
  });
  // fromDecimal skips the 12-significant-digit string round trip where it cannot matter;
  // this is the rounding it must agree with, bit for bit, everywhere.
  const ROUNDINGS = ['nearest', 'lower-payout', 'higher-payout'] as const;
  function referenceFromDecimal(decimal: number, rounding: (typeof ROUNDINGS)[number]): number {
    const raw = decimal >= 2 ? (decimal - 1) * 100 : -100 / (decimal - 1);
    const round = rounding === 'nearest' ? Math.round : rounding === 'lower-payout' ? Math.floor : Math.ceil;
    const rounded = round(Number(raw.toPrecision(12)));
    return rounded > -100 && rounded < 100 ? 100 : normalizeOdds(rounded);
  }
  it('agrees with rounding to 12 significant digits first, next to whole and half prices too', () => {
    const decimals: number[] = [];
    for (let a = 100; a <= 10000; a++) {
      for (const x of [a, a + 0.5]) {
        // Prices on, and a few units of rounding noise either side of, a whole or half American price.
        for (const d of [1 + x / 100, 1 + 100 / x])
          for (let k = -4; k <= 4; k++) decimals.push(d + k * Number.EPSILON * d);
        for (const eps of [1e-13, 1e-12, 5e-12, 1e-11, 2e-11, 1e-10])
          decimals.push(
            1 + (x * (1 + eps)) / 100,
            1 + (x * (1 - eps)) / 100,
            1 + 100 / (x * (1 + eps)),
            1 + 100 / (x * (1 - eps)),
          );
      }
    }
    for (let i = 1; i < 10000; i++) decimals.push(1 / (i / 10000));
    decimals.push(1e6, 1e9, 1e12, 1e15, 1.23456789012345e20, 1e300, 1 + 1e-9, 1 + 1e-13, Number.MAX_VALUE);
    const differing: string[] = [];
    for (const d of decimals) {
      if (!(d > 1)) continue;
      for (const r of ROUNDINGS) if (fromDecimal(d, r) !== referenceFromDecimal(d, r)) differing.push(`${d} ${r}`);
    }
    expect(differing).toEqual([]);
  });
  test.prop([fc.double({ min: 1, max: 1e12, noNaN: true, minExcluded: true }), fc.constantFrom(...ROUNDINGS)], {
    numRuns: 2000,
  })('agrees with rounding to 12 significant digits first, for any decimal', (d, r) => {
    expect(fromDecimal(d, r)).toBe(referenceFromDecimal(d, r));
  });
  it('snaps results inside (-100, 100) to +100', () => {
    expect(fromDecimal(1.999)).toBe(100);
    expect(fromDecimal(1.999, 'higher-payout')).toBe(100);
    expect(fromDecimal(1.999, 'lower-payout')).toBe(-101);
  });
  it('rejects out-of-domain input', () => {
    expect(() => fromDecimal(1)).toThrow(RangeError);
    expect(() => fromDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => fromProbability(0)).toThrow(RangeError);
    expect(() => fromProbability(1)).toThrow(RangeError);
  });
  test.prop([fc.double({ min: 1.01, max: 50, noNaN: true })], { numRuns: 300 })(
    'lower-payout ≤ nearest ≤ higher-payout, all valid',
    (d) => {
      const lo = fromDecimal(d, 'lower-payout');
      const mid = fromDecimal(d);
      const hi = fromDecimal(d, 'higher-payout');
      for (const o of [lo, mid, hi]) expect(isValidAmericanOdds(o)).toBe(true);
      expect(compareForTaker(lo, mid)).toBeLessThanOrEqual(0);
      expect(compareForTaker(mid, hi)).toBeLessThanOrEqual(0);
      expect(payout(lo)).toBeLessThanOrEqual(d - 1 + 1e-9);
      expect(payout(hi)).toBeGreaterThanOrEqual(d - 1 - 1e-9);
    },
  );
  test.prop([validOdds], { numRuns: 300 })('exact decimal prices round trip', (o) => {
    expect(fromDecimal(toDecimal(o))).toBe(normalizeOdds(o));
  });
});

describe('compareForTaker', () => {
  it('orders prices by payout', () => {
    const sorted = [-300, -110, -101, 100, 101, 150, 300];
    const shuffled = [150, -101, 300, 100, -300, 101, -110];
    expect([...shuffled].sort(compareForTaker)).toEqual(sorted);
    expect(compareForTaker(150, 110)).toBeGreaterThan(0);
    expect(compareForTaker(-110, -105)).toBeLessThan(0);
    expect(compareForTaker(-101, 101)).toBeLessThan(0);
    expect(isAtLeastAsGoodForTaker(-105, -110)).toBe(true);
    expect(isAtLeastAsGoodForTaker(-110, -110)).toBe(true);
    expect(isAtLeastAsGoodForTaker(-115, -110)).toBe(false);
  });
  test.prop([validOdds, validOdds], { numRuns: 300 })('agrees with payout', (a, b) => {
    const c = compareForTaker(a, b);
    const pa = payout(a);
    const pb = payout(b);
    expect(Math.sign(c)).toBe(pa > pb ? 1 : pa < pb ? -1 : 0);
  });
});

describe('withinPostArbBand', () => {
  it('measures distance on the joined American scale', () => {
    expect(americanDistance(-110, -109)).toBe(1);
    expect(americanDistance(-110, 105)).toBe(15);
    expect(americanDistance(-101, 101)).toBe(2);
  });
  it('examples', () => {
    // distance 1 ≤ 1% of 109 = 1.09
    expect(withinPostArbBand(-110, -109)).toBe(true);
    // distance 15 > 1.05
    expect(withinPostArbBand(-110, 105)).toBe(false);
    // distance 2 > 1.01
    expect(withinPostArbBand(-101, 101)).toBe(false);
    expect(withinPostArbBand(-101, 100)).toBe(true);
    expect(withinPostArbBand(200, 202)).toBe(true);
    expect(withinPostArbBand(200, 203)).toBe(false);
    expect(withinPostArbBand(-110, -110)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { WARM_UP_MAX, WARM_UP_MIN, warmedUp } from '../../bench/backtest.bench.ts';

describe('the backtest bench warm-up', () => {
  it('goes on while the replays still climb', () => {
    // A fixed-spread replay's first rates, events/CPU-s: each well above the best before it.
    expect(warmedUp([10, 17, 26, 34, 37, 43])).toBe(false);
  });

  it('runs at least its minimum even when the rates are flat', () => {
    expect(warmedUp(Array(WARM_UP_MIN - 1).fill(100))).toBe(false);
    expect(warmedUp(Array(WARM_UP_MIN).fill(100))).toBe(true);
  });

  it('stops once the last three stay within 3% of the best before them', () => {
    expect(warmedUp([10, 40, 100, 101, 98, 102.9])).toBe(true);
    expect(warmedUp([10, 40, 100, 101, 98, 104])).toBe(false);
  });

  it('stops at its maximum whatever the rates do', () => {
    const climbing = Array.from({ length: WARM_UP_MAX }, (_, i) => 2 ** i);
    expect(warmedUp(climbing.slice(0, -1))).toBe(false);
    expect(warmedUp(climbing)).toBe(true);
  });
});

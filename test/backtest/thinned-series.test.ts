import { describe, expect, it } from 'vitest';
import { ThinnedSeries } from '../../src/backtest/report/thinned-series.ts';

/** Offers samples 0..n-1 (row [i]) to a series of at most `cap` rows; the sample indices it kept. */
function kept(n: number, cap: number): number[] {
  const s = new ThinnedSeries(cap);
  for (let i = 0; i < n; i++) if (s.wants()) s.push([i]);
  return s.rows.map((r) => r[0]!);
}

describe('a sampled series of bounded length', () => {
  it('keeps every sample while it has room', () => {
    expect(kept(8, 8)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('full, keeps every other row and then one sample in two: evenly spread, the first always kept', () => {
    expect(kept(9, 8)).toEqual([0, 2, 4, 6, 8]);
    expect(kept(16, 8)).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
    expect(kept(17, 8)).toEqual([0, 4, 8, 12, 16]);
  });

  it('never holds more than its cap, however long the replay', () => {
    const s = new ThinnedSeries(64);
    let most = 0;
    for (let i = 0; i < 1_000_000; i++) {
      if (s.wants()) s.push([i]);
      most = Math.max(most, s.length);
    }
    expect(most).toBe(64);
    expect(s.rows.length).toBeGreaterThan(32);
    // Evenly spread: one stride between every two rows kept.
    const stride = s.rows[1]![0]! - s.rows[0]![0]!;
    expect(s.rows.every((r, i) => r[0] === i * stride)).toBe(true);
  });

  it('asks for nothing it would drop', () => {
    const s = new ThinnedSeries(4);
    const asked: number[] = [];
    for (let i = 0; i < 12; i++)
      if (s.wants()) {
        asked.push(i);
        s.push([i]);
      }
    expect(asked).toEqual([0, 1, 2, 3, 4, 6, 8]);
    expect(s.rows.map((r) => r[0])).toEqual([0, 4, 8]);
  });

  it('keeps each row’s values exactly, rows of several values alike', () => {
    const s = new ThinnedSeries(5);
    const row = (i: number) => [1_768_478_400_000 + i * 10_000, -0.1 * i - 1e-13, i % 3 === 0 ? -0 : 1 / 3];
    for (let i = 0; i < 11; i++) if (s.wants()) s.push(row(i));
    expect(s.length).toBe(3);
    expect(s.rows).toEqual([row(0), row(4), row(8)]);
    expect(Object.is(s.rows[0]![2], -0)).toBe(true);
    expect(JSON.stringify(s.rows)).toBe(JSON.stringify([row(0), row(4), row(8)]));
  });

  it('gives back its spare room when trimmed, and grows again after', () => {
    const s = new ThinnedSeries();
    for (let i = 0; i < 70; i++) if (s.wants()) s.push([i, -i]);
    expect(s.room).toBe(130);
    s.trim();
    expect(s.room).toBe(70);
    expect(s.rows).toEqual(Array.from({ length: 70 }, (_, i) => [i, -i]));
    s.push([70, -70]);
    expect(s.rows.at(-1)).toEqual([70, -70]);
    expect(s.length).toBe(71);
    const empty = new ThinnedSeries();
    empty.trim();
    expect(empty.rows).toEqual([]);
  });

  it('refuses a row of another width than the first', () => {
    const s = new ThinnedSeries();
    s.push([1, 2, 3]);
    expect(() => s.push([1, 2])).toThrow(/a series row of 2 values in a series of rows of 3/);
  });
});

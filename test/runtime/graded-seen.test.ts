/**
 * The runtime's memory of graded rows (for regrade differences) stays bounded over a long
 * run: rows older than the retention, or beyond the row cap, are forgotten; a regrade of a
 * row still kept adds only its difference.
 */
import { describe, expect, it } from 'vitest';
import { GradedSeen } from '../../src/runtime/graded-seen.ts';

const HOUR = 3_600_000;

describe('GradedSeen', () => {
  it('adds only the difference of a newer version', () => {
    const seen = new GradedSeen();
    expect(seen.count('t1', 10, 0.1, 0)).toEqual({ result: 10, fee: 0.1 });
    expect(seen.count('t1', 0, 0, HOUR)).toEqual({ result: -10, fee: -0.1 });
    expect(seen.count('t1', 0, 0, 2 * HOUR)).toEqual({ result: 0, fee: 0 });
  });

  it('holds at most maxRows rows over a long run, the latest counted', () => {
    const seen = new GradedSeen({ maxRows: 1_000 });
    for (let i = 0; i < 50_000; i++) seen.count(`tx${i}`, 1, 0, i * 1_000);
    expect(seen.size).toBe(1_000);
    expect(seen.count('tx49999', 2, 0, 50_000_000)).toEqual({ result: 1, fee: 0 });
    // Forgotten: a newer version counts in full.
    expect(seen.count('tx0', 2, 0, 50_000_000)).toEqual({ result: 2, fee: 0 });
  });

  it('forgets rows counted longer ago than the retention', () => {
    const seen = new GradedSeen({ retentionMs: 24 * HOUR });
    const sizes: number[] = [];
    // Ten days of a row a minute.
    for (let m = 0; m < 10 * 24 * 60; m++) {
      seen.count(`tx${m}`, 1, 0, m * 60_000);
      sizes.push(seen.size);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(24 * 60 + 1);
    expect(seen.size).toBeLessThanOrEqual(24 * 60 + 1);
  });
});

import { describe, expect, it } from 'vitest';
import { largeFirstRunRows } from '../../bench/benchmarks-md.ts';
import type { LargeFirstRunResult } from '../../bench/large-first-run.ts';

const result = (first: number, later: number): LargeFirstRunResult => ({
  recording: 'large-recording',
  events: 1_732_048,
  minimalReadMs: 15_000,
  figures: [
    {
      config: 'example.yaml',
      firstMs: first * 15_000,
      laterMs: later * 15_000,
      firstRatio: first,
      laterRatio: later,
      buildThread: true,
    },
  ],
  goalFirstRatio: 2,
  goalLaterRatio: 1,
});

describe("BENCHMARKS.md's rows of the first and later runs over the large recording", () => {
  it('gives each ratio its own verdict', () => {
    const [row] = largeFirstRunRows(result(1.98, 1.01));
    expect(row![1]).toBe('first 1.98, later 1.01 (first 29.7 s, later 15.2 s, minimal read 15.0 s)');
    expect(row![2]).toBe('≤ 2 and ≤ 1: met and **not met**');
    expect(largeFirstRunRows(result(2.3, 0.4))[0]![2]).toBe('≤ 2 and ≤ 1: **not met** and met');
  });

  it('says where the first run read and wrote the tape', () => {
    expect(largeFirstRunRows(result(1.7, 0.3))[0]![0]).toMatch(/read and tape written on a thread of their own/);
  });

  it('says a recording that is not made was skipped', () => {
    expect(largeFirstRunRows(null)).toEqual([
      ['first and later runs over the large recording (scripts/make-large-recording.sh)', 'not made: skipped', '—'],
    ]);
  });
});

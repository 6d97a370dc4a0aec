import { describe, expect, it } from 'vitest';
import type { LargeReplayResult } from '../../bench/backtest.bench.ts';
import { largeQuotingRow } from '../../bench/benchmarks-md.ts';

const memory = {
  rss: 420e6,
  heapTotal: 180e6,
  heapUsed: 120e6,
  oldSpace: 140e6,
  newSpace: 32e6,
  external: 4e6,
  arrayBuffers: 2e6,
};
const replay = (maxRss: number): LargeReplayResult => ({
  recording: 'large-recording',
  config: 'fixed-spread.yaml',
  events: 1_732_048,
  placed: 232_508,
  fills: 9_011,
  tapeBytes: 278e6,
  tapeMs: 420,
  built: false,
  replayMs: 76_000,
  eventsPerSecond: 22_790,
  eventsPerCpuSecond: 21_300,
  maxRss,
  goalMaxRss: 300e6,
  memoryAtStart: memory,
  memoryAtEnd: memory,
});

describe("BENCHMARKS.md's row of a quoting backtest of the large recording", () => {
  it('names the config and what its rows grow with, and holds it to the replay bound', () => {
    const row = largeQuotingRow(replay(486e6));
    expect(row[0]).toMatch(/1,732,048 events, with `fixed-spread.yaml` \(232,508 orders placed, 9,011 fills;/);
    expect(row[1]).toMatch(/^463 MB \(22,790 events\/s, 21,300 per CPU second; at the end: V8 heap 172 MB/);
    expect(row[2]).toBe('≤ 286 MB: **not met**');
    expect(largeQuotingRow(replay(290e6))[2]).toBe('≤ 286 MB: met');
  });

  it('says a backtest that could not run was skipped', () => {
    expect(largeQuotingRow(null)[1]).toBe('not made: skipped');
  });
});

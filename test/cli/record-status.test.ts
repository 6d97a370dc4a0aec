import { describe, expect, it } from 'vitest';
import { recordStatusLine } from '../../src/cli/record.ts';
import type { RecorderStats } from '../../src/record/feed-recorder.ts';

const stats = {
  frames: { price: 10, user: 2 },
  bytes: 2 * 1024 * 1024,
  compressedBytes: 1024 * 1024,
  files: ['a'],
  snapshots: 3,
  gaps: 0,
  results: 1,
} as unknown as RecorderStats;

describe('record status line', () => {
  it('on a virtual or sped-up clock shows the exchange time reached and how much is recorded, beside the wall time', () => {
    const start = Date.UTC(2026, 0, 15, 12);
    const line = recordStatusLine(stats, 12.4, { now: start + 80 * 60_000 + 5_000, startedAt: start });
    expect(line).toMatch(/^recording 12s wall · exchange 2026-01-15T13:20:05Z \(1h20m05s recorded\) · frames 12 /);
    expect(line).toMatch(/results 1$/);
  });

  it('live, only the wall time', () => {
    expect(recordStatusLine(stats, 5)).toMatch(/^recording 5s wall · frames 12 /);
  });
});

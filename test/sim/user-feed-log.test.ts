import { describe, expect, it } from 'vitest';
import { parseMessageId, UserFeedLog } from '../../src/sim/feeds/user-feed-log.ts';
import { ManualClock } from '../../src/shared/clock.ts';

describe('user feed message ids', () => {
  it('are whole ms and a sequence on a clock that moves in fractions of a ms (a virtual clock with latencies)', () => {
    const clock = new ManualClock(1_768_478_624_551.902);
    const log = new UserFeedLog<string>(clock, () => ({ count: 100, ms: 60_000 }));
    const ids = [log.append('u', (id) => id), log.append('u', (id) => id)];
    clock.advance(0.05);
    ids.push(log.append('u', (id) => id));
    clock.advance(1);
    ids.push(log.append('u', (id) => id));
    expect(ids).toEqual(['1768478624551-0', '1768478624551-1', '1768478624551-2', '1768478624552-0']);
    // Every one is an id the contract's pattern reads (a client skips any other).
    expect(ids.every((id) => parseMessageId(id) !== null)).toBe(true);
  });
});

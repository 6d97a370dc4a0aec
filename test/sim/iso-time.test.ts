import { describe, expect, it } from 'vitest';
import { iso } from '../../src/sim/render/time.ts';

describe('iso', () => {
  it('spells instants of days taken by turns, of a third day, and outside its fast range as Date does', () => {
    const day = 86_400_000;
    const now = Date.UTC(2026, 0, 15, 12, 0, 0, 7);
    const start = Date.UTC(2026, 0, 17, 19, 30);
    const instants: number[] = [];
    // A message spells the clock's now and its game's start by turns; now and then a third day comes in between.
    for (let i = 0; i < 50; i++) instants.push(now + i * 37_123, start, ...(i % 7 === 0 ? [now + 5 * day + i] : []));
    instants.push(0, 1.9, -1, 253_402_300_799_999, 253_402_300_800_000);
    for (const ms of instants) expect(iso(ms)).toBe(new Date(ms).toISOString());
  });
});

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

  it('spells instants again, within one second, and by turns with another, as Date does', () => {
    const now = Date.UTC(2026, 2, 1, 23, 59, 59, 990);
    const start = Date.UTC(2026, 2, 2, 1, 0);
    const instants: number[] = [];
    // Bursts of one instant, the next milliseconds of its second and past its end, a start between them, fractions.
    for (let i = 0; i < 30; i++) instants.push(now + i, now + i, start, now + i + 0.5, start + i * 1000, now + i);
    instants.push(0, 0.4, 999, 1000, 1000.999, 59_999, 60_000, 3_599_999, 3_600_000, 86_399_999, 86_400_000);
    for (const ms of instants) expect(iso(ms)).toBe(new Date(ms).toISOString());
  });
});

import { describe, expect, it } from 'vitest';
import { DurationError, parseDuration } from '../../src/shared/duration.ts';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['45s', 45_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['2d', 172_800_000],
    ['1d2h3m4s5ms', 86_400_000 + 7_200_000 + 180_000 + 4000 + 5],
    ['1.5s', 1500],
    ['0.25h', 900_000],
    [' 1h 30m ', 5_400_000],
    ['1H30M', 5_400_000],
    ['0', 0],
    ['0s', 0],
  ])('%j is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['', /it is empty/],
    ['   ', /it is empty/],
    ['45', /a unit is missing \(write e\.g\. 45s or 45ms/],
    ['-5s', /cannot be negative/],
    ['5x', /cannot read "5x"/],
    ['10min', /cannot read "10min"/],
    ['1h30', /cannot read "30"/],
    ['30m1h', /largest first/],
    ['1s1s', /each unit once/],
    ['s', /cannot read "s"/],
    ['1.5ms', /finer than a millisecond/],
    ['1e3s', /cannot read/],
    ['99999999999999d', /too long/],
  ])('%j is refused: %s', (text, reason) => {
    let err: unknown;
    try {
      parseDuration(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DurationError);
    expect((err as DurationError).input).toBe(text);
    expect((err as Error).message).toMatch(
      new RegExp(`^invalid duration ${JSON.stringify(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `),
    );
    expect((err as Error).message).toMatch(reason);
  });
});

import { describe, expect, it } from 'vitest';
import { LastTwo } from '../../src/sim/render/last-two.ts';

describe('LastTwo', () => {
  it('keeps the strings of the last two keys set or read, and forgets the third', () => {
    const kept = new LastTwo();
    expect(kept.get(1)).toBeUndefined();
    kept.set(1, 'one');
    kept.set(2, 'two');
    expect(kept.get(1)).toBe('one');
    expect(kept.get(2)).toBe('two');
    // 1 was read before 2: setting 3 keeps 2 (the newer) and lets 1 go.
    kept.set(3, 'three');
    expect(kept.get(1)).toBeUndefined();
    expect(kept.get(2)).toBe('two');
    expect(kept.get(3)).toBe('three');
    // Reading the older makes it the newer: 2 is read last, so setting 4 lets 3 go.
    expect(kept.get(2)).toBe('two');
    kept.set(4, 'four');
    expect(kept.get(3)).toBeUndefined();
    expect(kept.get(2)).toBe('two');
    expect(kept.get(4)).toBe('four');
  });
});

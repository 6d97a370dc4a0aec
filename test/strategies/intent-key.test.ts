import { describe, expect, it } from 'vitest';
import { levelKey, sideKey } from '../../src/strategy/index.ts';

describe('intent keys', () => {
  it('joins a book key with its side, and with its level', () => {
    expect(sideKey('moneyline', 0)).toBe('moneyline:0');
    expect(sideKey('spread:-3.5', 1)).toBe('spread:-3.5:1');
    expect(levelKey('total:210.5', 0, 0)).toBe('total:210.5:0:0');
    expect(levelKey('total:210.5', 1, 0)).toBe('total:210.5:1:0');
    expect(levelKey('total:210.5', 0, 3)).toBe('total:210.5:0:3');
    expect(levelKey('total:210.5', 1, 12)).toBe('total:210.5:1:12');
  });

  it('gives each key apart from every other, whatever order they are first asked in', () => {
    const keys = new Set<string>();
    for (const book of ['moneyline', 'spread:-3.5', 'spread:3.5'])
      for (let level = 4; level >= 0; level--)
        for (const side of [1, 0] as const) {
          keys.add(levelKey(book, side, level));
          keys.add(sideKey(book, side));
        }
    expect(keys.size).toBe(3 * 5 * 2 + 3 * 2);
    for (const k of keys) expect(k.split(':').length).toBeGreaterThanOrEqual(2);
  });
});

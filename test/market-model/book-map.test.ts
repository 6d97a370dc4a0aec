import { describe, expect, it } from 'vitest';
import { BookMap } from '../../src/market-model/book-map.ts';
import type { MarketBook } from '../../src/market-model/types.ts';

const book = (key: string, n = 0): MarketBook =>
  ({
    key,
    type: 'total',
    sides: [
      { offers: [], epoch: n },
      { offers: [], epoch: null },
    ],
  }) as unknown as MarketBook;

/** Everything a reader can see of a map, in its order. */
function contents(m: ReadonlyMap<string, MarketBook>) {
  const each: [string, MarketBook][] = [];
  m.forEach((v, k, self) => {
    expect(self).toBe(m);
    each.push([k, v]);
  });
  return {
    size: m.size,
    entries: [...m],
    viaEntries: [...m.entries()],
    keys: [...m.keys()],
    values: [...m.values()],
    each,
    lookups: ['a', 'b', 'c', 'z'].map((k) => [m.has(k), m.get(k)]),
  };
}

describe('BookMap', () => {
  it('reads as a copy of the live map, in its order', () => {
    const live = new Map([
      ['b', book('b')],
      ['a', book('a')],
      ['c', book('c')],
    ]);
    const m = BookMap.of(live, null);
    expect(contents(m)).toEqual(contents(new Map(live)));
    expect(contents(m)).toEqual(contents(m)); // a second walk reads the same
    expect(new Map(m)).toEqual(live);
  });

  it('never changes after the live map does, and the next one reads the new books', () => {
    const live = new Map([
      ['a', book('a')],
      ['b', book('b')],
    ]);
    const first = BookMap.of(live, null);
    const before = contents(first);
    live.set('a', book('a', 1)); // a book replaced: same keys
    const second = BookMap.of(live, first);
    live.delete('a');
    live.set('c', book('c')); // the keys change
    live.set('a', book('a', 2)); // and their order
    const third = BookMap.of(live, second);
    expect(contents(first)).toEqual(before);
    expect(second.get('a')!.sides[0].epoch).toBe(1);
    expect(contents(third)).toEqual(contents(new Map(live)));
    expect([...third.keys()]).toEqual(['b', 'c', 'a']);
    expect(third.get('a')!.sides[0].epoch).toBe(2);
    expect(third.get('c')).toBe(live.get('c'));
  });

  it('the same keys in another order are read in the new order', () => {
    const live = new Map([
      ['a', book('a')],
      ['b', book('b')],
    ]);
    const first = BookMap.of(live, null);
    live.delete('a');
    live.set('a', book('a', 1));
    const second = BookMap.of(live, first);
    expect([...second]).toEqual([...live]);
    expect(second.get('a')).toBe(live.get('a'));
    expect(second.get('b')).toBe(live.get('b'));
  });

  it('an empty game lists nothing', () => {
    const m = BookMap.of(new Map(), null);
    expect(contents(m)).toEqual(contents(new Map()));
  });
});

import { describe, expect, it } from 'vitest';
import { BookSide } from '../../src/engine/matching-book.ts';
import type { OrderState } from '../../src/engine/order-state.ts';

/** The two fields a side reads of an order: its odds, and the level it rests at. */
const order = (odds: number) => ({ odds, level: null }) as unknown as OrderState;

describe('a book side keeps a bounded number of emptied levels aside', () => {
  it('holds the listed levels and at most four spares, however many prices it has seen', () => {
    const side = new BookSide();
    side.add(order(150));
    // A quote moving through 200 prices, placed and cancelled alone at each.
    for (let i = 0; i < 200; i++) {
      const o = order(-300 - i);
      side.add(o);
      side.remove(o);
    }
    expect(side.levels).toHaveLength(1);
    expect(side.heldLevels).toBeLessThanOrEqual(1 + 4);
  });

  it('lists a spare again at its place, best price for the taker first', () => {
    const side = new BookSide();
    const a = order(-110);
    side.add(a);
    side.remove(a);
    expect(side.levels).toHaveLength(0);
    const b = order(120);
    const c = order(-110);
    side.add(b);
    side.add(c);
    expect(side.levels.map((l) => [l.listedOdds, l.orders])).toEqual([
      [110, [c]],
      [-120, [b]],
    ]);
    expect(side.heldLevels).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import type { OwnFill, OwnOrder } from '../../src/market-model/types.ts';
import type { AwaitedFill } from '../../src/orders/fill-ledger.ts';
import { LiabilityCache } from '../../src/orders/liability-cache.ts';
import { worstCaseLiability } from '../../src/money/liability.ts';
import { ownFill, restingOrder } from '../market-model/support.ts';

/** A cache over plain records, changed the way the own book changes them. */
function fixture() {
  const live = new Map<string, OwnOrder[]>();
  const fills = new Map<string, OwnFill[]>();
  const cache = new LiabilityCache({
    commissionRate: () => 0,
    sources: {
      live: (g) => live.get(g) ?? [],
      fills: (g) => fills.get(g) ?? [],
      awaited: () => new Map<string, AwaitedFill>(),
    },
  });
  const add = (o: OwnOrder) => {
    cache.openGame(o.gameID);
    live.set(o.gameID, [...(live.get(o.gameID) ?? []), o]);
    cache.orderChanged(null, o);
  };
  const book = (f: OwnFill) => {
    cache.openGame(f.gameID);
    fills.set(f.gameID, [...(fills.get(f.gameID) ?? []), f]);
    cache.fillBooked(f);
  };
  return { cache, add, book };
}

describe('LiabilityCache', () => {
  it('keeps the projected worst case until a change on its game, and sums it over unsettled games', () => {
    const { cache, add, book } = fixture();
    add(restingOrder(1, 0, { gameID: 'a', bet: 10 }));
    add(restingOrder(2, 0, { gameID: 'b', bet: 20 }));
    expect(cache.projectedLiability('a')).toBe(-10);
    expect(cache.totalProjectedLiability()).toBe(-30);
    // A fill on a: its figure and the total move; the floor meanwhile stays below the exact figure.
    book(ownFill({ txID: 't1', gameID: 'a', amount: 5 }));
    expect(cache.projectedLowerBound('a')).toBeLessThanOrEqual(-15);
    expect(cache.projectedLiability('a')).toBe(-15);
    expect(cache.matchedLiability('a')).toBe(
      worstCaseLiability([{ selection: { type: 'moneyline', team: 'home' }, amount: 5, odds: 110, commissionRate: 0 }]),
    );
    expect(cache.totalProjectedLiability()).toBe(-35);
    cache.settle('b');
    expect(cache.isSettled('b')).toBe(true);
    expect(cache.totalProjectedLiability()).toBe(-15);
    expect(
      cache.projectedLiability('none', [
        { selection: { type: 'moneyline', team: 'home' }, amount: 3, odds: 100, commissionRate: 0 },
      ]),
    ).toBe(-3);
  });

  it('forgets a game: it leaves the total', () => {
    const { cache, add } = fixture();
    add(restingOrder(1, 0, { gameID: 'a', bet: 10 }));
    expect(cache.totalProjectedLiability()).toBe(-10);
    cache.forgetGame('a');
    expect(cache.totalProjectedLiability()).toBe(0);
    expect(cache.projectedLowerBound('a')).toBe(0);
  });

  it('sums every unsettled game whose figure is not cached, through opens, changes, settles and forgets', () => {
    const { cache, add } = fixture();
    add(restingOrder(1, 0, { gameID: 'a', bet: 10 }));
    expect(cache.totalProjectedLiability()).toBe(-10);
    // Cached a; b opens uncached.
    add(restingOrder(2, 0, { gameID: 'b', bet: 20 }));
    expect(cache.totalProjectedLiability()).toBe(-30);
    // Both cached; a change on a drops its figure only.
    add(restingOrder(3, 0, { gameID: 'a', bet: 5 }));
    expect(cache.totalProjectedLiability()).toBe(-35);
    // Settling an uncached game, then forgetting it and another, then opening a new one.
    add(restingOrder(4, 0, { gameID: 'b', bet: 1 }));
    cache.settle('b');
    expect(cache.totalProjectedLiability()).toBe(-15);
    cache.forgetGame('b');
    add(restingOrder(5, 0, { gameID: 'c', bet: 7 }));
    expect(cache.totalProjectedLiability()).toBe(-22);
    add(restingOrder(6, 0, { gameID: 'a', bet: 1 }));
    cache.forgetGame('a');
    add(restingOrder(7, 0, { gameID: 'd', bet: 2 }));
    expect(cache.totalProjectedLiability()).toBe(-9);
    // A settled game forgotten and opened again does not count.
    cache.settle('d');
    cache.forgetGame('d');
    add(restingOrder(8, 0, { gameID: 'd', bet: 3 }));
    add(restingOrder(9, 0, { gameID: 'e', bet: 4 }));
    expect(cache.totalProjectedLiability()).toBe(-11);
  });
});

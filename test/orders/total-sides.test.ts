import { describe, expect, it } from 'vitest';
import type { LookupOrder, UnmatchedOrder } from '../../src/exchange/schemas/orders.ts';
import { totalSidesOf } from '../../src/orders/total-sides.ts';
import { encodeReference } from '../../src/exchange/orders/user-reference.ts';
import { id, listGame, setup } from './support.ts';

/** A resting total of ours (by reference) as getUnmatched lists it: no side of its own, maybe an `OU` in lookupOrder's sense. */
const total = (n: number, extra: Partial<UnmatchedOrder> = {}): UnmatchedOrder =>
  ({
    id: id(100 + n),
    type: 'total',
    bet: 50,
    odds: 110,
    total: 210.5,
    filled: 0,
    offered: 50,
    remaining: 50,
    userReference: encodeReference('s', `c${n}`),
    game: { id: 'g' },
    ...extra,
  }) as UnmatchedOrder;

const lookupSaying = (ou: Record<string, string | null>) => async (orderID: string) => {
  if (!(orderID in ou)) throw new Error('503');
  return { id: orderID, OU: ou[orderID] } as unknown as LookupOrder;
};

describe('adopting a resting total: its side comes from lookupOrder, never from the listing', () => {
  it("lookupOrder's OU is the side offered: the order backs the other one", async () => {
    const sides = await totalSidesOf(
      [total(1), total(2), total(3), total(4, { type: 'moneyline' })],
      () => true,
      lookupSaying({ [id(101)]: 'under', [id(102)]: 'over', [id(103)]: null }),
    );
    expect([...sides]).toEqual([
      [id(101), 'over'],
      [id(102), 'under'],
    ]);
  });

  it('only the entries to adopt are looked up; a failed lookup leaves the order out', async () => {
    const asked: string[] = [];
    const sides = await totalSidesOf(
      [total(1), total(2)],
      (u) => u.id === id(102),
      async (orderID) => (asked.push(orderID), lookupSaying({})(orderID)),
    );
    expect(asked).toEqual([id(102)]);
    expect(sides.size).toBe(0);
  });

  it(
    'reconcile adopts a total on the looked-up side, even when the listing says the opposite ' +
      'in OU; without one it is cancelled, never adopted on a guess',
    async () => {
      const { own, market, orders, sent } = setup();
      listGame(market);
      // The listing's OU in lookupOrder's sense (the side offered) for an order backing over.
      const listed = [total(1, { OU: 'under' }), total(2, { OU: 'under' })];
      const sides = await totalSidesOf(listed, (u) => u.id === id(101), lookupSaying({ [id(101)]: 'under' }));
      const r = orders.reconcile(listed, [], { cancelForeign: false, gameLookup: () => true, totalSides: sides });
      expect(r).toMatchObject({ adopted: 1, foreign: 0 });
      expect(own.order('c1')?.selection).toEqual({ type: 'total', ou: 'over', line: 210.5 });
      expect(own.order('c2')).toBeUndefined();
      // Ours, but not countable: cancelled whatever cancelForeign says.
      expect(sent.cancels).toBe(1);
      expect(orders.stats.unreadableCancelled).toBe(1);
    },
  );
});

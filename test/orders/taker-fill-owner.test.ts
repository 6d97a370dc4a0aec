import { describe, expect, it } from 'vitest';
import type { CancelEntry } from '../../src/exchange/orders/types.ts';
import type { UserFeedMessageEvent } from '../../src/exchange/socket/index.ts';
import { AWAY, GAME, harness, id, restFirstPlaced, work } from './support.ts';

const ORDER_ID = id(50);

/**
 * A taker fill on the user feed names in `matched.orderID` the resting order it hit, not the
 * taker's own (feeds §8); the taker's own order is the one of its `userReference`.
 */
function takerFill(tx: string, userReference: string | null, amount: number): UserFeedMessageEvent {
  const fill = {
    txID: tx,
    orderID: ORDER_ID,
    wagerRequestID: id(900),
    userReference,
    type: 'moneyline',
    side: AWAY,
    odds: -110,
    amount,
    risk: amount * 1.01,
    win: (amount / 1.1) * 0.99,
  };
  return {
    type: 'takerFill',
    messageID: '1-3',
    source: 'live',
    message: { gameID: GAME },
    fill,
  } as unknown as UserFeedMessageEvent;
}

describe('a taker fill whose matched.orderID is one of our resting orders', () => {
  it('is not counted as a fill of that order when its userReference names none of ours', () => {
    const h = harness();
    h.orders.cycle(work(110));
    const { clientId, ref } = restFirstPlaced(h, ORDER_ID);
    h.clock.advance(10);
    h.orders.cycle(work(120));
    // The cancel answer says 60 of our order had matched: 60 is awaited until a fill of it is booked.
    const answer: CancelEntry = {
      ok: true,
      orderID: ORDER_ID,
      odds: 110,
      filled: 60,
      offered: 0,
      remaining: 40,
      gameID: GAME,
      userReference: ref,
      description: null,
    };
    h.orders.onResult({ kind: 'cancelled', clientIds: [clientId], entries: [answer] });
    expect(h.own.awaitedFill(clientId)).toBeCloseTo(60, 9);

    // Someone on the account (no reference of ours) took liquidity; the order it hit is ours by id.
    h.orders.onUserFeed(takerFill(id(701), null, 60));
    expect(h.own.fills(GAME)).toHaveLength(1);
    expect(h.own.fills(GAME)[0]).toMatchObject({ origin: 'wager', orderID: ORDER_ID });
    // The taker side of a fill is not our maker order's fill: still awaited.
    expect(h.own.awaitedFill(clientId)).toBeCloseTo(60, 9);
  });

  it('counts towards our own taker order, found by its userReference', () => {
    const h = harness();
    h.orders.cycle([
      {
        strategyId: 's',
        gameID: GAME,
        mode: 'active',
        intents: [
          { key: 'k', selection: { type: 'moneyline', team: 'away' }, odds: -110, size: 100, orderType: 'limit' },
        ],
      },
    ]);
    const ref = h.placed[0]!.userReference!;
    const clientId = h.own.byReference(ref)!.clientId;
    h.orders.onUserFeed(takerFill(id(702), ref, 100));
    expect(h.own.fills(GAME)).toHaveLength(1);
    expect(h.own.fills(GAME)[0]).toMatchObject({ origin: 'wager', strategyId: 's' });
    expect(h.own.order(clientId)?.orderID ?? null).not.toBe(ORDER_ID);
  });
});

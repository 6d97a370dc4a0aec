import { describe, expect, it } from 'vitest';
import type { UserFeedMessageEvent } from '../../src/exchange/socket/index.ts';
import type { PlaceEntry } from '../../src/exchange/orders/types.ts';
import { setup } from './support.ts';

const ORDER_ID = 'a'.repeat(24);

/** The user feed's view of our order `c1` (only the fields the order manager reads). */
function feed(type: 'orderPlaced' | 'makerFill', remaining: number): UserFeedMessageEvent {
  const order = { orderID: ORDER_ID, userReference: 'ls1:s:c1', offered: 50, remaining, filled: 50 - remaining };
  const fill = {
    txID: `tx-${remaining}`,
    orderID: ORDER_ID,
    userReference: 'ls1:s:c1',
    type: 'moneyline',
    side: 'home',
    odds: 110,
    amount: 50 - remaining,
    risk: 50 - remaining,
    win: 55 - remaining * 1.1,
  };
  const message = { gameID: 'g' };
  return (type === 'orderPlaced'
    ? { type, order, message, messageID: '1-1', source: 'live' }
    : {
        type,
        order,
        fill,
        message,
        partial: remaining > 0,
        messageID: '1-2',
        source: 'live',
      }) as unknown as UserFeedMessageEvent;
}

/** The place answer for `c1`: accepted, 50 resting, nothing matched (what was true when it was sent). */
const accepted: PlaceEntry = {
  status: 'accepted',
  userReference: 'ls1:s:c1',
  matched: [],
  resting: { orderID: ORDER_ID, wagerRequestID: 'b'.repeat(24), offered: 50 } as never,
};

// Found through a flaky end-to-end test: the user feed announced the order, the bot sent a
// cancel, and then the place answer set the order back to resting, so a second cancel went
// out for it and the order's state went backwards.
describe('a place answer that arrives after the user feed moved the order on', () => {
  it('leaves an order being cancelled in pending-cancel, and sends no second cancel', () => {
    const { own, orders, order, sent } = setup();
    order('c1', 'pending-place', null);
    orders.onUserFeed(feed('orderPlaced', 50));
    expect(own.order('c1')?.status).toBe('resting');
    expect(orders.cancelAll('test', { gameID: 'g' })).toBe(1);
    expect(own.order('c1')?.status).toBe('pending-cancel');
    orders.onResult({ kind: 'placed', clientIds: ['c1'], entries: [accepted] });
    expect(own.order('c1')?.status).toBe('pending-cancel');
    expect(orders.cancelAll('test', { gameID: 'g' })).toBe(0);
    expect(sent.cancels).toBe(1);
  });

  it('keeps the remaining size the user feed reported after a partial fill', () => {
    const { own, orders, order } = setup();
    order('c1', 'pending-place', null);
    orders.onUserFeed(feed('makerFill', 20));
    expect(own.order('c1')).toMatchObject({ status: 'partly-filled', remaining: 20 });
    orders.onResult({ kind: 'placed', clientIds: ['c1'], entries: [accepted] });
    expect(own.order('c1')).toMatchObject({ status: 'partly-filled', remaining: 20, orderID: ORDER_ID });
  });

  it('still takes the answer when it comes first', () => {
    const { own, orders, order } = setup();
    order('c1', 'pending-place', null);
    orders.onResult({ kind: 'placed', clientIds: ['c1'], entries: [accepted] });
    expect(own.order('c1')).toMatchObject({ status: 'resting', remaining: 50, orderID: ORDER_ID });
  });
});

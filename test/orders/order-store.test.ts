import { describe, expect, it } from 'vitest';
import type { OwnOrder } from '../../src/market-model/types.ts';
import { OrderStore, TERMINAL_RETENTION_MS } from '../../src/orders/order-store.ts';
import { restingOrder } from '../market-model/support.ts';

describe('OrderStore', () => {
  it('tells a change before its transition, and keeps live orders per game in the order games were opened', () => {
    const heard: string[] = [];
    const store = new OrderStore({
      onChange: (before, after) => heard.push(`change ${before?.status ?? '-'}>${after.status}`),
      onTransition: (o, from) => heard.push(`transition ${from ?? '-'}>${o.status}`),
    });
    store.openGame('b');
    store.openGame('a');
    store.add(restingOrder(1, 0, { gameID: 'a' }), 'test');
    store.add(restingOrder(2, 0, { gameID: 'b' }), 'test');
    store.apply('c1', { kind: 'cancel-sent' }, 1, 'test');
    expect(heard).toEqual([
      'change ->resting',
      'transition ->resting',
      'change ->resting',
      'transition ->resting',
      'change resting>pending-cancel',
      'transition resting>pending-cancel',
    ]);
    expect(store.liveOrders().map((o) => o.clientId)).toEqual(['c2', 'c1']);
    store.apply('c1', { kind: 'cancelled', amounts: { remaining: 0 } }, 2, 'test');
    expect([...store.liveIn('a')]).toEqual([]);
    expect(store.liveCount()).toBe(1);
    expect(store.clientIdOf('o1')).toBe('c1');
  });

  it('keeps a finished order past its retention while it is still needed, and forgets it once retained again', () => {
    const needed = new Set(['c1']);
    const forgotten: OwnOrder[] = [];
    const store = new OrderStore({
      onChange: () => {},
      stillNeeded: (o) => needed.has(o.clientId),
      onForget: (o) => forgotten.push(o),
    });
    store.add(restingOrder(1, 0), 'test');
    store.apply('c1', { kind: 'cancelled', amounts: { remaining: 0 } }, 0, 'test');
    store.add(restingOrder(2, 0), 'test');
    store.apply('c2', { kind: 'cancelled', amounts: { remaining: 0 } }, TERMINAL_RETENTION_MS + 1, 'test');
    expect(store.order('c1')?.status).toBe('cancelled');
    needed.delete('c1');
    store.retainFrom('c1', TERMINAL_RETENTION_MS + 1);
    store.add(restingOrder(3, 0), 'test');
    store.apply('c3', { kind: 'cancelled', amounts: { remaining: 0 } }, 2 * TERMINAL_RETENTION_MS + 2, 'test');
    expect(store.order('c1')).toBeUndefined();
    expect(store.byOrderID('o1')).toBeUndefined();
    expect(store.byReference('r1')).toBeUndefined();
    // In the order their retention ran out: c2's began before c1's began again.
    expect(forgotten.map((o) => o.clientId)).toEqual(['c2', 'c1']);
  });

  it('counts an event the table refuses and changes nothing', () => {
    const refused: string[] = [];
    const store = new OrderStore({ onChange: () => {}, onIllegalTransition: (e) => refused.push(e.code) });
    const o = store.add(restingOrder(1, 0), 'test');
    store.apply('c1', { kind: 'filled', amounts: { filled: 10, remaining: 0 } }, 1, 'test');
    expect(store.apply('c1', { kind: 'cancel-sent' }, 2, 'test').status).toBe('filled');
    expect(store.order('c1')).not.toBe(o);
    expect(store.lifecycle.illegal + store.lifecycle.late).toBeGreaterThan(0);
    expect(store.lifecycle.illegal).toBe(refused.length);
  });
  it('tells whether any live order has a status, and stops once none has', () => {
    const store = new OrderStore({ onChange: () => {} });
    store.openGame('a');
    store.add(restingOrder(1, 0, { gameID: 'a' }), 'test');
    store.add(restingOrder(2, 0, { gameID: 'b' }), 'test');
    expect(store.hasLiveWithStatus('resting')).toBe(true);
    expect(store.hasLiveWithStatus('pending-cancel')).toBe(false);
    store.apply('c2', { kind: 'cancel-sent' }, 1, 'test');
    expect(store.hasLiveWithStatus('pending-cancel')).toBe(true);
    store.apply('c2', { kind: 'cancelled', amounts: { remaining: 0 } }, 2, 'test');
    expect(store.hasLiveWithStatus('pending-cancel')).toBe(false);
    expect(store.hasLiveWithStatus('cancelled')).toBe(false);
  });
  it('answers for an order id as isOurOrderID does, as ids come and go', () => {
    const store = new OrderStore({ onChange: () => {} });
    const ours = store.orderIDTest();
    expect(ours('o1')).toBe(false);
    store.add(restingOrder(1, 0), 'test');
    expect(ours('o1')).toBe(true);
    expect(ours('o2')).toBe(false);
    store.apply('c1', { kind: 'cancelled', amounts: { remaining: 0 } }, 0, 'test');
    store.add(restingOrder(2, 0), 'test');
    store.apply('c2', { kind: 'cancelled', amounts: { remaining: 0 } }, TERMINAL_RETENTION_MS + 1, 'test');
    expect(store.isOurOrderID('o1')).toBe(false);
    expect(ours('o1')).toBe(false);
    expect(ours('o2')).toBe(true);
  });

  it('shares each list of live orders, per strategy, until an order of the game moves', () => {
    const store = new OrderStore({ onChange: () => {} });
    store.openGame('g');
    const add = (n: number, strategyId: string | null): void => {
      store.add({ ...restingOrder(n), strategyId }, 'test');
    };
    add(1, 'a');
    add(2, 'b');
    add(3, null);
    add(4, 'a');
    const ids = (list: readonly OwnOrder[]): string[] => list.map((o) => o.clientId);
    const a = store.liveListOf('g', 'a');
    const b = store.liveListOf('g', 'b');
    const none = store.liveListOf('g', null);
    const all = store.liveListOf('g');
    expect([ids(a), ids(b), ids(none), ids(all)]).toEqual([['c1', 'c4'], ['c2'], ['c3'], ['c1', 'c2', 'c3', 'c4']]);
    expect(Object.isFrozen(a) && Object.isFrozen(b) && Object.isFrozen(all)).toBe(true);
    expect(store.liveListOf('g', 'b')).toBe(b);
    expect(store.liveListOf('g', 'a')).toBe(a);
    expect(store.liveListOf('g', null)).toBe(none);
    expect(store.liveListOf('g')).toBe(all);
    expect(store.liveListOf('other', 'a')).toEqual([]);
    // A move of one order makes every list of its game again: asked in another order this time.
    store.apply('c4', { kind: 'cancel-sent' }, 1, 'test');
    const b2 = store.liveListOf('g', 'b');
    expect(b2).not.toBe(b);
    expect(ids(b2)).toEqual(['c2']);
    expect(store.liveListOf('g', 'a').map((o) => o.status)).toEqual(['resting', 'pending-cancel']);
    store.apply('c1', { kind: 'cancelled', amounts: { remaining: 0 } }, 2, 'test');
    expect(ids(store.liveListOf('g', 'a'))).toEqual(['c4']);
    expect(ids(store.liveListOf('g'))).toEqual(['c2', 'c3', 'c4']);
    expect(ids(store.liveListOf('g', null))).toEqual(['c3']);
    expect(ids(store.liveListOf('g', 'b'))).toEqual(['c2']);
    // What was handed out before stays as it was.
    expect(ids(a)).toEqual(['c1', 'c4']);
  });
});

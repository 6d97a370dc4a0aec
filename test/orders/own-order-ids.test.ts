import { describe, expect, it } from 'vitest';
import type { OrderUpdate } from '../../src/exchange/schemas/price-feed.ts';
import { MarketModel } from '../../src/market-model/market-model.ts';
import type { OwnOrder } from '../../src/market-model/types.ts';
import { bookKeyOf, type Selection } from '../../src/markets/types.ts';
import { OrderStore, TERMINAL_RETENTION_MS } from '../../src/orders/order-store.ts';
import { restingOrder } from '../market-model/support.ts';
import { id, listGame } from './support.ts';

const AWAY = id(1);
const HOME = id(2);
const ML_HOME: Selection = { type: 'moneyline', team: 'home' };
const SPREAD_HOME: Selection = { type: 'spread', team: 'home', line: -3.5 };

/** One side of game `gameID` listing `ids` (a moneyline side for the away participant, or the home spread side). */
function update(gameID: string, book: 'moneyline' | 'spread', ids: readonly string[]): OrderUpdate {
  return {
    gameID,
    sport: 'basketball',
    league: 'NBA',
    type: book,
    participantID: book === 'moneyline' ? AWAY : HOME,
    ...(book === 'spread' ? { spread: -3.5 } : {}),
    sideOrders: ids.map((x) => ({
      id: x,
      type: book,
      gameID,
      participantID: book === 'moneyline' ? AWAY : HOME,
      odds: -110,
      sumUntaken: 50,
      bet: 50,
      ...(book === 'spread' ? { spread: -3.5 } : {}),
    })),
  } as OrderUpdate;
}

/** An order of ours on game 'g' or `gameID`, its exchange id `orderID` (null: not known yet). */
function order(n: number, orderID: string | null, o: { gameID?: string; selection?: Selection } = {}): OwnOrder {
  const r = restingOrder(n, 0, { gameID: o.gameID ?? 'g', selection: o.selection ?? ML_HOME });
  return orderID === null ? { ...r, orderID: null, status: 'pending-place' } : { ...r, orderID };
}

/**
 * A store and two models fed the same updates: one asking game by game (the store's
 * `ownOrderIDs`, which skips the games with no order id of ours), one asking about every
 * order (isOurOrderID). The flags read back are those of the first, checked against the second.
 */
function harness() {
  const store = new OrderStore({ onChange: () => {} });
  const byGame = new MarketModel(store.ownOrderIDs());
  const everyOrder = new MarketModel((x) => store.isOurOrderID(x));
  for (const m of [byGame, everyOrder]) listGame(m);
  /** Feed both models the update; the ids the per-game model flags as ours on that side. */
  const feed = (u: OrderUpdate): string[] => {
    // A fresh copy per model: each sees the update as a live feed would hand it over.
    const flagged = (m: MarketModel) =>
      m
        .applyOrderUpdate(structuredClone(u), 1)!
        .next.offers.filter((x) => x.mine)
        .map((x) => x.id);
    const a = flagged(byGame);
    expect(a).toEqual(flagged(everyOrder));
    return a;
  };
  return { store, byGame, feed };
}

describe('OrderStore.ownOrderIDs with the market model', () => {
  it('flags an order placed on a game that had no order of ours, once its id is known', () => {
    const { store, feed } = harness();
    expect(store.ownOrderIDs().ofGame('g')).toBeNull();
    expect(feed(update('g', 'moneyline', ['x1', 'x2']))).toEqual([]);
    store.add(order(1, null), 'test');
    // No id yet: nothing of the game can be ours.
    expect(store.ownOrderIDs().ofGame('g')).toBeNull();
    store.amend('c1', { orderID: 'x1' }, 1, 'test');
    expect(feed(update('g', 'moneyline', ['x1', 'x2']))).toEqual(['x1']);
    // Added with its id (adopted): ours at once.
    store.add(order(2, 'x2'), 'test');
    expect(feed(update('g', 'moneyline', ['x1', 'x2']))).toEqual(['x1', 'x2']);
  });

  it('still flags an order of ours after it was filled or cancelled, while the store keeps it', () => {
    const { store, feed } = harness();
    store.add(order(1, 'x1'), 'test');
    store.add(order(2, 'x2'), 'test');
    store.apply('c1', { kind: 'cancelled', amounts: { remaining: 0 } }, 1, 'test');
    store.apply('c2', { kind: 'filled', amounts: { remaining: 0, filled: 10 } }, 2, 'test');
    expect(store.liveCountOf('g')).toBe(0);
    // The exchange has not dropped them yet: still listed, still ours.
    expect(feed(update('g', 'moneyline', ['x1', 'y', 'x2']))).toEqual(['x1', 'x2']);
    // Once their retention is over the store forgets them, as isOurOrderID does.
    store.add(order(3, 'x3', { gameID: 'h' }), 'test');
    store.apply('c3', { kind: 'cancelled', amounts: { remaining: 0 } }, TERMINAL_RETENTION_MS + 10, 'test');
    expect(store.isOurOrderID('x1')).toBe(false);
    expect(feed(update('g', 'moneyline', ['x1', 'y', 'x2']))).toEqual([]);
    expect(store.ownOrderIDs().ofGame('g')).toBeNull();
    expect(store.ownOrderIDs().ofGame('h')).not.toBeNull();
  });

  it('flags orders of ours on any market of a game, whichever market its other orders are on', () => {
    const { store, feed } = harness();
    store.add(order(1, 'x1'), 'test');
    store.apply('c1', { kind: 'cancelled', amounts: { remaining: 0 } }, 1, 'test');
    store.add(order(2, 'x2', { selection: SPREAD_HOME }), 'test');
    expect(feed(update('g', 'spread', ['y', 'x2']))).toEqual(['x2']);
    expect(feed(update('g', 'moneyline', ['x1', 'x2']))).toEqual(['x1', 'x2']);
    // Asked about a game with an order of ours, the answer is isOurOrderID's, whatever game the id names.
    store.add(order(3, 'x3', { gameID: 'h' }), 'test');
    expect(feed(update('g', 'moneyline', ['x3']))).toEqual(['x3']);
  });

  it('keeps a game counted while an order id of ours still names an order of it', () => {
    const { store, feed } = harness();
    // An order that got a second id: both still name it, as isOurOrderID has them.
    store.add(order(1, 'x1'), 'test');
    store.amend('c1', { orderID: 'x9' }, 1, 'test');
    store.apply('c1', { kind: 'cancelled', amounts: { remaining: 0 } }, 2, 'test');
    store.add(order(2, 'x2', { gameID: 'h' }), 'test');
    store.apply('c2', { kind: 'cancelled', amounts: { remaining: 0 } }, TERMINAL_RETENTION_MS + 10, 'test');
    expect(store.isOurOrderID('x1')).toBe(true);
    expect(store.isOurOrderID('x9')).toBe(false);
    expect(feed(update('g', 'moneyline', ['x1', 'x9']))).toEqual(['x1']);
  });

  it('flags an order listed before its id was known in the book of its selection when told that book', () => {
    const { store, byGame, feed } = harness();
    expect(feed(update('g', 'spread', ['x2']))).toEqual([]);
    store.add(order(2, null, { selection: SPREAD_HOME }), 'test');
    store.amend('c2', { orderID: 'x2' }, 1, 'test');
    expect(byGame.remarkMine('g', 'x2', 2, bookKeyOf(SPREAD_HOME))).toBe(true);
    const flags = byGame.book('g', bookKeyOf(SPREAD_HOME))!.sides.flatMap((s) => s.offers.map((x) => [x.id, x.mine]));
    expect(flags).toEqual([['x2', true]]);
    expect(byGame.remarkMine('g', 'x2', 3, bookKeyOf(SPREAD_HOME))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { RecordedMarket, type SideFlows } from '../../src/backtest/venue/recorded-market.ts';
import type { OrderbookGame } from '../../src/exchange/schemas/exchange.ts';
import type { OrderUpdate } from '../../src/exchange/schemas/price-feed.ts';

const A = 'a'.repeat(24);
const H = 'b'.repeat(24);
const G = 'c'.repeat(24);

const offer = (id: string, odds: number, sumUntaken: number) => ({
  id,
  odds,
  sumUntaken,
  bet: 100,
  type: 'moneyline',
  gameID: G,
  participantID: H,
});

function snapshot(): OrderbookGame {
  return {
    id: G,
    league: 'NBA',
    sport: 'basketball',
    live: false,
    start: '2026-05-01T00:00:00.000Z',
    participants: [
      { id: A, longName: 'Away', shortName: 'AW', homeAway: 'away' },
      { id: H, longName: 'Home', shortName: 'HO', homeAway: 'home' },
    ],
    homeMoneylines: [offer('1', 120, 50), offer('2', 110, 50), offer('3', 105, 50)],
    awayMoneylines: [],
    homeSpreads: [],
    awaySpreads: [],
    over: [],
    under: [],
    homeMoneylines1x2: [],
    awayMoneylines1x2: [],
    draw1x2: [],
    mainHomeSpread: null,
    mainTotal: null,
    matchedVolume: 0,
  } as unknown as OrderbookGame;
}

const home = (epoch: number, orders: ReturnType<typeof offer>[]): OrderUpdate =>
  ({
    epoch,
    gameID: G,
    sport: 'basketball',
    league: 'NBA',
    type: 'moneyline',
    participantID: H,
    sideOrders: orders,
  }) as OrderUpdate;

/**
 * Recorded updates in small steps: partial fills, trades explained by volume, a cancel, a
 * re-price, a vanish half explained. `at(n)` is told the number of each call into the market
 * before it is made; the flows come back with the number of the call that gave them.
 */
function replay(m: RecordedMarket, at: (n: number) => void = () => undefined): [number, SideFlows][] {
  const out: [number, SideFlows][] = [];
  let n = 0;
  const push = (f: SideFlows | readonly SideFlows[] | null) => {
    if (f === null) return;
    for (const x of 'flows' in f ? [f] : f) out.push([n, x]);
  };
  const call = <T>(f: () => T): T => {
    at(++n);
    return f();
  };
  const order = (u: OrderUpdate, t: number) => {
    push(call(() => m.settle(t)));
    push(call(() => m.applyOrderUpdate(u, t, m.resolveSide(u))));
  };
  const volume = (v: number, t: number) =>
    push(call(() => m.applyMatchedVolume({ gameID: G, matchedVolume: v } as never, t)));
  call(() => m.applySnapshot(snapshot(), 0));
  // '1' shrinks (20 traded), '2' vanishes and the volume explains half of it.
  order(home(1, [offer('1', 120, 30), offer('3', 105, 50)]), 10);
  volume(20 * 2.2 + 25 * 2.1, 10);
  // '3' vanishes without volume: cancelled at the next instant; '1' moves to another price.
  order(home(2, [offer('1', 115, 30)]), 20);
  order(home(3, [offer('1', 115, 30), offer('4', 125, 40)]), 30);
  // '4' vanishes, explained in full.
  order(home(4, [offer('1', 115, 30)]), 40);
  volume(20 * 2.2 + 25 * 2.1 + 40 * 2.25, 40);
  order(home(5, [offer('1', 115, 10)]), 50);
  push(call(() => m.settle(60)));
  return out;
}

describe('RecordedMarket: the flows of games nobody reads', () => {
  it('are not built, and a game read from any call on gets the very flows it would have', () => {
    const every = replay(new RecordedMarket());
    // The replay moves every kind of flow.
    const all = every.flatMap(([, f]) => f.flows);
    expect(all.some((f) => f.traded > 0)).toBe(true);
    expect(all.some((f) => f.cancelled > 0)).toBe(true);
    expect(all.some((f) => f.traded > 0 && f.cancelled > 0)).toBe(true);
    expect(replay(new RecordedMarket({ flowsWanted: () => false }))).toEqual([]);
    const calls = every.at(-1)![0];
    for (let from = 1; from <= calls; from++) {
      let n = 0;
      const late = replay(new RecordedMarket({ flowsWanted: () => n >= from }), (i) => (n = i));
      expect(late).toEqual(every.filter(([i]) => i >= from));
    }
  });
});

describe('RecordedMarket: cancels of several games due at once', () => {
  it('settle game by game in the order the games first changed, whatever order their orders vanished in', () => {
    const G2 = 'd'.repeat(24);
    const m = new RecordedMarket();
    m.applySnapshot(snapshot(), 0);
    m.applySnapshot({ ...snapshot(), id: G2 } as OrderbookGame, 0);
    const on = (gameID: string, epoch: number, orders: ReturnType<typeof offer>[]) =>
      ({ ...home(epoch, orders), gameID, sideOrders: orders.map((o) => ({ ...o, gameID })) }) as OrderUpdate;
    const apply = (u: OrderUpdate, t: number) => m.applyOrderUpdate(u, t, m.resolveSide(u));
    // G changes first (its '1' trades a little), then at one instant G2's '3' vanishes before G's '2'.
    expect(apply(on(G, 1, [offer('1', 120, 40), offer('2', 110, 50), offer('3', 105, 50)]), 5)).not.toBeNull();
    expect(apply(on(G2, 1, [offer('1', 120, 50), offer('2', 110, 50)]), 10)).toBeNull();
    expect(apply(on(G, 2, [offer('1', 120, 40), offer('3', 105, 50)]), 10)).toBeNull();
    expect(m.settle(10)).toEqual([]);
    const due = m.settle(20);
    expect(due.map((f) => [f.gameID, f.flows.map((x) => [x.traded, x.cancelled])])).toEqual([
      [G, [[0, 50]]],
      [G2, [[0, 50]]],
    ]);
    expect(m.settle(30)).toEqual([]);
  });
});

describe('RecordedMarket: orders vanished at one instant and the volume traded then', () => {
  it('count as traded best price first, whatever order they vanished in', () => {
    const m = new RecordedMarket();
    m.applySnapshot(snapshot(), 0);
    const apply = (u: OrderUpdate, t: number) => m.applyOrderUpdate(u, t, m.resolveSide(u));
    // '3' (the worst price) vanishes first, then '1' (the best), at the same instant.
    apply(home(1, [offer('1', 120, 50), offer('2', 110, 50)]), 10);
    apply(home(2, [offer('2', 110, 50)]), 10);
    // The volume of '1' alone: '1' traded, '3' cancelled.
    const flows = m.applyMatchedVolume({ gameID: G, matchedVolume: 50 * 2.2 } as never, 10);
    expect(flows.flatMap((f) => f.flows.map((x) => [x.rank, x.traded, x.cancelled]))).toEqual([
      [20, 50, 0],
      [5, 0, 50],
    ]);
  });
});

describe('RecordedMarket: a whole book vanished at one instant', () => {
  it('counts its trades best price first however many orders vanished, worst first', () => {
    // 40 prices, more than a sort by insertion takes: they vanish one by one, worst price first.
    const odds = Array.from({ length: 40 }, (_, i) => 200 - i);
    const listed = odds.map((o, i) => offer(`n${i}`, o, 10));
    const m = new RecordedMarket();
    m.applySnapshot({ ...snapshot(), homeMoneylines: listed } as OrderbookGame, 0);
    const apply = (u: OrderUpdate, t: number) => m.applyOrderUpdate(u, t, m.resolveSide(u));
    for (let k = 1; k <= listed.length; k++) apply(home(1 + k, listed.slice(0, listed.length - k)), 10);
    // The volume of the best three: they traded, the other 37 were cancelled.
    const volume = odds.slice(0, 3).reduce((s, o) => s + 10 * (1 + o / 100), 0);
    const flows = m.applyMatchedVolume({ gameID: G, matchedVolume: volume } as never, 10);
    const rows = flows.flatMap((f) => f.flows.map((x) => [x.rank, x.traded, x.cancelled]));
    expect(rows).toHaveLength(40);
    expect(rows.slice(0, 3).map((r) => [r[1], r[2]])).toEqual([
      [10, 0],
      [10, 0],
      [10, 0],
    ]);
    expect(rows.slice(3).every((r) => r[1] === 0 && r[2] === 10)).toBe(true);
    expect(rows.map((r) => r[0])).toEqual([...rows.map((r) => r[0]!)].sort((a, b) => b - a));
  });
});

describe('RecordedMarket: what we took, by game', () => {
  it('tells the games we took recorded liquidity from, and only those', () => {
    const m = new RecordedMarket();
    expect(m.hasConsumed()).toBe(false);
    expect(m.hasConsumedIn(G)).toBe(false);
    m.consume('r1', 20, G);
    expect(m.hasConsumed()).toBe(true);
    expect(m.hasConsumedIn(G)).toBe(true);
    expect(m.hasConsumedIn(H)).toBe(false);
    expect(m.consumedOf('r1')).toBe(20);
  });
});

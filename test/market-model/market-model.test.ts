import { describe, expect, it } from 'vitest';
import { MarketModel } from '../../src/market-model/market-model.ts';
import type { OrderbookGame } from '../../src/exchange/schemas/exchange.ts';
import type { OrderUpdate } from '../../src/exchange/schemas/price-feed.ts';

const A = 'a'.repeat(24);
const H = 'b'.repeat(24);
const G = 'c'.repeat(24);
const o = (id: string, odds: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'moneyline',
  sumUntaken: 50,
  odds,
  bet: 50,
  gameID: G,
  ...extra,
});

/** A moneyline side update of G for one team's participant (no epoch when `epoch` is undefined). */
const moneyline = (participantID: string, epoch: number | undefined, orders: ReturnType<typeof o>[]): OrderUpdate =>
  ({
    ...(epoch === undefined ? {} : { epoch }),
    gameID: G,
    sport: 'basketball',
    league: 'NBA',
    type: 'moneyline',
    participantID,
    sideOrders: orders,
  }) as OrderUpdate;

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
    homeMoneylines: [o('1', 105, { participantID: H }), o('2', 110, { participantID: H })],
    awayMoneylines: [o('3', -120, { participantID: A })],
    homeSpreads: [o('4', -105, { type: 'spread', participantID: H, spread: -3.5 })],
    awaySpreads: [],
    over: [o('5', 100, { type: 'total', OU: 'over', total: 210.5 })],
    under: [],
    homeMoneylines1x2: [],
    awayMoneylines1x2: [],
    draw1x2: [],
    mainHomeSpread: -3.5,
    mainTotal: 210.5,
    matchedVolume: 10,
  } as OrderbookGame;
}

describe('MarketModel', () => {
  it('builds books from the v2 snapshot in the taker perspective, best first, ours flagged by id', () => {
    const m = new MarketModel((id) => id === '2');
    const g = m.applySnapshot(snapshot(), 1)!;
    const ml = g.books.get('moneyline')!;
    expect(ml.sides[0].taker).toEqual({ type: 'moneyline', team: 'home' });
    expect(ml.sides[0].offers.map((x) => [x.id, x.odds, x.mine])).toEqual([
      ['2', 110, true],
      ['1', 105, false],
    ]);
    expect(ml.sides[1].offers.map((x) => x.id)).toEqual(['3']);
    expect(g.books.get('spread:-3.5')!.sides[0].offers.map((x) => x.id)).toEqual(['4']);
    expect(g.books.get('total:210.5')!.sides[0].offers.map((x) => x.id)).toEqual(['5']);
    expect(g.mainHomeSpread).toBe(-3.5);
  });

  it('replaces a side from orderUpdate, drops older epochs, and never mutates a snapshot it handed out', () => {
    const m = new MarketModel(() => false);
    const before = m.applySnapshot(snapshot(), 1)!;
    const update = (epoch: number, odds: number): OrderUpdate =>
      moneyline(A, epoch, [o('9', odds, { participantID: A })]);
    const change = m.applyOrderUpdate(update(5, -115), 2)!;
    expect(change.bookKey).toBe('moneyline');
    expect(change.side).toBe(1);
    expect(change.prev!.offers.map((x) => x.id)).toEqual(['3']);
    expect(change.next.offers.map((x) => [x.id, x.odds])).toEqual([['9', -115]]);
    const after = m.game(G)!;
    expect(after.books.get('moneyline')!.sides[1]).toBe(change.next);
    expect(after.updatedAt).toBe(2);
    expect(before.books.get('moneyline')!.sides[1].offers.map((x) => x.id)).toEqual(['3']);
    expect(before.updatedAt).toBe(1);
    expect(m.game(G)).toBe(after); // nothing changed since: the same snapshot
    expect(m.applyOrderUpdate(update(4, -130), 3)).toBeNull();
    expect(m.stats.staleUpdates).toBe(1);
    expect(m.game(G)).toBe(after);
    m.applyOrderUpdate({ ...update(6, -115), sideOrders: [] }, 4);
    const emptied = m.game(G)!;
    expect(emptied.books.get('moneyline')!.sides[1].offers).toEqual([]);
    expect(after.books.get('moneyline')!.sides[1].offers.map((x) => x.id)).toEqual(['9']);
  });

  it('applies an update without a change object as applyOrderUpdate does, the sides before and after at hand', () => {
    const update = (epoch: number, odds: number): OrderUpdate =>
      moneyline(A, epoch, [o('9', odds, { participantID: A })]);
    const quiet = new MarketModel(() => false);
    const full = new MarketModel(() => false);
    quiet.applySnapshot(snapshot(), 1);
    full.applySnapshot(snapshot(), 1);
    const u = update(5, -115);
    // Apart from each other (another update in between): each model builds its own side.
    expect(quiet.appliesOrderUpdate(u, 2)).toBe(true);
    full.applyOrderUpdate(update(5, -115), 2);
    expect(quiet.lastSideBefore!.offers.map((x) => x.id)).toEqual(['3']);
    expect(quiet.lastSideAfter).toBe(quiet.side(G, 'moneyline', 1));
    expect(quiet.lastSideAfter.offers).toEqual(full.side(G, 'moneyline', 1)!.offers);
    expect(quiet.appliesOrderUpdate(update(4, -130), 3)).toBe(false);
    expect(quiet.stats).toEqual({ orderUpdates: 2, staleUpdates: 1, unknownGames: 0, unreadableSides: 0 });
    // The same update object next to a second model: it shares the side and hands out the change.
    const v = update(6, -110);
    expect(quiet.appliesOrderUpdate(v, 4)).toBe(true);
    const change = full.applyOrderUpdate(v, 4)!;
    expect(change.next).toBe(quiet.lastSideAfter);
    expect(change.prev!.offers.map((x) => [x.id, x.odds])).toEqual([['9', -115]]);
    expect(change).toMatchObject({ gameID: G, bookKey: 'moneyline', side: 1 });
    expect(full.lastSideBefore).toBe(change.prev);
    expect(full.lastSideAfter).toBe(change.next);
  });

  it('says whether any book changed since a snapshot, and shares the books when only other fields changed', () => {
    const mine = new Set<string>();
    const m = new MarketModel((id) => mine.has(id));
    m.applySnapshot(snapshot(), 1);
    const first = m.game(G)!;
    expect(m.booksUnchangedSince(G, first.books)).toBe(true);
    expect(m.booksUnchangedSince(G, new Map(first.books))).toBe(false);
    expect(m.booksUnchangedSince('d'.repeat(24), first.books)).toBe(false);
    m.applyMatchedVolume({ gameID: G, matchedVolume: 10 } as Parameters<MarketModel['applyMatchedVolume']>[0], 2);
    const volume = m.game(G)!;
    expect(volume).not.toBe(first);
    expect(volume.matchedVolume).toBe(10);
    expect(volume.books).toBe(first.books);
    expect(m.booksUnchangedSince(G, first.books)).toBe(true);
    m.applyOrderUpdate(
      {
        gameID: G,
        sport: 'basketball',
        league: 'NBA',
        type: 'moneyline',
        participantID: A,
        sideOrders: [o('9', -115, { participantID: A })],
      } as OrderUpdate,
      3,
    );
    expect(m.booksUnchangedSince(G, first.books)).toBe(false);
    const moved = m.game(G)!;
    expect(moved.books).not.toBe(first.books);
    expect(m.booksUnchangedSince(G, moved.books)).toBe(true);
    mine.add('1');
    m.remarkMine(G, '1', 4);
    expect(m.booksUnchangedSince(G, moved.books)).toBe(false);
    const marked = m.game(G)!;
    m.applySnapshot(snapshot(), 5);
    expect(m.booksUnchangedSince(G, marked.books)).toBe(false);
    expect(first.books.get('moneyline')!.sides[1].offers.map((x) => x.id)).toEqual(['3']);
  });

  it('flags an order as ours once its id is known', () => {
    const mine = new Set<string>();
    const m = new MarketModel((id) => mine.has(id));
    m.applySnapshot(snapshot(), 1);
    mine.add('1');
    expect(m.remarkMine(G, '1', 2)).toBe(true);
    const g = m.game(G)!;
    expect(g.books.get('moneyline')!.sides[0].offers.find((x) => x.id === '1')!.mine).toBe(true);
  });

  it('flags an order as ours on every side that lists it, and leaves the rest and earlier snapshots as they were', () => {
    const mine = new Set<string>();
    const m = new MarketModel((id) => mine.has(id));
    m.applySnapshot(snapshot(), 1);
    // The same id on both sides of the moneyline (a feed may list anything) and nowhere else.
    m.applyOrderUpdate(moneyline(A, 1, [o('1', -120, { participantID: A }), o('6', -125, { participantID: A })]), 2);
    const before = m.game(G)!;
    const spread = before.books.get('spread:-3.5')!;
    expect(m.remarkMine(G, '9', 3)).toBe(false);
    expect(m.game(G)).toBe(before);
    mine.add('1');
    expect(m.remarkMine(G, '1', 4)).toBe(true);
    const after = m.game(G)!;
    const ml = after.books.get('moneyline')!;
    expect(ml.sides[0].offers.map((x) => [x.id, x.mine])).toEqual([
      ['2', false],
      ['1', true],
    ]);
    expect(ml.sides[1].offers.map((x) => [x.id, x.mine])).toEqual([
      ['1', true],
      ['6', false],
    ]);
    expect(ml.sides[1].offers[1]).toBe(before.books.get('moneyline')!.sides[1].offers[1]);
    expect(after.books.get('spread:-3.5')).toBe(spread);
    expect(after.updatedAt).toBe(4);
    expect(before.books.get('moneyline')!.sides[0].offers[0]!.mine).toBe(false);
    expect(m.remarkMine(G, '1', 5)).toBe(false);
  });

  it('keeps the objects of offers an update left as they were, and only those', () => {
    const mine = new Set<string>();
    const m = new MarketModel((id) => mine.has(id));
    m.applySnapshot(snapshot(), 1);
    const home = (epoch: number, orders: ReturnType<typeof o>[]): OrderUpdate => moneyline(H, epoch, orders);
    const ho = (id: string, odds: number, extra: Record<string, unknown> = {}) =>
      o(id, odds, { participantID: H, ...extra });
    const side = () => m.side(G, 'moneyline', 0)!.offers;
    m.applyOrderUpdate(home(1, [ho('a', 130), ho('b', 120), ho('c', 110), ho('d', 105)]), 2);
    const [a, , c, d] = side();
    // b is gone, c shrank, e is new and d became ours: a is kept, the rest are fresh and right.
    mine.add('d');
    m.applyOrderUpdate(home(2, [ho('a', 130), ho('c', 110, { sumUntaken: 20 }), ho('e', 108), ho('d', 105)]), 3);
    const now = side();
    expect(now.map((x) => [x.id, x.sumUntaken, x.mine])).toEqual([
      ['a', 50, false],
      ['c', 20, false],
      ['e', 50, false],
      ['d', 50, true],
    ]);
    expect(now[0]).toBe(a);
    expect(now[1]).not.toBe(c);
    expect(now[3]).not.toBe(d);
    // One gone, the next unchanged: the walk steps over the gap and keeps the object.
    m.applyOrderUpdate(home(3, [ho('a', 130), ho('e', 108), ho('d', 105)]), 3);
    const after = side();
    expect(after.map((x) => x.id)).toEqual(['a', 'e', 'd']);
    expect(after[0]).toBe(now[0]);
    expect(after[1]).toBe(now[2]);
    expect(after[2]).toBe(now[3]);
    // Every other field counts too: odds, original risk and postArb flag.
    let epoch = 10;
    for (const [field, value] of [
      ['odds', 131],
      ['bet', 60],
      ['isPostArb', true],
    ] as const) {
      m.applyOrderUpdate(home(++epoch, [ho('a', 130)]), 4);
      const before = side()[0];
      m.applyOrderUpdate(home(++epoch, [ho('a', 130, { [field]: value })]), 4);
      const after = side()[0]!;
      expect(after).not.toBe(before);
      expect(after[field]).toBe(value);
    }
  });

  it('given the very order objects of the update before, keeps their offers unless one became ours or was put in order', () => {
    const mine = new Set<string>();
    const m = new MarketModel((id) => mine.has(id));
    m.applySnapshot(snapshot(), 1);
    const ho = (id: string, odds: number) => o(id, odds, { participantID: H });
    const side = () => m.side(G, 'moneyline', 0)!.offers;
    // Best first on the wire: each offer is built from the order at its index.
    const [a, b, c] = [ho('a', 130), ho('b', 120), ho('c', 110)];
    m.applyOrderUpdate(moneyline(H, 1, [a, b, c]), 2);
    const first = side();
    // The same objects again, one gone and b now ours: a and c kept, b built again as ours.
    mine.add('b');
    m.applyOrderUpdate(moneyline(H, 2, [a, b, c]), 3);
    const second = side();
    expect(second.map((x) => [x.id, x.mine])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[2]).toBe(first[2]);
    // Out of order on the wire (so put in order): the next update's objects are compared field by field.
    const [x, y] = [ho('x', 100), ho('y', 140)];
    m.applyOrderUpdate(moneyline(H, 3, [x, y]), 4);
    expect(side().map((l) => l.id)).toEqual(['y', 'x']);
    const [ly, lx] = side();
    const y2 = { ...y, sumUntaken: 10 };
    m.applyOrderUpdate(moneyline(H, 4, [x, y2]), 5);
    expect(side().map((l) => [l.id, l.sumUntaken])).toEqual([
      ['y', 10],
      ['x', 50],
    ]);
    expect(side()[0]).not.toBe(ly);
    expect(side()[1]).toBe(lx);
  });
});

describe('MarketModel: two models fed the same update', () => {
  const home = (epoch: number, orders: ReturnType<typeof o>[]): OrderUpdate => moneyline(H, epoch, orders);
  const ho = (id: string, odds: number) => o(id, odds, { participantID: H });

  it('share the side list built once (out of order on the wire, so ordered), unless one of them sees an order as its own', () => {
    const mine = new Set<string>();
    const recorded = new MarketModel(() => false);
    const bot = new MarketModel((id) => mine.has(id));
    recorded.applySnapshot(snapshot(), 1);
    bot.applySnapshot(snapshot(), 1);
    const u = home(1, [ho('a', 120), ho('b', 130), ho('c', 110)]);
    recorded.applyOrderUpdate(u, 2);
    bot.applyOrderUpdate(u, 2);
    const shared = recorded.side(G, 'moneyline', 0)!.offers;
    expect(shared.map((x) => x.id)).toEqual(['b', 'a', 'c']);
    expect(bot.side(G, 'moneyline', 0)!.offers).toBe(shared);
    // The bot holds one of them: its list is its own, with the order flagged.
    mine.add('c');
    const v = home(2, [ho('a', 120), ho('c', 110)]);
    recorded.applyOrderUpdate(v, 3);
    bot.applyOrderUpdate(v, 3);
    const botSide = bot.side(G, 'moneyline', 0)!.offers;
    expect(botSide).not.toBe(recorded.side(G, 'moneyline', 0)!.offers);
    expect(botSide.map((x) => [x.id, x.mine])).toEqual([
      ['a', false],
      ['c', true],
    ]);
    expect(recorded.side(G, 'moneyline', 0)!.offers.map((x) => [x.id, x.mine])).toEqual([
      ['a', false],
      ['c', false],
    ]);
    // The same content in another update object is built afresh, and equal.
    const w = home(3, [ho('a', 120)]);
    recorded.applyOrderUpdate(w, 4);
    bot.applyOrderUpdate({ ...w, sideOrders: [ho('a', 120)] }, 4);
    expect(bot.side(G, 'moneyline', 0)!.offers).toEqual(recorded.side(G, 'moneyline', 0)!.offers);
  });
});

describe('MarketModel: a game taken as ended for missing from a read of the board', () => {
  const update = (epoch: number, orders: ReturnType<typeof o>[]): OrderUpdate => moneyline(A, epoch, orders);
  const resting = [o('9', 120, { participantID: A })];

  it('is on the board after all when one of its sides lists orders again; an emptied side proves nothing', () => {
    const m = new MarketModel(() => false);
    m.applySnapshot(snapshot(), 1);
    expect(m.markEnded(G, 2, { inferred: true })).toBe(true);
    m.applyOrderUpdate(update(5, []), 3);
    expect(m.game(G)?.ended).toBe(true);
    m.applyOrderUpdate(update(6, resting), 4);
    expect(m.game(G)?.ended).toBe(false);
  });

  it("ended on the exchange's word (a closing gameUpdate, or markEnded not inferred), it stays ended", () => {
    const closed = new MarketModel(() => false);
    closed.applySnapshot(snapshot(), 1);
    closed.markEnded(G, 2);
    closed.applyOrderUpdate(update(5, resting), 3);
    expect(closed.game(G)?.ended).toBe(true);

    const inferredThenClosed = new MarketModel(() => false);
    inferredThenClosed.applySnapshot(snapshot(), 1);
    inferredThenClosed.markEnded(G, 2, { inferred: true });
    inferredThenClosed.upsertGame({ ...snapshot(), ended: true }, 3, { ended: true });
    inferredThenClosed.applyOrderUpdate(update(6, resting), 4);
    expect(inferredThenClosed.game(G)?.ended).toBe(true);
  });
});

describe('MarketModel: two models fed the very same updates', () => {
  const update = (epoch: number | undefined, orders: ReturnType<typeof o>[]): OrderUpdate =>
    moneyline(H, epoch, orders);
  const ho = (id: string, odds: number) => o(id, odds, { participantID: H });
  const sideOf = (m: MarketModel) => m.side(G, 'moneyline', 0)!;

  it('hold the same side and book objects, as each would build them, until one sees an order as its own', () => {
    const mine = new Set<string>();
    const recorded = new MarketModel(() => false);
    const bot = new MarketModel((id) => mine.has(id));
    const alone = new MarketModel((id) => mine.has(id));
    for (const m of [recorded, bot, alone]) m.applySnapshot(snapshot(), 1);
    const feed = (u: OrderUpdate, t: number) => {
      const c = recorded.applyOrderUpdate(u, t);
      const b = bot.applyOrderUpdate(u, t);
      const a = alone.applyOrderUpdate(u, t);
      // What the bot's model answers and holds is what it would on its own.
      expect(b).toEqual(a);
      expect(bot.game(G)).toEqual(alone.game(G));
      return { c, b };
    };
    // Sides read apart from the snapshot: the side after an update with an epoch is one object.
    const first = feed(update(1, [ho('a', 120), ho('b', 130)]), 2);
    expect(sideOf(bot)).toBe(sideOf(recorded));
    expect(first.b!.prev).not.toBe(first.c!.prev);
    // The other side was read apart: the book is the bot's own, until that side too is shared.
    expect(bot.book(G, 'moneyline')).not.toBe(recorded.book(G, 'moneyline'));
    feed({ ...update(2, [o('x', -110)]), participantID: A }, 3);
    expect(bot.book(G, 'moneyline')).toBe(recorded.book(G, 'moneyline'));
    // No epoch: the same side before, so the same after (the epoch kept from before).
    const third = feed(update(undefined, [ho('a', 120)]), 4);
    expect(third.b).toBe(third.c);
    expect(bot.book(G, 'moneyline')).toBe(recorded.book(G, 'moneyline'));
    expect(sideOf(bot).epoch).toBe(1);
    // A stale update is dropped by each model on its own.
    expect(recorded.applyOrderUpdate(update(0, [ho('z', 150)]), 5)).toBeNull();
    expect(bot.applyOrderUpdate(update(0, [ho('z', 150)]), 5)).toBeNull();
    // One of ours: the bot's side is its own, flagged.
    mine.add('a');
    feed(update(3, [ho('a', 120), ho('c', 125)]), 6);
    expect(sideOf(bot)).not.toBe(sideOf(recorded));
    expect(sideOf(bot).offers.map((x) => [x.id, x.mine])).toEqual([
      ['c', false],
      ['a', true],
    ]);
    expect(sideOf(recorded).offers.every((x) => !x.mine)).toBe(true);
    // Still ours, on a side the bot built on its own before.
    feed(update(4, [ho('a', 120)]), 7);
    expect(sideOf(bot).offers.map((x) => x.mine)).toEqual([true]);
    // Ours gone: shared again from the next update with an epoch.
    mine.clear();
    feed(update(5, [ho('c', 125)]), 8);
    expect(sideOf(bot)).toBe(sideOf(recorded));
    // An update of the bot's own (in a backtest, our part of the side changed) with a newer
    // epoch: a recorded update older than it is stale for the bot, not for the recorded market.
    bot.applyOrderUpdate(update(9, [ho('c', 125), ho('d', 101)]), 9);
    alone.applyOrderUpdate(update(9, [ho('c', 125), ho('d', 101)]), 9);
    const late = update(7, [ho('e', 140)]);
    expect(recorded.applyOrderUpdate(late, 10)).not.toBeNull();
    expect(bot.applyOrderUpdate(late, 10)).toBeNull();
    expect(sideOf(bot).offers.map((x) => x.id)).toEqual(['c', 'd']);
  });

  it('do not share a side when the games name different participants', () => {
    const recorded = new MarketModel(() => false);
    const bot = new MarketModel(() => false);
    recorded.applySnapshot(snapshot(), 1);
    const swapped = snapshot();
    bot.applySnapshot(
      {
        ...swapped,
        participants: [
          { ...swapped.participants[0]!, homeAway: 'home' },
          { ...swapped.participants[1]!, homeAway: 'away' },
        ],
      } as OrderbookGame,
      1,
    );
    const u = update(1, [ho('a', 120)]);
    recorded.applyOrderUpdate(u, 2);
    const c = bot.applyOrderUpdate(u, 2)!;
    // H is the away side in the bot's game: side 1, as the bot's own labels read it.
    expect(c.side).toBe(1);
    expect(bot.side(G, 'moneyline', 1)!.offers.map((x) => x.id)).toEqual(['a']);
    expect(bot.side(G, 'moneyline', 1)!.taker).toEqual({ type: 'moneyline', team: 'away' });
  });
});

describe('MarketModel: looking a game up again', () => {
  const update = (orders: ReturnType<typeof o>[]): OrderUpdate => moneyline(H, 1, orders);

  it('sees a game forgotten, listed again or replaced by a new record right after it was looked up', () => {
    const m = new MarketModel(() => false);
    expect(m.applyOrderUpdate(update([o('a', 120, { participantID: H })]), 1)).toBeNull();
    m.applySnapshot(snapshot(), 1);
    expect(m.applyOrderUpdate(update([o('a', 120, { participantID: H })]), 2)?.side).toBe(0);
    expect(m.forget(G)).toBe(true);
    expect(m.resolveSide(update([]))).toBeNull();
    expect(m.applyOrderUpdate(update([o('b', 130, { participantID: H })]), 3)).toBeNull();
    expect(m.side(G, 'moneyline', 0)).toBeUndefined();
    m.applySnapshot(snapshot(), 4);
    expect(m.side(G, 'moneyline', 0)!.offers.map((x) => x.id)).toEqual(['2', '1']);
    // A game record of its own replaces the game's entry; the books stay, and the update lands on them.
    m.upsertGame({ ...snapshot(), live: true }, 5);
    expect(m.applyOrderUpdate(update([o('c', 140, { participantID: H })]), 6)?.side).toBe(0);
    expect(m.game(G)!.live).toBe(true);
    expect(m.side(G, 'moneyline', 0)!.offers.map((x) => x.id)).toEqual(['c']);
    expect(m.participants(G)?.homeId).toBe(H);
  });

  it('without a way to tell orders of ours (null), flags none', () => {
    const m = new MarketModel(null);
    const g = m.applySnapshot(snapshot(), 1)!;
    expect(g.books.get('moneyline')!.sides[0].offers.some((x) => x.mine)).toBe(false);
    m.applyOrderUpdate(update([o('2', 150, { participantID: H })]), 2);
    expect(m.side(G, 'moneyline', 0)!.offers.map((x) => [x.id, x.mine])).toEqual([['2', false]]);
  });
});

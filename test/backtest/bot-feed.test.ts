import { describe, expect, it } from 'vitest';
import { BotFeed } from '../../src/backtest/venue/bot-feed.ts';
import type { OrderUpdate } from '../../src/exchange/schemas/price-feed.ts';
import { BacktestExecution, US } from '../../src/backtest/venue/execution.ts';
import { MarketModel } from '../../src/market-model/market-model.ts';
import { sideIndexOf } from '../../src/markets/types.ts';
import { invertOdds, oddsFromRank, oddsRank } from '../../src/odds/american.ts';
import { manualTime } from '../../src/shared/time.ts';
import { firstFileTape, replayToSideUpdate } from './support-replay.ts';

const tape = firstFileTape();

/** An execution at a recorded pre-game side update, with what it reported as our listing changes. */
function setUp() {
  const time = manualTime(tape().items[0]!.t);
  const changes: string[] = [];
  const x = new BacktestExecution({
    time,
    fillModel: { kind: 'conservative', power: 2 },
    balance: 100_000,
    commission: 0.01,
    onOwnEvent: () => undefined,
    onListingChanged: (gameID, bookKey, side) => changes.push(`${gameID}|${bookKey}|${side}`),
  });
  const at = replayToSideUpdate(tape(), time, x);
  const idx = sideIndexOf(at.taker);
  const feed = new BotFeed(x);
  return {
    ...at,
    x,
    time,
    feed,
    changes,
    idx,
    sideKey: `${at.u.gameID}|${at.bookKey}|${idx}`,
    now: () => feed.sideUpdate(at.u.gameID, at.bookKey, idx, at.taker)!,
  };
}

describe('the bot’s price feed in a backtest', () => {
  it('lists our resting order on its side, best price first, in what our changes and the recording send; the bot flags it as ours', () => {
    const s = setUp();
    const recorded = s.side().offers;
    const listed = oddsFromRank(oddsRank(recorded[0]!.odds) + 1);
    const placed = s.place({ ...s.makerWire, odds: invertOdds(listed), bet: 100, orderType: 'post' });
    if (placed.status !== 'ok' || !placed.unmatched) throw new Error('our post did not rest');
    const id = placed.unmatched.orderID;
    expect(s.changes).toEqual([s.sideKey]);

    const mine = s.now();
    expect(mine.sideOrders.map((o) => o.id)).toEqual([id, ...recorded.map((o) => o.id)]);
    expect(mine.sideOrders[0]).toMatchObject({ id, odds: listed, bet: 100 });
    expect(mine.sideOrders[0]!.sumUntaken).toBeCloseTo(
      s.x.engine.bookSide(s.u.gameID, s.bookKey, s.idx)[0]!.sumUntaken,
      9,
    );
    // The recorded side's epoch: a newer recorded update still wins over this one.
    expect(mine.epoch).toBe(s.side().epoch);

    // The next recorded update of the side carries ours too, wherever its price falls.
    const next = { ...s.u, epoch: s.u.epoch! + 1 };
    const sent = s.feed.recordedUpdate(next);
    expect(sent.sideOrders.map((o) => o.id)).toEqual([id, ...s.u.sideOrders.map((o) => o.id)]);

    // The runtime's model reads it as the live feed's: our order flagged mine, first.
    const model = new MarketModel((orderID) => orderID === id);
    const snap = s.x.snapshots().find((g) => g.id === s.u.gameID)!;
    model.applySnapshot(snap, s.time.clock.now());
    model.applyOrderUpdate(sent, s.time.clock.now());
    const side = model.side(s.u.gameID, s.bookKey, s.idx)!;
    expect(side.offers[0]).toMatchObject({ id, mine: true, odds: listed });
    expect(side.offers.slice(1).every((o) => !o.mine)).toBe(true);

    // Cancelled: reported again, and gone from the side.
    s.changes.length = 0;
    s.x.cancel([id]);
    expect(s.changes).toEqual([s.sideKey]);
    expect(s.now().sideOrders.map((o) => o.id)).toEqual(recorded.map((o) => o.id));
    expect(s.feed.recordedUpdate(next)).toBe(next);
  });

  it('lists an order of ours again as rendered while nothing in it changed, and afresh once a fill took part of it', () => {
    const s = setUp();
    const listed = oddsFromRank(oddsRank(s.side().offers[0]!.odds) + 1);
    const placed = s.place({ ...s.makerWire, odds: invertOdds(listed), bet: 100, orderType: 'post' });
    if (placed.status !== 'ok' || !placed.unmatched) throw new Error('our post did not rest');
    const id = placed.unmatched.orderID;
    const ours = (u: OrderUpdate) => u.sideOrders.find((o) => o.id === id)!;
    let epoch = s.u.epoch!;
    const first = ours(s.feed.recordedUpdate({ ...s.u, epoch: ++epoch }));
    expect(ours(s.feed.recordedUpdate({ ...s.u, epoch: ++epoch }))).toBe(first);
    expect(ours(s.now())).toBe(first);
    expect(first).toMatchObject({ takenRatio: 0, bet: 100, odds: listed });

    // A recorded taker takes a quarter of it: listed afresh, with what is left.
    const [taken] = s.x.engine.place(
      'recorded-flow',
      [
        {
          gameID: s.u.gameID,
          ...s.takerWire,
          odds: listed,
          bet: 25 / (1 + 100 / Math.abs(listed)),
          orderType: 'fillAndKill',
        },
      ],
      { liveDelay: false },
    );
    if (taken?.status !== 'ok' || taken.matched.length !== 1) throw new Error('the recorded taker did not fill ours');
    const after = ours(s.feed.recordedUpdate({ ...s.u, epoch: ++epoch }));
    expect(after).not.toBe(first);
    const now = s.x.engine.bookSide(s.u.gameID, s.bookKey, s.idx).find((l) => l.order.id === id)!;
    expect(after).toMatchObject({ id, bet: 100, odds: listed, sumUntaken: now.sumUntaken });
    expect(after.takenRatio).toBeCloseTo(now.order.filled / 100, 12);
    expect(after.takenRatio).toBeGreaterThan(0);
    expect(ours(s.now())).toBe(after);
  });

  it('spells a side update with its label’s fields in the label’s own order, on every kind of side the recording lists', () => {
    const s = setUp();
    const types = new Set<string>();
    for (const gameID of s.x.snapshots().map((g) => g.id))
      for (const book of s.x.recorded.model.game(gameID)?.books.values() ?? [])
        for (const side of [0, 1] as const) {
          const taker = book.sides[side].taker;
          const u = s.feed.sideUpdate(gameID, book.key, side, taker);
          const l = s.feed.listing(gameID, book.key, side, taker);
          if (u === null || l === null) continue;
          const { parentGameID, sport, league, live } = l.game;
          const want = {
            epoch: u.epoch,
            gameID,
            parentGameID,
            sport,
            league,
            live,
            type: taker.type,
            ...l.label,
            sideOrders: l.orders,
          };
          expect(u).toStrictEqual(want);
          expect(Object.keys(u)).toEqual(Object.keys(want));
          types.add(taker.type);
        }
    expect([...types].sort()).toEqual(['moneyline', 'moneyline1x2', 'spread', 'total']);
  });

  it('what we took from recorded orders is gone from the bot’s view too, whatever the recording lists', () => {
    const s = setUp();
    const best = s.side().offers[0]!;
    const half = best.sumUntaken / 2;
    const took = s.place({ ...s.takerWire, odds: best.odds, bet: half, orderType: 'fillAndKill' });
    expect(took.status).toBe('ok');
    // The side we took from; nothing for the recorded orders put into the engine for the take.
    expect(s.changes).toEqual([s.sideKey]);
    const listedBest = s.now().sideOrders.find((o) => o.id === best.id)!;
    expect(listedBest.sumUntaken).toBeCloseTo(best.sumUntaken - half, 9);
    // The recording goes on listing the whole order: the bot sees what is left of it for us.
    const next = { ...s.u, epoch: s.u.epoch! + 1 };
    const sent = s.feed.recordedUpdate(next);
    expect(sent.sideOrders.find((o) => o.id === best.id)!.sumUntaken).toBeCloseTo(best.sumUntaken - half, 9);
    expect(sent.sideOrders.filter((o) => o.id !== best.id)).toEqual(next.sideOrders.filter((o) => o.id !== best.id));
    // Taken in full: not listed at all.
    s.place({ ...s.takerWire, odds: best.odds, bet: best.sumUntaken, orderType: 'fillAndKill' });
    expect(s.feed.recordedUpdate(next).sideOrders.some((o) => o.id === best.id)).toBe(false);
    expect(s.now().sideOrders.some((o) => o.id === best.id)).toBe(false);
  });

  it('a side sent again after only our part changed lists the recorded part it listed before; a recorded change is read afresh', () => {
    const s = setUp();
    const before = s.now().sideOrders;
    expect(before.length).toBeGreaterThan(1);
    // Listed behind the best recorded order: our take below meets the recorded one, not ours.
    const placed = s.place({
      ...s.makerWire,
      odds: invertOdds(oddsFromRank(oddsRank(s.side().offers[0]!.odds) - 1)),
      bet: 20,
      orderType: 'post',
    });
    if (placed.status !== 'ok' || !placed.unmatched) throw new Error('our post did not rest');
    const id = placed.unmatched.orderID;
    const withOurs = s.now().sideOrders;
    // The same recorded entries, not built again: only ours is new.
    expect(withOurs.filter((o) => o.id !== id)).toHaveLength(before.length);
    withOurs.filter((o) => o.id !== id).forEach((o, i) => expect(o).toBe(before[i]));

    // We take part of the best recorded order: that entry changes, the others are kept.
    const best = s.side().offers[0]!;
    s.place({ ...s.takerWire, odds: best.odds, bet: best.sumUntaken / 4, orderType: 'fillAndKill' });
    const taken = s.now().sideOrders.filter((o) => o.id !== id);
    expect(taken[0]!.id).toBe(best.id);
    expect(taken[0]!.sumUntaken).toBeCloseTo((best.sumUntaken * 3) / 4, 9);
    taken.slice(1).forEach((o, i) => expect(o).toBe(before[i + 1]));

    // The recording drops its best order and lists the second for less: the listing follows it.
    const [, second, ...rest] = s.u.sideOrders;
    const next = {
      ...s.u,
      epoch: s.u.epoch! + 1,
      sideOrders: [{ ...second!, sumUntaken: second!.sumUntaken / 2 }, ...rest],
    };
    s.x.applyOrderUpdate(next, s.time.clock.now());
    const after = s.now().sideOrders.filter((o) => o.id !== id);
    expect(after.map((o) => [o.id, o.sumUntaken])).toEqual(next.sideOrders.map((o) => [o.id, o.sumUntaken]));
  });

  it('an update of ours after a snapshot in the recording still reaches the bot, whose sides kept the newer epochs', () => {
    const s = setUp();
    const snap = s.x.snapshots().find((g) => g.id === s.u.gameID)!;
    // The bot's model as the runtime holds it: the recording's updates so far, this side's last.
    const model = new MarketModel(() => false);
    model.applySnapshot(snap, s.time.clock.now());
    model.applyOrderUpdate(s.feed.recordedUpdate(s.u), s.time.clock.now());
    // A reconnect: the recording's snapshot resets the recorded sides (no epoch); the bot never sees it.
    s.x.applySnapshot(snap, s.time.clock.now());
    expect(s.side().epoch).toBeNull();
    const placed = s.place({
      ...s.makerWire,
      odds: invertOdds(oddsFromRank(oddsRank(s.side().offers[0]!.odds) + 1)),
      bet: 20,
      orderType: 'post',
    });
    if (placed.status !== 'ok' || !placed.unmatched) throw new Error('our post did not rest');
    const update = s.now();
    expect(update.epoch).toBe(s.u.epoch);
    expect(model.applyOrderUpdate(update, s.time.clock.now())).not.toBeNull();
    expect(model.side(s.u.gameID, s.bookKey, s.idx)!.offers[0]!.id).toBe(placed.unmatched.orderID);
  });

  it('sends nothing for a game the recording closed', () => {
    const s = setUp();
    s.place({
      ...s.makerWire,
      odds: invertOdds(oddsFromRank(oddsRank(s.side().offers[0]!.odds) + 1)),
      bet: 20,
      orderType: 'post',
    });
    expect(s.now()).not.toBeNull();
    s.time.advance(1_000);
    s.x.applyPrice(
      {
        type: 'gameUpdate',
        payload: { ...s.x.snapshots().find((g) => g.id === s.u.gameID)!, ended: true, messageType: 'marketClosed' },
        messageType: 'marketClosed',
      },
      s.time.clock.now(),
    );
    expect(s.x.engine.openOrders(US)).toEqual([]);
    expect(s.feed.sideUpdate(s.u.gameID, s.bookKey, s.idx, s.taker)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { US } from '../../src/backtest/venue/execution.ts';
import { latencyLegs, latencySampler, type LatencyConfig } from '../../src/backtest/venue/latency.ts';
import { createRandom } from '../../src/shared/random.ts';
import type { SimulatedVenue } from '../../src/backtest/venue/simulated-venue.ts';
import type { PlaceOrderInput } from '../../src/exchange/orders/types.ts';
import type { PriceFeedEvent } from '../../src/exchange/schemas/price-feed.ts';
import { oppositeSelection } from '../../src/markets/types.ts';
import { takerSelectionOfLabel, wireFromSelection } from '../../src/markets/wire-selection.ts';
import { invertOdds, oddsFromRank, oddsRank } from '../../src/odds/american.ts';
import type { PriceSelection } from '../../src/exchange/socket/price-subscriptions.ts';
import { manualTime } from '../../src/shared/time.ts';
import { MarketModel } from '../../src/market-model/market-model.ts';
import { BOOK_COLLECTIONS } from '../../src/exchange/schemas/book-order.ts';
import type { OrderbookGame } from '../../src/exchange/schemas/exchange.ts';
import { firstFileTape, preGameSideUpdate, replayIntoVenue, simulatedVenue } from './support-replay.ts';

const firstFile = firstFileTape();

const gameOf = (e: PriceFeedEvent) => (e.type === 'gameUpdate' ? e.payload.id : e.payload.gameID);

/** Replay the first file through a venue subscribed as given; what the runtime's price feed received. */
function replayed(subscribe?: (feed: SimulatedVenue['priceFeed']) => void) {
  const time = manualTime(firstFile().items[0]!.t);
  const venue = simulatedVenue(time, { latencyMs: 0, balance: 1_000 });
  const got: PriceFeedEvent[] = [];
  venue.priceFeed.events$.subscribe((e) => got.push(e));
  subscribe?.(venue.priceFeed);
  replayIntoVenue(firstFile(), time, venue);
  const leagueOf = new Map<string, string>();
  for (const it of firstFile().items) if (it.kind === 'snapshot') leagueOf.set(it.game.id, it.game.league);
  const sent = firstFile().items.flatMap((it) => (it.kind === 'price' ? [it.event] : []));
  return { got, sent, leagueOf };
}

describe('the simulated venue’s price feed', () => {
  it('sends every frame until the runtime narrows its subscription', () => {
    const r = replayed();
    expect(r.got.length).toBe(r.sent.length);
  });

  it('sends only the subscribed leagues, matched without regard to case, as the exchange does (feeds §2)', () => {
    const leagues = [
      ...new Set(firstFile().items.flatMap((it) => (it.kind === 'snapshot' ? [it.game.league] : []))),
    ].sort();
    expect(leagues.length).toBeGreaterThan(1);
    const wanted = leagues[0]!;
    const r = replayed((feed) => feed.subscribe({ leagueIDs: [wanted.toLowerCase()] }, { replace: true }));
    const expected = r.sent.filter((e) => r.leagueOf.get(gameOf(e)) === wanted);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(r.sent.length);
    // The same frames, in the same order: volume updates without a league are matched by their game.
    expect(r.got).toEqual(expected);
  });

  it('matches a game id, and an all-empty replace sends nothing until the next subscribe', () => {
    const first = firstFile().items.find((it) => it.kind === 'snapshot');
    if (first?.kind !== 'snapshot') throw new Error('no snapshot in the sample');
    const byGame = replayed((feed) => feed.subscribe({ gameIDs: [first.game.id] }, { replace: true }));
    expect(byGame.got.length).toBeGreaterThan(0);
    expect(byGame.got.every((e) => gameOf(e) === first.game.id)).toBe(true);
    const none: PriceSelection = {};
    expect(replayed((feed) => feed.subscribe(none, { replace: true })).got).toEqual([]);
  });

  it('sends the side again one latency leg after an order of ours rests on it, with ours listed and flagged nowhere else', async () => {
    const time = manualTime(firstFile().items[0]!.t);
    const venue = simulatedVenue(time, { latencyMs: 10, balance: 10_000 });
    const got: { at: number; e: PriceFeedEvent }[] = [];
    venue.priceFeed.events$.subscribe((e) => got.push({ at: time.clock.now(), e }));
    const u = replayIntoVenue(firstFile(), time, venue, preGameSideUpdate);
    if (!u) throw new Error('no pre-game side update in the sample');
    const game = venue.execution.game(u.gameID)!;
    const taker = takerSelectionOfLabel(game.participants, u.type, u)!;
    const listed = oddsFromRank(oddsRank(u.sideOrders[0]!.odds) + 1);
    const t0 = time.clock.now();
    got.length = 0;
    const answer = venue.orders.place([
      {
        gameID: u.gameID,
        ...wireFromSelection(game.participants, oppositeSelection(taker)),
        odds: invertOdds(listed),
        bet: 50,
        orderType: 'post',
        userReference: 'ls1:t:1',
      } as PlaceOrderInput,
    ]);
    time.advanceTo(t0 + 19);
    expect(got).toEqual([]);
    time.advanceTo(t0 + 20);
    const [entry] = await answer;
    if (entry?.status !== 'accepted' || !entry.resting)
      throw new Error(`our post did not rest: ${JSON.stringify(entry)}`);
    expect(got).toHaveLength(1);
    expect(got[0]!.at).toBe(t0 + 20);
    const sent = got[0]!.e;
    if (sent.type !== 'orderUpdate') throw new Error('not an orderUpdate');
    expect(sent.payload.sideOrders.map((o) => o.id)).toEqual([entry.resting.orderID, ...u.sideOrders.map((o) => o.id)]);
    expect(takerSelectionOfLabel(game.participants, sent.payload.type, sent.payload)).toEqual(taker);
  });
});

describe('the simulated venue’s latency legs', () => {
  // A cancel slower to reach the exchange than a place leaves the order exposed longer: the engine must see it at the cancel leg, not the place leg.
  it('a place reaches the book after the place leg, a cancel after the cancel leg, and each is told back one leg from the exchange later', async () => {
    const time = manualTime(firstFile().items[0]!.t);
    const venue = simulatedVenue(time, {
      latencyMs: { place: 5, cancel: 200, edit: 5, fromExchange: 10 },
      balance: 10_000,
    });
    const fed: { at: number; type: string }[] = [];
    venue.userFeed.events$.subscribe((e) => fed.push({ at: time.clock.now(), type: e.type }));
    const u = replayIntoVenue(firstFile(), time, venue, preGameSideUpdate);
    if (!u) throw new Error('no pre-game side update in the sample');
    const game = venue.execution.game(u.gameID)!;
    const taker = takerSelectionOfLabel(game.participants, u.type, u)!;
    const listed = oddsFromRank(oddsRank(u.sideOrders[0]!.odds) + 1);
    const open = () => venue.execution.engine.openOrders(US).map((o) => o.id);
    let told = 0;
    const flush = async () => {
      for (let i = 0; i < 4; i++) await Promise.resolve();
    };

    const t0 = time.clock.now();
    const placed = venue.orders.place([
      {
        gameID: u.gameID,
        ...wireFromSelection(game.participants, oppositeSelection(taker)),
        odds: invertOdds(listed),
        bet: 50,
        orderType: 'post',
        userReference: 'ls1:t:1',
      } as PlaceOrderInput,
    ]);
    void placed.then(() => told++);
    time.advanceTo(t0 + 4);
    expect(open()).toEqual([]);
    time.advanceTo(t0 + 5);
    expect(open()).toHaveLength(1);
    time.advanceTo(t0 + 14);
    await flush();
    expect(told).toBe(0);
    time.advanceTo(t0 + 15);
    const [entry] = await placed;
    if (entry?.status !== 'accepted' || !entry.resting)
      throw new Error(`our post did not rest: ${JSON.stringify(entry)}`);
    const id = entry.resting.orderID;

    const t1 = time.clock.now();
    fed.length = 0;
    const cancelled = venue.orders.cancel([id]);
    void cancelled.then(() => told++);
    time.advanceTo(t1 + 199);
    expect(open()).toEqual([id]);
    time.advanceTo(t1 + 200);
    expect(open()).toEqual([]);
    expect(venue.execution.engine.order(id)?.status).toBe('cancelled');
    time.advanceTo(t1 + 209);
    await flush();
    expect(told).toBe(1);
    expect(fed).toEqual([]);
    time.advanceTo(t1 + 210);
    const [c] = await cancelled;
    expect(c).toMatchObject({ ok: true, orderID: id });
    expect(fed.length).toBeGreaterThan(0);
    expect(fed.every((m) => m.at === t1 + 210)).toBe(true);
  });

  it('names each message of ours by the instant the exchange sent it and its number, in order', async () => {
    const time = manualTime(firstFile().items[0]!.t);
    const venue = simulatedVenue(time, {
      latencyMs: { place: 5, cancel: 5, edit: 5, fromExchange: 10 },
      balance: 10_000,
    });
    const ids: string[] = [];
    venue.userFeed.events$.subscribe((e) => {
      if ('messageID' in e) ids.push(e.messageID);
    });
    const u = replayIntoVenue(firstFile(), time, venue, preGameSideUpdate);
    if (!u) throw new Error('no pre-game side update in the sample');
    const game = venue.execution.game(u.gameID)!;
    const taker = takerSelectionOfLabel(game.participants, u.type, u)!;
    // The place reaches the exchange 7 ms into a new thousand seconds: the milliseconds are spelt with their zeros.
    const sentAt = Math.ceil(time.clock.now() / 1e6) * 1e6 + 7;
    time.advanceTo(sentAt - 5);
    const placed = venue.orders.place([
      {
        gameID: u.gameID,
        ...wireFromSelection(game.participants, oppositeSelection(taker)),
        odds: invertOdds(oddsFromRank(oddsRank(u.sideOrders[0]!.odds) + 1)),
        bet: 50,
        orderType: 'post',
        userReference: 'ls1:t:1',
      } as PlaceOrderInput,
    ]);
    time.advanceTo(sentAt + 10);
    const [entry] = await placed;
    if (entry?.status !== 'accepted' || !entry.resting) throw new Error('our post did not rest');
    const cancelled = venue.orders.cancel([entry.resting.orderID]);
    time.advanceTo(sentAt + 25);
    await cancelled;
    expect(ids).toEqual([`${sentAt}-1`, `${sentAt + 15}-2`]);
  });

  it('legs without a model of their own draw in turn from the one stream a single model always had; an override has its own', () => {
    const every: LatencyConfig = { kind: 'lognormal', medianMs: 40, sigma: 0.5 };
    const before = latencySampler(every, createRandom(3).fork());
    const want = Array.from({ length: 6 }, before);
    const legs = latencyLegs(every, createRandom(3));
    expect([
      legs.place(),
      legs.cancel(),
      legs.fromExchange(),
      legs.cancel(),
      legs.place(),
      legs.fromExchange(),
    ]).toEqual(want);
    const own = latencyLegs(
      { ...every, place: { kind: 'uniform', minMs: 1_000, maxMs: 2_000 }, cancel: { kind: 'fixed', ms: 300 } },
      createRandom(3),
    );
    const got = [own.place(), own.cancel(), own.fromExchange(), own.place(), own.cancel(), own.fromExchange()];
    expect([got[1], got[2], got[4], got[5]]).toEqual([300, want[0], 300, want[1]]);
    expect([got[0], got[3]].every((ms) => ms! >= 1_000 && ms! <= 2_000)).toBe(true);
  });
});

describe('the simulated venue’s orderbook answer', () => {
  /** Every non-empty side of every game: `gameID|bookKey|side` → its offers as [id, odds, sumUntaken]. */
  const sides = (m: MarketModel, ids: readonly string[]) => {
    const out = new Map<string, [string, number, number][]>();
    for (const id of ids) {
      for (const b of m.game(id)?.books.values() ?? []) {
        b.sides.forEach(
          (s, i) =>
            s.offers.length > 0 &&
            out.set(
              `${id}|${b.key}|${i}`,
              s.offers.map((o) => [o.id, o.odds, o.sumUntaken]),
            ),
        );
      }
    }
    return out;
  };

  // A bot reading the books again after its price feed came back must get the present, not the recording's opening snapshot.
  it('is the book as the feed has it now, not the recording’s last snapshot', async () => {
    const tape = firstFile();
    const time = manualTime(tape.items[0]!.t);
    const venue = simulatedVenue(time, { latencyMs: 0, balance: 1_000 });
    const fed = new MarketModel(() => false);
    const opening = new MarketModel(() => false);
    for (const it of tape.items) {
      if (it.kind === 'snapshotDone') break;
      if (it.kind === 'snapshot') opening.applySnapshot(it.game, it.t);
    }
    let gotSnapshots = false;
    venue.priceFeed.events$.subscribe((e) => {
      if (!gotSnapshots) {
        for (const it of tape.items) if (it.kind === 'snapshot') fed.applySnapshot(it.game, it.t);
        gotSnapshots = true;
      }
      if (e.type === 'orderUpdate') fed.applyOrderUpdate(e.payload, time.clock.now());
    });
    replayIntoVenue(tape, time, venue);
    const answer = await venue.rest.getOrderbook({ league: 'all' });
    const read = new MarketModel(() => false);
    for (const g of answer) read.applySnapshot(g, time.clock.now());
    const ids = answer.map((g) => g.id);
    expect(ids.length).toBeGreaterThan(1);
    expect(sides(read, ids)).toEqual(sides(fed, ids));
    expect(sides(read, ids)).not.toEqual(sides(opening, ids));
  });

  // The recorder writes a reconnect's gap, then the snapshots it read after it: the bot's read is answered with those.
  it('after a recorded price-feed reconnect, waits for the snapshots that follow it', async () => {
    const tape = firstFile();
    const time = manualTime(tape.items[0]!.t);
    const venue = simulatedVenue(time, { latencyMs: 0, balance: 1_000 });
    replayIntoVenue(tape, time, venue);
    venue.gap('price', true);
    let answer: OrderbookGame[] | null = null;
    void venue.rest.getOrderbook({ league: 'all' }).then((a) => (answer = a));
    await Promise.resolve();
    expect(answer).toBeNull();
    // The snapshot read after the reconnect: the first game's books emptied while the feed was down.
    const emptied: OrderbookGame = {
      ...(tape.items.find((it) => it.kind === 'snapshot') as { game: OrderbookGame }).game,
    };
    for (const c of BOOK_COLLECTIONS) (emptied as Record<string, unknown>)[c] = [];
    venue.snapshot(emptied, time.clock.now());
    venue.snapshotDone();
    await Promise.resolve();
    const got = (answer as OrderbookGame[] | null)?.find((g) => g.id === emptied.id);
    expect(got).toBeDefined();
    expect(BOOK_COLLECTIONS.map((c) => got![c].length)).toEqual(BOOK_COLLECTIONS.map(() => 0));
    expect((await venue.rest.getOrderbook({ league: 'all' })).length).toBe(answer!.length);
  });
});

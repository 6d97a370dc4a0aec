import { describe, expect, it } from 'vitest';
import { BacktestExecution, US } from '../../src/backtest/venue/execution.ts';
import type { FillModelKind } from '../../src/backtest/venue/queue-model.ts';
import type { EngineEvent, PlaceOutcome } from '../../src/engine/types.ts';
import { invertOdds, oddsFromRank, oddsRank, payout } from '../../src/odds/american.ts';
import { SIM_RETENTION_DEFAULTS } from '../../src/sim/context.ts';
import { manualTime } from '../../src/shared/time.ts';
import { firstFileTape, replayToSideUpdate } from './support-replay.ts';

const tape = firstFileTape();

/** The engine replica after the recording's opening snapshot and its first pre-game side update. */
function setUp(kind: FillModelKind = 'conservative') {
  const time = manualTime(tape().items[0]!.t);
  const events: EngineEvent[] = [];
  const x = new BacktestExecution({
    time,
    fillModel: { kind, power: 2 },
    balance: 100_000,
    commission: 0.01,
    onOwnEvent: (e) => events.push(e),
  });
  const at = replayToSideUpdate(tape(), time, x);
  const volume = (matchedVolume: number): void =>
    x.applyPrice(
      {
        type: 'matchedVolumeUpdate',
        payload: {
          gameID: at.u.gameID,
          parentGameID: null,
          league: at.game.league,
          sport: at.game.sport,
          matchedVolume,
        },
      },
      time.clock.now(),
    );
  const ownFills = () => events.flatMap((e) => (e.kind === 'fill' && e.fill.maker.userId === US ? [e.fill] : []));
  // The tests read the side as the update left it.
  return { ...at, side: at.side(), x, volume, ownFills, time };
}

describe('simulated execution against the recorded book', () => {
  it('a crossing order takes recorded liquidity, which is then gone for us, whatever the recording shows', () => {
    const s = setUp();
    const best = s.side.offers[0]!;
    const before = s.x.recorded.available(best);
    const first = s.place({ ...s.takerWire, odds: best.odds, bet: before / 2, orderType: 'fillAndKill' });
    expect(first.status).toBe('ok');
    if (first.status !== 'ok') return;
    expect(first.matched.reduce((a, m) => a + m.amount, 0)).toBeCloseTo(before / 2, 9);
    expect(first.matched[0]!.odds).toBe(best.odds);
    expect(s.x.recorded.available(best)).toBeCloseTo(before / 2, 9);
    // Asking for everything at that price gets only what is left at it (or better).
    const atOrBetter = s.side.offers
      .filter((o) => oddsRank(o.odds) >= oddsRank(best.odds))
      .reduce((a, o) => a + s.x.recorded.available(o), 0);
    const second = s.place({ ...s.takerWire, odds: best.odds, bet: before * 10, orderType: 'fillAndKill' });
    expect(second.status === 'ok' && second.matched.reduce((a, m) => a + m.amount, 0)).toBeCloseTo(atOrBetter, 6);
    expect(s.x.recorded.available(best)).toBeCloseTo(0, 9);
    // The engine keeps none of the recorded orders afterwards: only ours ever rest there.
    expect(s.x.engine.openOrderCount(s.u.gameID)).toBe(0);
    // A taker pays commission on a non-postArb fill.
    if (second.status === 'ok') expect(second.matched[0]!.risk).toBeGreaterThan(second.matched[0]!.amount);
  });

  it('two crossing orders of one batch on the same side share its recorded liquidity, they do not each get a copy', () => {
    const s = setUp();
    const best = s.side.offers[0]!;
    const worst = s.side.offers[s.side.offers.length - 1]!;
    const listed = s.side.offers.reduce((a, o) => a + s.x.recorded.available(o), 0);
    let outcomes: PlaceOutcome[] = [];
    const order = (odds: number, ref: string) => ({
      gameID: s.u.gameID,
      userReference: ref,
      ...s.takerWire,
      odds,
      bet: listed * 10,
      orderType: 'fillAndKill',
    });
    // The second reaches further down the side than the first: everything listed is within its reach.
    s.x.place([order(best.odds, 'ls1:test:1'), order(worst.odds, 'ls1:test:2')], (o) => (outcomes = o));
    expect(outcomes).toHaveLength(2);
    const taken = outcomes.flatMap((o) => (o.status === 'ok' ? o.matched : [])).reduce((a, m) => a + m.amount, 0);
    expect(taken).toBeCloseTo(listed, 6);
    expect(s.x.stats.takenStake).toBeCloseTo(listed, 6);
    for (const o of s.side.offers) expect(s.x.recorded.available(o)).toBeCloseTo(0, 9);
    expect(s.x.engine.openOrderCount(s.u.gameID)).toBe(0);
  });

  it('refuses a post that would match recorded liquidity, and rests one that would not', () => {
    const s = setUp();
    const best = s.side.offers[0]!;
    const crossing = s.place({ ...s.takerWire, odds: best.odds, bet: 10, orderType: 'post' });
    expect(crossing).toMatchObject({ status: 'error', errorType: 'rejected_order_type_rules' });
    const clear = s.place({ ...s.takerWire, odds: oddsFromRank(oddsRank(best.odds) + 40), bet: 10, orderType: 'post' });
    expect(clear.status === 'ok' && clear.unmatched !== null).toBe(true);
  });

  it('keeps a closed order of ours as the simulator does, 15 minutes and at most 10,000, so a long replay does not grow', () => {
    const s = setUp();
    const best = s.side.offers[0]!;
    const clear = { ...s.takerWire, odds: oddsFromRank(oddsRank(best.odds) + 40), bet: 10, orderType: 'post' };
    const rest = () => {
      const p = s.place(clear);
      if (p.status !== 'ok' || p.unmatched === null) throw new Error('the order did not rest');
      return p.unmatched.orderID;
    };
    const first = rest();
    s.x.cancel([first]);
    expect(s.x.engine.order(first)?.status).toBe('cancelled');
    s.time.advance(SIM_RETENTION_DEFAULTS.closedOrderRetentionMs - 1);
    s.x.engine.advance();
    expect(s.x.engine.order(first)?.status).toBe('cancelled');
    s.time.advance(1);
    s.x.engine.advance();
    expect(s.x.engine.order(first)).toBeUndefined();
    // Within the period, the count binds: the oldest closed orders go first.
    const ids: string[] = [];
    for (let i = 0; i <= SIM_RETENTION_DEFAULTS.closedOrderRetentionCount; i++) {
      const id = rest();
      s.x.cancel([id]);
      ids.push(id);
    }
    s.x.engine.advance();
    expect(s.x.engine.order(ids[0]!)).toBeUndefined();
    expect(s.x.engine.order(ids[1]!)?.status).toBe('cancelled');
    expect(s.x.engine.order(ids[ids.length - 1]!)?.status).toBe('cancelled');
  });

  it('fills a resting order from recorded volume that traded through its price, with maker money (no commission)', () => {
    const s = setUp();
    const [best, next] = s.side.offers as [(typeof s.side.offers)[0], (typeof s.side.offers)[0]];
    // Our offer listed on the same side, one cent better for takers than the recorded best.
    const listed = oddsFromRank(oddsRank(best.odds) + 1);
    const placed = s.place({ ...s.makerWire, odds: invertOdds(listed), bet: 1_000, orderType: 'post' });
    expect(placed.status === 'ok' && placed.unmatched !== null).toBe(true);
    const ours = s.x.engine.openOrders(US)[0]!;
    // A recorded taker took 40 from the best order: at a worse price than ours, so it was ours.
    s.update(s.u.sideOrders.map((o) => (o.id === best.id ? { ...o, sumUntaken: o.sumUntaken - 40 } : o)));
    const fills = s.ownFills();
    expect(fills).toHaveLength(1);
    expect(fills[0]!.taker.money.amount).toBeCloseTo(40, 9);
    expect(fills[0]!.maker.money.odds).toBe(ours.odds);
    expect(fills[0]!.maker.money.commissionOnLoss + fills[0]!.maker.money.commissionOnWin).toBe(0);
    expect(s.x.engine.order(ours.id)!.filled).toBeCloseTo(40 * payout(listed), 9);
    // The next recorded order did not move: nothing more.
    expect(next.sumUntaken).toBeGreaterThan(0);
  });

  it('tells a vanished order that traded (the matched volume rose at that instant) from one cancelled', () => {
    const s = setUp();
    const best = s.side.offers[0]!;
    s.place({
      ...s.makerWire,
      odds: invertOdds(oddsFromRank(oddsRank(best.odds) + 1)),
      bet: 10_000,
      orderType: 'post',
    });
    const v0 = s.game.matchedVolume;
    // Gone without volume: a cancel, no fill.
    const rest = s.u.sideOrders.filter((o) => o.id !== best.id);
    s.update(rest);
    s.update(rest); // time moves on: the vanished order is settled as cancelled
    expect(s.ownFills()).toHaveLength(0);
    // Back, then gone with as much matched volume at the same instant: a trade through our price.
    s.update(s.u.sideOrders);
    s.update(rest, 500);
    s.volume(v0 + best.sumUntaken * (1 + payout(best.odds)));
    expect(s.ownFills()).toHaveLength(1);
    expect(s.ownFills()[0]!.taker.money.amount).toBeCloseTo(best.sumUntaken, 6);
  });

  // Found in review: the baseline volume was the one from before a snapshot (0 for a new
  // game), so the first volume update after a snapshot counted the game's whole history as
  // trading, and an order cancelled at that instant filled us.
  it("takes a snapshot's matched volume as the baseline: a vanished order with no volume since is a cancel", () => {
    const s = setUp();
    const snapshot = tape().items.find((it) => it.kind === 'snapshot' && it.game.id === s.u.gameID);
    if (!snapshot || snapshot.kind !== 'snapshot') throw new Error('no snapshot of the game in the sample');
    const best = s.side.offers[0]!;
    // A reconnect snapshot: the game has traded 5,000 by now, its book as last updated.
    s.x.applySnapshot({ ...snapshot.game, matchedVolume: 5_000 }, s.time.clock.now());
    s.update(s.u.sideOrders);
    const placed = s.place({
      ...s.makerWire,
      odds: invertOdds(oddsFromRank(oddsRank(best.odds) + 1)),
      bet: 10_000,
      orderType: 'post',
    });
    // It rests, so no fill below can be for want of an order.
    expect(placed.status === 'ok' && placed.unmatched !== null).toBe(true);
    s.update(
      s.u.sideOrders.filter((o) => o.id !== best.id),
      500,
    );
    s.volume(5_000);
    s.update(s.u.sideOrders.filter((o) => o.id !== best.id));
    expect(s.ownFills()).toHaveLength(0);
  });

  it('queue models differ at our own price: risk-averse fills once the queue ahead has traded, conservative never', () => {
    for (const kind of ['conservative', 'risk-averse'] as const) {
      const s = setUp(kind);
      const best = s.side.offers[0]!;
      const ahead = s.side.offers.filter((o) => o.odds === best.odds).reduce((a, o) => a + o.sumUntaken, 0);
      s.place({ ...s.makerWire, odds: invertOdds(best.odds), bet: 10_000, orderType: 'post' });
      expect(ahead).toBeGreaterThan(0);
      // Everything ahead of us at our price trades (down to dust): no fill yet in any model.
      const drained = s.u.sideOrders.map((o) => (o.odds === best.odds ? { ...o, sumUntaken: 0.000001 } : o));
      s.update(drained);
      expect(s.ownFills()).toHaveLength(0);
      // An order joins behind us and 25 of it trades: the taker met us first.
      const extra = { ...s.u.sideOrders[0]!, id: 'ffffffffffffffffffffffff', odds: best.odds, sumUntaken: 25 };
      s.update([extra, ...drained]);
      s.update([{ ...extra, sumUntaken: 0 }, ...drained]);
      const filled = s.ownFills().reduce((a, f) => a + f.taker.money.amount, 0);
      if (kind === 'conservative') expect(filled).toBe(0);
      else expect(filled).toBeCloseTo(25, 4);
    }
  });
});

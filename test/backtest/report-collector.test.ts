import { describe, expect, it } from 'vitest';
import { BacktestCollector } from '../../src/backtest/report/collector.ts';
import { OpenOrders } from '../../src/backtest/report/open-orders.ts';
import { BacktestExecution, US } from '../../src/backtest/venue/execution.ts';
import type { EngineEvent } from '../../src/engine/types.ts';
import { sideIndexOf } from '../../src/markets/types.ts';
import { invertOdds, oddsFromRank, oddsRank } from '../../src/odds/american.ts';
import { manualTime } from '../../src/shared/time.ts';
import { consensusFair } from '../../src/strategy/fair.ts';
import { firstFileTape, replayToSideUpdate } from './support-replay.ts';

/**
 * The collector keeps figures between samples (each book's consensus until the book
 * changes, each book's quote row state, each game's liability record): these tests move
 * the market and our orders between samples and check every figure is the one of now.
 */

const tape = firstFileTape();

/** An execution after the recording's opening snapshot and a pre-game side update, with a collector on it. */
function setUp() {
  const time = manualTime(tape().items[0]!.t);
  let collector: BacktestCollector | null = null;
  const listeners: ((e: EngineEvent) => void)[] = [];
  const x = new BacktestExecution({
    time,
    fillModel: { kind: 'conservative', power: 2 },
    balance: 100_000,
    commission: 0.01,
    onOwnEvent: (e) => {
      collector?.onOwnEvent(e);
      for (const l of listeners) l(e);
    },
    onPlaceOutcome: (input, outcome) => collector?.onPlaceOutcome(input, outcome),
  });
  const c = new BacktestCollector({
    clock: time.clock,
    execution: x,
    post: time.post,
  });
  collector = c;
  const at = replayToSideUpdate(tape(), time, x);
  const finish = () => c.finish({ riskRejected: 0, exchangeRejected: 0, postArb: 0 }, () => null);
  return { ...at, listeners, x, c, finish, time };
}

describe('backtest report collector', () => {
  it('marks open fills at the consensus of the book as it is now, not as it was at the last sample', () => {
    const s = setUp();
    const best = s.side().offers[0]!;
    s.place({ ...s.takerWire, odds: best.odds, bet: 50, orderType: 'fillAndKill' });
    const fair = () => consensusFair(s.x.recorded.book(s.u.gameID, s.bookKey));
    const p0 = fair();
    expect(p0).not.toBeNull();
    s.c.sample();
    // Move the consensus: the side's whole depth at another price, until it reads differently.
    let p1: number | null = p0;
    for (let step = 5; step <= 60 && (p1 === null || p1 === p0); step += 5) {
      s.update([
        {
          ...s.u.sideOrders[0]!,
          id: `moved${step}`,
          odds: oddsFromRank(oddsRank(best.odds) - step),
          sumUntaken: 10_000,
        },
      ]);
      p1 = fair();
    }
    expect(p1).not.toBeNull();
    expect(p1).not.toBe(p0);
    s.time.advance(10_000);
    s.c.sample();
    const r = s.finish();
    const fills = r.fills;
    expect(fills.length).toBeGreaterThan(0);
    const ourSide = sideIndexOf(s.taker);
    const markedAt = (p: number) =>
      fills.reduce(
        (sum, f) => sum + ((ourSide === 0 ? p : 1 - p) * f.win - (1 - (ourSide === 0 ? p : 1 - p)) * f.risk),
        0,
      );
    const [first, second] = r.series.pnl;
    expect(first![2]).toBe(markedAt(p0!));
    expect(second![2]).toBe(markedAt(p1!));
    expect(r.metrics.pnl.marked).toBe(markedAt(p1!));
  });

  it('samples our quotes of now: a side we left is empty in the next row, a book we left gets no row', () => {
    const s = setUp();
    const best = s.side().offers[0]!;
    // Two offers of ours listed on the recorded side (better for takers than the recorded best), one on the other side.
    const good = oddsFromRank(oddsRank(best.odds) + 2);
    const better = oddsFromRank(oddsRank(best.odds) + 3);
    s.place({ ...s.makerWire, odds: invertOdds(good), bet: 10, orderType: 'post' });
    s.place({ ...s.makerWire, odds: invertOdds(better), bet: 10, orderType: 'post' });
    s.place({ ...s.takerWire, odds: -300, bet: 10, orderType: 'post' });
    const open = () => s.x.engine.openOrders(US);
    expect(open()).toHaveLength(3);
    const listedSide = sideIndexOf(s.taker);
    const col = (side: number) => (side === 0 ? 1 : 3);
    s.c.sample();
    // Leave the better offer and the other side.
    for (const o of open())
      if (o.odds === invertOdds(better) || sideIndexOf(o.selection) === sideIndexOf(s.taker)) s.x.cancel([o.id]);
    s.time.advance(10_000);
    s.c.sample();
    for (const o of open()) s.x.cancel([o.id]);
    s.time.advance(10_000);
    s.c.sample();
    const q = s.finish().series.quotes.find((b) => b.gameID === s.u.gameID && b.bookKey === s.bookKey)!;
    expect(q.rows).toHaveLength(2);
    expect(q.rows[0]![col(listedSide)]).toBe(better);
    expect(q.rows[0]![col(1 - listedSide)]).toBe(invertOdds(-300));
    expect(q.rows[1]![col(listedSide)]).toBe(good);
    expect(q.rows[1]![col(1 - listedSide)]).toBeNull();
  });

  it("keeps each game's deepest liability and samples it only while the game has fills or orders", () => {
    const s = setUp();
    s.place({
      ...s.makerWire,
      odds: invertOdds(oddsFromRank(oddsRank(s.side().offers[0]!.odds) + 2)),
      bet: 100,
      orderType: 'post',
    });
    s.c.sample();
    const deep = s.x.engine.gameProjectedLiability(US, s.u.gameID);
    expect(deep).toBeLessThan(0);
    for (const o of s.x.engine.openOrders(US)) s.x.cancel([o.id]);
    s.time.advance(10_000);
    s.c.sample();
    s.place({
      ...s.makerWire,
      odds: invertOdds(oddsFromRank(oddsRank(s.side().offers[0]!.odds) + 2)),
      bet: 10,
      orderType: 'post',
    });
    s.time.advance(10_000);
    s.c.sample();
    const r = s.finish();
    const rows = r.series.liability[s.u.gameID]!;
    // Sampled at the first and third samples only: in between the game had neither orders nor fills.
    expect(rows.map((row) => row[1])).toEqual([deep, s.x.engine.gameProjectedLiability(US, s.u.gameID)]);
    expect(rows[1]![1]).toBeGreaterThan(deep);
    expect(r.metrics.maxLiability).toBe(deep);
  });

  it('lists our open orders as the engine does, oldest first, through places, partial and full fills and cancels', () => {
    const s = setUp();
    const open = new OpenOrders((o) => o.id);
    s.listeners.push((e) => open.onEvent(e));
    const same = () => expect([...open.values()]).toEqual(s.x.engine.openOrders(US).map((o) => o.id));
    const best = s.side().offers[0]!;
    const at = (ticks: number) => invertOdds(oddsFromRank(oddsRank(best.odds) + ticks));
    // Listed one and two ticks better than the recorded best: the first takes recorded volume first.
    s.place({ ...s.makerWire, odds: at(2), bet: 5, orderType: 'post' });
    s.place({ ...s.makerWire, odds: at(1), bet: 1_000, orderType: 'post' });
    s.place({ ...s.takerWire, odds: -300, bet: 10, orderType: 'post' });
    same();
    expect(open.size).toBe(3);
    // A recorded taker takes through both prices: the small order fills in full, the large in part.
    s.update(s.u.sideOrders.map((o) => (o.id === best.id ? { ...o, sumUntaken: o.sumUntaken - 40 } : o)));
    expect(s.x.engine.openOrders(US)).toHaveLength(2);
    same();
    s.place({ ...s.makerWire, odds: at(1), bet: 7, orderType: 'post' });
    s.x.cancel([s.x.engine.openOrders(US)[0]!.id]);
    same();
    expect(open.size).toBe(2);
  });
});

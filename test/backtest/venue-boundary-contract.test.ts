import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { reportJson } from '../../src/backtest/report/write.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { backtestSettings } from '../../src/app/sweep.ts';
import { loadTape, type Tape } from '../../src/backtest/tape.ts';
import { typedAnswers } from '../../src/backtest/venue/answers-typed.ts';
import { wireAnswers } from '../../src/backtest/venue/answers-wire.ts';
import { BacktestExecution, US } from '../../src/backtest/venue/execution.ts';
import type { VenueBoundary } from '../../src/backtest/venue/simulated-venue.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import type { CancelOutcome, EngineEvent, PlaceOutcome } from '../../src/engine/types.ts';
import type { Decision } from '../../src/runtime/runtime.ts';
import { invertOdds, oddsFromRank, oddsRank } from '../../src/odds/american.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { manualTime } from '../../src/shared/time.ts';
import { userFeedItems } from '../../src/sim/feeds/user-feed-messages.ts';
import type { EditOutcome } from '../../src/sim/ops/edit.ts';
import { firstFileTape, replayToSideUpdate } from './support-replay.ts';

/**
 * The typed venue boundary against the wire path it replaces: the simulated venue builds
 * the runtime's answers and user-feed messages straight from the engine's outcomes, where
 * the wire path renders the exchange's payloads and reads them back through the client's
 * schemas. Both must hand the runtime the same values, so a backtest decides, fills and
 * reports the same either way.
 */

const tapes = new Map<string, Tape>();
beforeAll(async () => {
  for (const r of ['paper-seed13-deep', 'paper-seed11-drops']) tapes.set(r, await loadTape([join('backtest/data', r)]));
});

async function run(recording: string, strategy: string, boundary: VenueBoundary) {
  const config = await loadConfig(join('test/backtest/golden', `${strategy}.yaml`), {
    resolveStrategy: defaultStrategyResolver(strategies),
  });
  const decisions: Decision[] = [];
  const result = await runBacktest({
    config,
    tape: tapes.get(recording)!,
    logger: silentLogger(),
    settings: backtestSettings(config, {}),
    boundary,
    onDecision: (d) => decisions.push(d),
  });
  return { decisions, result };
}

describe('a backtest through the typed venue boundary and through the wire path', () => {
  it.each([
    // Resting quotes re-priced by edits (some replacing, some refused), cancels and passive fills.
    ['paper-seed13-deep', 'fixed-spread'],
    // Crossing orders filled against the recorded book, over a recording with feed drops.
    ['paper-seed11-drops', 'post-arb'],
  ])('%s × %s: the same decisions, fills, orders and report, byte for byte', async (recording, strategy) => {
    const wire = await run(recording, strategy, 'wire');
    const typed = await run(recording, strategy, 'typed');
    const o = typed.result.report.metrics.orders;
    // The scenario exercises what the boundary carries: or the test proves nothing.
    expect(o.placed).toBeGreaterThan(0);
    expect(typed.result.fills.length).toBeGreaterThan(0);
    if (strategy === 'fixed-spread') {
      expect(o.cancelled).toBeGreaterThan(0);
      expect(o.edited).toBeGreaterThan(0);
      expect(o.editsReplacing).toBeGreaterThan(0);
      expect(o.editsRejected).toBeGreaterThan(0);
    } else expect(typed.result.report.metrics.volume.takerFills).toBeGreaterThan(0);
    expect(typed.decisions.length).toBeGreaterThan(0);
    expect(typed.decisions).toEqual(wire.decisions);
    expect(typed.result.fills).toEqual(wire.result.fills);
    expect(typed.result.orders).toEqual(wire.result.orders);
    expect(reportJson(typed.result)).toBe(reportJson(wire.result));
  });
});

describe('each answer of the typed boundary is the wire path’s, field for field', () => {
  const tape = firstFileTape();

  it(
    'places (resting, filled, refused), cancels (done, unknown, invalid, too late), a cancel ' +
      'of all, edits (amended, replaced, refused), every user-feed message of ours and the ' +
      'graded rows of a settlement and a regrade',
    () => {
      const time = manualTime(tape().items[0]!.t);
      const events: EngineEvent[] = [];
      const x = new BacktestExecution({
        time,
        fillModel: { kind: 'risk-averse', power: 2 },
        balance: 100_000,
        commission: 0.01,
        onOwnEvent: (e) => events.push(e),
      });
      const s = replayToSideUpdate(tape(), time, x);
      const typed = typedAnswers(x.engine);
      const wire = wireAnswers(x.engine);
      const kinds = new Set<string>();
      const samePlace = (out: PlaceOutcome) => {
        kinds.add(
          `place:${out.status}:${out.status === 'ok' ? `${out.matched.length > 0}:${out.unmatched !== null}` : out.errorType}`,
        );
        for (const ref of ['ls1:t:1', null]) expect(typed.place(out, ref)).toStrictEqual(wire.place(out, ref));
        return out;
      };
      const sameCancels = (outs: readonly CancelOutcome[], ids: readonly (string | null)[]) => {
        outs.forEach((out, i) => {
          kinds.add(`cancel:${out.success ? 'ok' : out.code}`);
          expect(typed.cancel(out, ids[i] ?? null)).toStrictEqual(wire.cancel(out, ids[i] ?? null));
        });
      };
      const sameEdit = (orderID: string, input: Parameters<BacktestExecution['edit']>[0]) => {
        let out: EditOutcome | undefined;
        x.edit(input, (o) => (out = o));
        if (!out) throw new Error('the edit did not complete at once');
        kinds.add(`edit:${out.status === 'ok' ? out.edit.mode : out.errorType}`);
        expect(typed.edit(orderID, out)).toStrictEqual(wire.edit(orderID, out));
        return out;
      };

      const best = s.side().offers[0]!;
      /** Our odds for an order listed `ticks` behind the best recorded offer. */
      const behindBest = (ticks: number) => invertOdds(oddsFromRank(oddsRank(best.odds) - ticks));
      // A post one tick behind the best rests; a limit at the best takes recorded liquidity.
      const resting = samePlace(s.place({ ...s.makerWire, odds: behindBest(1), bet: 40, orderType: 'post' }));
      samePlace(s.place({ ...s.takerWire, odds: best.odds, bet: 5, orderType: 'limit' }));
      samePlace(s.place({ ...s.takerWire, odds: best.odds, bet: 1e9, orderType: 'fillOrKill' }));
      samePlace(s.place({ ...s.makerWire, side: 'nobody', odds: 150, bet: 10, orderType: 'post' }));
      if (resting.status !== 'ok' || !resting.unmatched) throw new Error('the post did not rest');
      const restingID = resting.unmatched.orderID;

      // An order at the front of its level, partly filled by a recorded taker, then edited: replaced.
      const front = samePlace(s.place({ ...s.makerWire, odds: invertOdds(best.odds), bet: 100, orderType: 'post' }));
      if (front.status !== 'ok' || !front.unmatched) throw new Error('the front post did not rest');
      const frontID = front.unmatched.orderID;
      const drained = s.u.sideOrders.map((o) => (o.odds === best.odds ? { ...o, sumUntaken: 0.000001 } : o));
      s.update(drained);
      const behind = { ...s.u.sideOrders[0]!, id: 'ffffffffffffffffffffffff', odds: best.odds, sumUntaken: 30 };
      s.update([behind, ...drained]);
      s.update([{ ...behind, sumUntaken: 20 }, ...drained]);
      expect(x.engine.order(frontID)?.filled).toBeGreaterThan(0);
      sameEdit(frontID, {
        sessionID: frontID,
        orderOdds: invertOdds(best.odds),
        orderVolume: 80,
        orderType: 'post',
        userReference: 'ls1:t:e1',
      });
      // The resting post amended; then an edit of an order that is not there.
      sameEdit(restingID, {
        sessionID: restingID,
        orderOdds: behindBest(1),
        orderVolume: 30,
        orderType: 'post',
        userReference: 'ls1:t:e2',
      });
      sameEdit('0123456789abcdef01234567', {
        sessionID: '0123456789abcdef01234567',
        orderOdds: 150,
        orderVolume: 10,
        orderType: 'post',
      });

      const ids = [restingID, '0123456789abcdef01234567', 'not an id', restingID];
      sameCancels(x.cancel(ids), ids);
      samePlace(s.place({ ...s.makerWire, odds: behindBest(2), bet: 15, orderType: 'post' }));
      const all = x.cancelAll(s.u.gameID);
      expect(all.length).toBeGreaterThan(0);
      sameCancels(
        all,
        all.map(() => null),
      );

      // The game settles, then is regraded as a refund: a graded row of each version of every bet of ours.
      const graded = events.length;
      expect(x.engine.settleGame(s.u.gameID, { away: 3, home: 1 }).ok).toBe(true);
      expect(x.engine.refundGame(s.u.gameID).ok).toBe(true);
      for (const e of events.slice(graded)) {
        if (e.kind !== 'betGraded') continue;
        for (const game of [x.engine.game(e.bet.gameID), undefined]) {
          const t = typed.graded(game, e.bet, e.grade);
          kinds.add(`graded:${e.bet.origin}:${game ? 'game' : 'no game'}`);
          const w = wire.graded(game, e.bet, e.grade);
          expect(t).toStrictEqual(w);
          // The same keys in the same order: nothing downstream can tell the two apart.
          expect(JSON.stringify(t)).toBe(JSON.stringify(w));
          expect(Object.keys(t)).toEqual(Object.keys(w));
        }
      }

      let n = 0;
      for (const e of events) {
        // The venue builds only ours: the same items, in the same order, as the full build keeps of ours.
        expect(userFeedItems(e, US)).toStrictEqual(userFeedItems(e).filter((i) => i.userId === US));
        for (const item of userFeedItems(e)) {
          if (item.userId !== US) continue;
          const game = x.engine.game(item.gameID);
          const id = `${time.clock.now()}-${++n}`;
          const t = typed.feed(item, game, time.clock.now(), id);
          kinds.add(`feed:${t.type}`);
          expect(t).toStrictEqual(wire.feed(item, game, time.clock.now(), id));
        }
      }
      expect([...kinds].sort()).toEqual(
        expect.arrayContaining([
          'cancel:invalid_id',
          'cancel:not_cancellable',
          'cancel:not_found',
          'cancel:ok',
          'edit:amended',
          'edit:replaced',
          'edit:validation_error',
          'feed:makerFill',
          'feed:orderCancelled',
          'feed:orderPlaced',
          'feed:takerFill',
          'graded:offer:game',
          'graded:offer:no game',
          'graded:wager:game',
          'graded:wager:no game',
          'place:error:validation_error',
          'place:ok:false:true',
          'place:ok:true:false',
        ]),
      );
    },
  );
});

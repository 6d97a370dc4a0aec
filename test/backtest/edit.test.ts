import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { backtestSettings } from '../../src/app/sweep.ts';
import { loadTape } from '../../src/backtest/tape.ts';
import { BacktestExecution, US } from '../../src/backtest/venue/execution.ts';
import { latencyLegs } from '../../src/backtest/venue/latency.ts';
import { backtestSection } from '../../src/config/sections/backtest.ts';
import { createRandom } from '../../src/shared/random.ts';
import type { EditInput, EngineEvent, PlaceOutcome } from '../../src/engine/types.ts';
import type { EditOutcome } from '../../src/sim/ops/edit.ts';
import type { PlaceOrderInput } from '../../src/exchange/orders/types.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { oppositeSelection } from '../../src/markets/types.ts';
import { takerSelectionOfLabel, wireFromSelection } from '../../src/markets/wire-selection.ts';
import { invertOdds, oddsFromRank, oddsRank } from '../../src/odds/american.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { manualTime } from '../../src/shared/time.ts';
import {
  firstFileTape,
  preGameSideUpdate,
  replayIntoVenue,
  replayToSideUpdate,
  simulatedVenue,
} from './support-replay.ts';

const tape = firstFileTape();

/** The engine replica, risk-averse, after the recording's opening snapshot and its first pre-game side update. */
function setUp() {
  const time = manualTime(tape().items[0]!.t);
  const events: EngineEvent[] = [];
  const x = new BacktestExecution({
    time,
    fillModel: { kind: 'risk-averse', power: 2 },
    balance: 100_000,
    commission: 0.01,
    onOwnEvent: (e) => events.push(e),
  });
  const at = replayToSideUpdate(tape(), time, x);
  const ownFills = () => events.flatMap((e) => (e.kind === 'fill' && e.fill.maker.userId === US ? [e.fill] : []));
  const edit = (input: EditInput): EditOutcome => {
    let out: EditOutcome | undefined;
    x.edit(input, (o) => (out = o));
    if (!out) throw new Error('the edit did not complete at once');
    return out;
  };
  return { ...at, side: at.side(), x, ownFills, edit, time };
}

/**
 * Our post at the best listed price, behind what is recorded there, and the side with
 * everything ahead of us traded away: the next trade at our price is ours, if we are still
 * at the front.
 */
function atTheFront(s: ReturnType<typeof setUp>) {
  const best = s.side.offers[0]!;
  const placed = s.place({ ...s.makerWire, odds: invertOdds(best.odds), bet: 100, orderType: 'post' });
  if (placed.status !== 'ok' || !placed.unmatched) throw new Error(`our post did not rest: ${JSON.stringify(placed)}`);
  const drained = s.u.sideOrders.map((o) => (o.odds === best.odds ? { ...o, sumUntaken: 0.000001 } : o));
  s.update(drained);
  expect(s.ownFills()).toHaveLength(0);
  // Someone joins behind us at our price: what later trades of it met us first, if we are ahead.
  const behind = { ...s.u.sideOrders[0]!, id: 'ffffffffffffffffffffffff', odds: best.odds, sumUntaken: 30 };
  s.update([behind, ...drained]);
  const trade = () => s.update([{ ...behind, sumUntaken: 20 }, ...drained]);
  return { id: placed.unmatched.orderID, odds: invertOdds(best.odds), trade };
}

const filledStake = (s: ReturnType<typeof setUp>) => s.ownFills().reduce((a, f) => a + f.taker.money.amount, 0);

describe('an edit in the backtest’s execution', () => {
  it('an amend the engine lets keep its place keeps its place in the recorded queue', () => {
    const s = setUp();
    const o = atTheFront(s);
    const out = s.edit({
      sessionID: o.id,
      orderOdds: o.odds,
      orderVolume: 60,
      orderType: 'post',
      userReference: 'ls1:test:e1',
    });
    expect(out).toMatchObject({ status: 'ok', edit: { mode: 'amended', queue: 'kept' } });
    expect(s.x.engine.order(o.id)).toMatchObject({ status: 'open', bet: 60, remaining: 60 });
    o.trade();
    expect(filledStake(s)).toBeCloseTo(10, 4);
  });

  it('an amend the engine sends to the back of its level goes behind everything recorded there', () => {
    const s = setUp();
    const o = atTheFront(s);
    // A larger volume costs the order its place (as would new odds, type or expiry).
    const out = s.edit({
      sessionID: o.id,
      orderOdds: o.odds,
      orderVolume: 150,
      orderType: 'post',
      userReference: 'ls1:test:e1',
    });
    expect(out).toMatchObject({ status: 'ok', edit: { mode: 'amended', queue: 'back' } });
    expect(s.x.engine.order(o.id)).toMatchObject({ status: 'open', bet: 150, remaining: 150 });
    o.trade();
    expect(filledStake(s)).toBe(0);
  });

  it('a partly filled order’s edit cancels it and places a new order for the whole new volume, at the back of the queue', () => {
    const s = setUp();
    const o = atTheFront(s);
    o.trade();
    expect(filledStake(s)).toBeCloseTo(10, 4);
    const out = s.edit({
      sessionID: o.id,
      orderOdds: o.odds,
      orderVolume: 80,
      orderType: 'post',
      userReference: 'ls1:test:e2',
    });
    if (out.status !== 'ok' || !out.unmatched) throw new Error(`the edit did not rest: ${JSON.stringify(out)}`);
    expect(out.edit.mode).toBe('replaced');
    expect(out.unmatched.orderID).not.toBe(o.id);
    expect(s.x.engine.order(o.id)?.status).toBe('cancelled');
    // The fills so far are not netted: the new order offers all of the new volume.
    expect(s.x.engine.order(out.unmatched.orderID)).toMatchObject({
      status: 'open',
      bet: 80,
      remaining: 80,
      filled: 0,
    });
    // A new order: behind the 20 recorded at its price, so the next 10 traded are not ours.
    const before = filledStake(s);
    s.update([
      {
        ...s.u.sideOrders[0]!,
        id: 'ffffffffffffffffffffffff',
        odds: oddsFromRank(oddsRank(invertOdds(o.odds))),
        sumUntaken: 10,
      },
      ...s.u.sideOrders.map((x) => (x.odds === invertOdds(o.odds) ? { ...x, sumUntaken: 0.000001 } : x)),
    ]);
    expect(filledStake(s)).toBe(before);
  });
});

describe('an order that crosses on a live game', () => {
  it('a place waits out the live delay, then takes the recorded liquidity there', () => {
    const s = setUp();
    const best = s.side.offers[0]!;
    s.x.applyOrderUpdate({ ...s.u, live: true, epoch: s.u.epoch! + s.time.clock.now() + 1 }, s.time.clock.now());
    let out: PlaceOutcome | undefined;
    s.x.place(
      [
        {
          gameID: s.u.gameID,
          ...s.takerWire,
          odds: best.odds,
          bet: 10,
          orderType: 'limit',
          userReference: 'ls1:test:live',
        },
      ],
      (o) => (out = o[0]),
    );
    expect(out).toBeUndefined();
    s.time.advance(60_000);
    if (out?.status !== 'ok') throw new Error(`the delayed place did not run: ${JSON.stringify(out)}`);
    expect(out.matched.length).toBeGreaterThan(0);
    expect(s.x.stats.takenStake).toBeGreaterThan(0);
  });

  it('waits out the live delay, then meets the recorded liquidity as the book is then, the order resting as it was meanwhile', () => {
    const s = setUp();
    const best = s.side.offers[0]!;
    // Live first: going live expires the orders placed before the start.
    s.x.applyOrderUpdate({ ...s.u, live: true, epoch: s.u.epoch! + s.time.clock.now() + 1 }, s.time.clock.now());
    expect(s.x.engine.game(s.u.gameID)?.live).toBe(true);
    const placed = s.place({
      ...s.takerWire,
      odds: oddsFromRank(oddsRank(best.odds) + 40),
      bet: 10,
      orderType: 'limit',
    });
    if (placed.status !== 'ok' || !placed.unmatched)
      throw new Error(`our limit did not rest: ${JSON.stringify(placed)}`);
    const id = placed.unmatched.orderID;
    let out: EditOutcome | undefined;
    s.x.edit(
      { sessionID: id, orderOdds: best.odds, orderVolume: 10, orderType: 'limit', userReference: 'ls1:test:live' },
      (o) => (out = o),
    );
    expect(out, JSON.stringify(out)).toBeUndefined();
    expect(s.x.engine.order(id)).toMatchObject({ status: 'open', odds: oddsFromRank(oddsRank(best.odds) + 40) });
    s.time.advance(60_000);
    if (out?.status !== 'ok') throw new Error(`the delayed edit did not run: ${JSON.stringify(out)}`);
    expect(out.edit).toMatchObject({ mode: 'amended', queue: 'back' });
    expect(out.matched.length, JSON.stringify(out)).toBeGreaterThan(0);
    expect(s.x.stats.takenStake).toBeGreaterThan(0);
  });
});

describe('an edit through the simulated venue', () => {
  it('offers the edit and the cancels of everything, as the REST venue does', () => {
    const time = manualTime(tape().items[0]!.t);
    const venue = simulatedVenue(time, { latencyMs: 0, balance: 1_000 });
    for (const g of [venue.orders, venue.rest]) {
      expect(typeof g.edit).toBe('function');
      expect(typeof g.cancelAllOfAccount).toBe('function');
      expect(typeof g.cancelAllOfGame).toBe('function');
    }
  });

  it('reaches the book after the edit leg and answers one leg from the exchange later, with the user feed’s message of the amend', async () => {
    const time = manualTime(tape().items[0]!.t);
    const venue = simulatedVenue(time, {
      latencyMs: { place: 5, cancel: 200, edit: 30, fromExchange: 10 },
      balance: 10_000,
    });
    const u = replayIntoVenue(tape(), time, venue, preGameSideUpdate);
    if (!u) throw new Error('no pre-game side update in the sample');
    const game = venue.execution.game(u.gameID)!;
    const taker = takerSelectionOfLabel(game.participants, u.type, u)!;
    const listed = oddsFromRank(oddsRank(u.sideOrders[0]!.odds) + 1);
    const odds = invertOdds(listed);
    const placed = venue.orders.place([
      {
        gameID: u.gameID,
        ...wireFromSelection(game.participants, oppositeSelection(taker)),
        odds,
        bet: 50,
        orderType: 'post',
        userReference: 'ls1:t:1',
      } as PlaceOrderInput,
    ]);
    time.advance(15);
    const [entry] = await placed;
    if (entry?.status !== 'accepted' || !entry.resting)
      throw new Error(`our post did not rest: ${JSON.stringify(entry)}`);
    const id = entry.resting.orderID;
    const fed: { at: number; type: string; orderID?: string }[] = [];
    venue.userFeed.events$.subscribe((e) =>
      fed.push({
        at: time.clock.now(),
        type: e.type,
        ...('message' in e && e.message?.unmatched ? { orderID: e.message.unmatched.orderID } : {}),
      }),
    );

    const t1 = time.clock.now();
    let told = false;
    const edited = venue.orders.edit!({ orderID: id, odds, bet: 40, orderType: 'post', userReference: 'ls1:t:2' });
    void edited.then(() => (told = true));
    time.advanceTo(t1 + 29);
    expect(venue.execution.engine.order(id)).toMatchObject({ bet: 50 });
    time.advanceTo(t1 + 30);
    expect(venue.execution.engine.order(id)).toMatchObject({
      status: 'open',
      bet: 40,
      remaining: 40,
      userReference: 'ls1:t:2',
    });
    time.advanceTo(t1 + 39);
    for (let i = 0; i < 4; i++) await Promise.resolve();
    expect(told).toBe(false);
    expect(fed).toEqual([]);
    time.advanceTo(t1 + 40);
    const e = await edited;
    if (e.status !== 'accepted') throw new Error(`the edit was not accepted: ${JSON.stringify(e)}`);
    expect(e.original).toMatchObject({ ok: true, orderID: id });
    expect(e.resting).toMatchObject({ orderID: id });
    expect(fed.length).toBeGreaterThan(0);
    expect(fed.every((m) => m.at === t1 + 40)).toBe(true);

    // An edit of an order that is gone is refused, naming why.
    const gone = venue.orders.cancelAllOfGame!(u.gameID);
    time.advance(210);
    expect((await gone).map((c) => c.ok && c.orderID)).toEqual([id]);
    const refused = venue.orders.edit!({ orderID: id, odds, bet: 40, orderType: 'post', userReference: 'ls1:t:3' });
    time.advance(40);
    expect(await refused).toMatchObject({ status: 'rejected', errorType: 'validation_error' });
  });
});

describe('a backtest re-prices with edits', () => {
  it('sends a resting post’s re-pricing as one edit, visible in the report, with the fills after it on the edit’s row', async () => {
    const config = await loadConfig(join('test/backtest/golden', 'fixed-spread.yaml'), {
      resolveStrategy: defaultStrategyResolver(strategies),
    });
    const result = await runBacktest({
      config,
      tape: await loadTape([join('backtest/data', 'paper-seed7')]),
      logger: silentLogger(),
      settings: backtestSettings(config, {}),
    });
    const m = result.report.metrics.orders;
    expect(m.edited).toBeGreaterThan(0);
    const rows = result.orders;
    const edits = rows.filter((r) => r.editOf !== '');
    expect(edits.length).toBe(m.edited);
    expect(rows.filter((r) => r.editOf === '' && !r.status.startsWith('rejected')).length).toBe(m.placed);
    // An unfilled post is amended in place: the edit's row keeps the order's id, and the row it came from is closed as edited.
    const amended = edits.filter((r) => r.orderID === r.editOf);
    expect(amended.length).toBeGreaterThan(0);
    for (const r of amended)
      expect(
        rows.some(
          (o) =>
            o.orderID === r.editOf && o.status.startsWith('edited') && o.closedAt !== null && o.closedAt <= r.placedAt,
        ),
      ).toBe(true);
    // Each maker fill counts on the row whose terms it filled (the one open at the fill, at the fill's odds), and only there.
    const makerFills = result.fills.filter((x) => x.origin === 'offer');
    for (const f of makerFills) {
      const open = rows.filter(
        (r) =>
          r.orderID === f.orderID &&
          r.placedAt <= f.t &&
          (r.closedAt === null || r.closedAt >= f.t) &&
          r.odds === f.odds,
      );
      expect(open.length, `fill ${f.txID}`).toBe(1);
    }
    const byOrder = new Map<string, number>();
    for (const f of makerFills) byOrder.set(f.orderID, (byOrder.get(f.orderID) ?? 0) + f.amount);
    for (const [id, amount] of byOrder)
      expect(rows.filter((r) => r.orderID === id).reduce((a, r) => a + r.filled, 0)).toBeCloseTo(amount, 6);
    // A partly filled order's edit replaces it: a new id, and the cancel it makes is the edit's, not counted as one of ours.
    expect(m.editsReplacing).toBeGreaterThan(0);
    expect(edits.filter((r) => r.orderID !== r.editOf).length).toBe(m.editsReplacing);
    expect(rows.filter((r) => r.status === 'edited (replaced)').length).toBe(m.editsReplacing);
    expect(rows.filter((r) => r.status === 'cancelled').length).toBe(m.cancelled);
  }, 120_000);
});

describe('the edit request’s latency leg', () => {
  it('is the place request’s without a model of its own, and its own with one, leaving the other legs’ draws as they were', () => {
    const every = { kind: 'lognormal', medianMs: 40, sigma: 0.5 } as const;
    const place = { kind: 'uniform', minMs: 1_000, maxMs: 2_000 } as const;
    const a = latencyLegs({ ...every, place }, createRandom(3));
    const b = latencyLegs({ ...every, place }, createRandom(3));
    // Without an edit model, an edit draws from the place request's sampler.
    expect([a.edit(), a.place(), a.cancel(), a.fromExchange()]).toEqual([
      b.place(),
      b.place(),
      b.cancel(),
      b.fromExchange(),
    ]);
    const own = latencyLegs({ ...every, place, edit: { kind: 'fixed', ms: 7 } }, createRandom(3));
    const c = latencyLegs({ ...every, place }, createRandom(3));
    expect([own.edit(), own.place(), own.cancel(), own.fromExchange(), own.edit()]).toEqual([
      7,
      c.place(),
      c.cancel(),
      c.fromExchange(),
      7,
    ]);
  });

  it('is read from backtest.latency.edit, as the place and cancel overrides are', () => {
    const parsed = backtestSection().parse({ latency: { kind: 'fixed', ms: 50, edit: { kind: 'fixed', ms: 80 } } });
    expect(parsed.latency).toMatchObject({ kind: 'fixed', ms: 50, edit: { kind: 'fixed', ms: 80 } });
    expect(() =>
      backtestSection().parse({ latency: { kind: 'fixed', ms: 50, edit: { kind: 'fixed', ms: -1 } } }),
    ).toThrow();
  });
});

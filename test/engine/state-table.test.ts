/**
 * exchange-api §3 (states and transitions), one block per row of the table, driven
 * through the public MatchingEngine API only.
 */
import { describe, it, expect, beforeEach } from 'vitest';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { createIdGenerator } from '../../src/engine/ids.ts';
import type { EngineEvent, PlaceEntry, PlaceInput } from '../../src/engine/types.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { G, AWAY, HOME, ML, ml, ok, fail } from '../support/engine-fixture.ts';

const T0 = Date.UTC(2026, 0, 10, 18, 0, 0);
const HOUR = 3_600_000;

function newEngine(opts: { live?: boolean; league?: string } = {}) {
  const clock = new ManualClock(T0);
  const engine = new MatchingEngine({ clock, ids: createIdGenerator(7) });
  for (const id of ['maker', 'maker2', 'taker'])
    expect(engine.addUser({ id, balance: 1_000_000, commissionRate: 0.01 }).ok).toBe(true);
  const added = engine.addGame({
    id: G,
    league: opts.league ?? 'NBA',
    sport: 'basketball',
    participants: [
      { id: AWAY, longName: 'Away Team', shortName: 'AWY' },
      { id: HOME, longName: 'Home Team', shortName: 'HOM' },
    ],
    start: T0 + HOUR,
    live: opts.live ?? false,
  });
  expect(added.ok).toBe(true);
  return { clock, engine };
}

function one(engine: MatchingEngine, user: string, input: PlaceInput): PlaceEntry {
  const out = engine.place(user, [input]);
  expect(out).toHaveLength(1);
  return out[0]!;
}

/** A snapshot of both sides of a book that ignores nothing a taker could see. */
function snapshot(engine: MatchingEngine, key = ML) {
  return [0, 1].map((side) =>
    engine
      .bookSide(G, key, side as 0 | 1)
      .map((l) => ({ id: l.order.id, odds: l.listedOdds, sumUntaken: l.sumUntaken, remaining: l.order.remaining })),
  );
}

/** Maker backs away at +150 risking 100: listed to home takers at -150, sumUntaken 150. */
function restAwayPlus150(engine: MatchingEngine, user = 'maker', risk = 100): string {
  const r = ok(one(engine, user, ml('away', 150, risk)));
  expect(r.matched).toEqual([]);
  expect(r.unmatched).not.toBeNull();
  return r.unmatched!.orderID;
}

describe('§3 place limit', () => {
  it('matches fully when liquidity covers the bet at price or better (taker pays commission)', () => {
    const { engine } = newEngine();
    const makerOrder = restAwayPlus150(engine);
    const r = ok(one(engine, 'taker', ml('home', -150, 150)));
    expect(r.unmatched).toBeNull();
    expect(r.matched).toHaveLength(1);
    const f = r.matched[0]!;
    expect(f.orderID).toBe(makerOrder);
    expect(f.amount).toBeCloseTo(150, 9);
    expect(f.odds).toBe(-150);
    expect(f.winWithoutCommission).toBeCloseTo(100, 9);
    expect(f.win).toBeCloseTo(99, 9); // taker commission 1%
    expect(f.risk).toBeCloseTo(151, 9);
    expect(engine.order(makerOrder)?.status).toBe('filled');
    expect(engine.bookSide(G, ML, 0)).toEqual([]);
    expect(engine.bookSide(G, ML, 1)).toEqual([]);
    const takerBet = engine.bets('taker')[0]!;
    expect(takerBet.origin).toBe('wager');
    expect(engine.order(takerBet.orderID)?.status).toBe('filled');
    expect(engine.openOrders('taker')).toEqual([]);
  });

  it('matches partly and rests the remainder as a maker at its own odds', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine);
    const r = ok(one(engine, 'taker', ml('home', -150, 200)));
    expect(r.matched).toHaveLength(1);
    expect(r.matched[0]!.amount).toBeCloseTo(150, 9);
    expect(r.matched[0]!.win).toBeCloseTo(99, 9);
    expect(r.unmatched).not.toBeNull();
    const u = r.unmatched!;
    expect(u.offered).toBeCloseTo(50, 9);
    expect(u.odds).toBe(-150);
    expect(u.side).toBe(HOME);
    expect(u.type).toBe('moneyline');
    expect(u.number).toBeNull();
    expect(u.wagerRequestID).toBe(r.matched[0]!.wagerRequestID);
    // The remainder backs home at -150, so it is offered to away takers at +150.
    const listed = engine.bookSide(G, ML, 1);
    expect(listed).toHaveLength(1);
    expect(listed[0]!.order.id).toBe(u.orderID);
    expect(listed[0]!.listedOdds).toBe(150);
    expect(listed[0]!.sumUntaken).toBeCloseTo(50 / 1.5, 9);
    const view = engine.order(u.orderID)!;
    expect(view.status).toBe('open');
    expect(view.filled).toBeCloseTo(150, 9);
    expect(view.remaining).toBeCloseTo(50, 9);
    expect(view.bet).toBe(200);
    expect(engine.openOrders('taker').map((o) => o.id)).toEqual([u.orderID]);
  });

  it('rests entirely when nothing matches: matched is empty, unmatched holds the order', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine); // listed at -150 for home takers
    const r = ok(one(engine, 'taker', ml('home', -140, 100))); // wants a better price than offered
    expect(r.matched).toEqual([]);
    expect(r.unmatched).toMatchObject({ offered: 100, odds: -140, side: HOME, type: 'moneyline', number: null });
    expect(engine.bets('taker')).toEqual([]);
    expect(engine.bookSide(G, ML, 1).map((l) => l.order.id)).toEqual([r.unmatched!.orderID]);
    expect(engine.bookSide(G, ML, 0)).toHaveLength(1);
  });

  it('orderType defaults to limit', () => {
    const { engine } = newEngine();
    const r = ok(one(engine, 'taker', ml('home', -140, 100)));
    expect(engine.order(r.unmatched!.orderID)?.orderType).toBe('limit');
  });
});

describe('§3 place post', () => {
  it('is rejected when it would match, leaving the book unchanged', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine);
    const before = snapshot(engine);
    const e = fail(one(engine, 'taker', ml('home', -160, 50, { orderType: 'post' })));
    expect(e.errorType).toBe('rejected_order_type_rules');
    expect(e.error).toBe('post order cannot have matches');
    expect(snapshot(engine)).toEqual(before);
    expect(engine.bets('taker')).toEqual([]);
    expect(engine.bets('maker')).toEqual([]);
  });

  it('rests when it would not match', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine);
    const r = ok(one(engine, 'taker', ml('home', -140, 50, { orderType: 'post' })));
    expect(r.matched).toEqual([]);
    expect(r.unmatched?.offered).toBe(50);
    const o = engine.order(r.unmatched!.orderID)!;
    expect(o.status).toBe('open');
    expect(o.orderType).toBe('post');
    expect(o.isPostArb).toBe(false);
  });
});

describe('§3 place postArb', () => {
  // Maker backs away at +200 risking 100: home takers see -200 with sumUntaken 200.
  function withMaker() {
    const ctx = newEngine();
    const r = ok(one(ctx.engine, 'maker', ml('away', 200, 100)));
    return { ...ctx, makerOrder: r.unmatched!.orderID };
  }

  it('matches within 1% of the resting odds, at the resting price, without taker commission', () => {
    const { engine, makerOrder } = withMaker();
    // |-202 - (-200)| = 2 ≤ 1% of 200.
    const r = ok(one(engine, 'taker', ml('home', -202, 40, { orderType: 'postArb' })));
    expect(r.unmatched).toBeNull();
    expect(r.matched).toHaveLength(1);
    const f = r.matched[0]!;
    expect(f.orderID).toBe(makerOrder);
    expect(f.odds).toBe(-200);
    expect(f.amount).toBe(40);
    expect(f.winWithoutCommission).toBeCloseTo(20, 9);
    expect(f.win).toBe(f.winWithoutCommission);
    expect(f.risk).toBe(f.amount);
    const bet = engine.bets('taker')[0]!;
    expect(bet.isPostArb).toBe(true);
    expect(bet.money.risk).toBe(40);
    expect(bet.money.commissionOnWin).toBe(0);
    expect(bet.money.commissionOnLoss).toBe(0);
  });

  it('an ordinary limit at the same price does pay taker commission (control)', () => {
    const { engine } = withMaker();
    const f = ok(one(engine, 'taker', ml('home', -202, 40))).matched[0]!;
    expect(f.win).toBeCloseTo(20 * 0.99, 9);
    expect(f.risk).toBeCloseTo(40 + 0.01 * 20, 9);
  });

  it('is rejected when it would match outside the 1% band; book unchanged', () => {
    const { engine } = withMaker();
    const before = snapshot(engine);
    // |-203 - (-200)| = 3 > 2.
    const e = fail(one(engine, 'taker', ml('home', -203, 40, { orderType: 'postArb' })));
    expect(e.errorType).toBe('rejected_order_type_rules');
    expect(e.error).toMatch(/postArb/);
    expect(snapshot(engine)).toEqual(before);
    expect(engine.bets('taker')).toEqual([]);
  });

  it('rests like post when it would not match, flagged isPostArb', () => {
    const { engine } = withMaker();
    const r = ok(one(engine, 'taker', ml('home', -190, 40, { orderType: 'postArb' })));
    expect(r.matched).toEqual([]);
    const o = engine.order(r.unmatched!.orderID)!;
    expect(o.isPostArb).toBe(true);
    expect(o.orderType).toBe('postArb');
    expect(engine.bookSide(G, ML, 1).map((l) => l.order.id)).toEqual([o.id]);
  });

  it('a partial postArb match rests its remainder', () => {
    const { engine } = withMaker();
    expect(engine.bookSide(G, ML, 0)[0]!.sumUntaken).toBeCloseTo(200, 9);
    const r = ok(one(engine, 'taker', ml('home', -202, 250, { orderType: 'postArb' })));
    expect(r.matched.map((m) => m.amount)).toEqual([200]);
    expect(r.matched[0]!.win).toBe(r.matched[0]!.winWithoutCommission);
    expect(r.matched[0]!.risk).toBe(200);
    expect(r.unmatched?.offered).toBeCloseTo(50, 9);
    expect(engine.order(r.unmatched!.orderID)?.isPostArb).toBe(true);
    expect(engine.bookSide(G, ML, 0)).toEqual([]);
  });

  it('settles with no fee on the postArb taker side', () => {
    const { engine } = withMaker();
    ok(one(engine, 'taker', ml('home', -202, 40, { orderType: 'postArb' })));
    const graded = engine.settleGame(G, { away: 90, home: 100 });
    expect(graded.ok).toBe(true);
    const g = engine.grades('taker')[0]!;
    expect(g.outcome).toBe('winner');
    expect(g.fee).toBe(0);
    expect(g.result).toBeCloseTo(20, 9);
  });
});

describe('§3 place fillAndKill', () => {
  it('partial fill is a success; the remainder is cancelled and never rests', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine);
    const r = ok(one(engine, 'taker', ml('home', -150, 200, { orderType: 'fillAndKill' })));
    expect(r.matched.map((m) => m.amount)).toEqual([150]);
    expect(r.unmatched).toBeNull();
    expect(engine.bookSide(G, ML, 0)).toEqual([]);
    expect(engine.bookSide(G, ML, 1)).toEqual([]);
    expect(engine.openOrders('taker')).toEqual([]);
    const order = engine.order(engine.bets('taker')[0]!.orderID)!;
    expect(order.status).toBe('cancelled');
    expect(order.closeReason).toBe('fillAndKill');
    expect(order.filled).toBeCloseTo(150, 9);
  });

  it('full fill is a success', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine);
    const r = ok(one(engine, 'taker', ml('home', -150, 100, { orderType: 'fillAndKill' })));
    expect(r.matched.map((m) => m.amount)).toEqual([100]);
    expect(r.unmatched).toBeNull();
    expect(engine.order(engine.bets('taker')[0]!.orderID)?.status).toBe('filled');
    // maker keeps the untaken part: 100 - 100/1.5
    expect(engine.bookSide(G, ML, 0)[0]!.sumUntaken).toBeCloseTo(50, 9);
  });

  it('is rejected with no matchable liquidity (empty book)', () => {
    const { engine } = newEngine();
    const e = fail(one(engine, 'taker', ml('home', -150, 100, { orderType: 'fillAndKill' })));
    expect(e).toEqual({
      status: 'error',
      errorType: 'rejected_order_type_rules',
      error: 'fill and kill has no matches',
    });
    expect(engine.bookSide(G, ML, 1)).toEqual([]);
  });

  it('is rejected when liquidity exists only at a worse price', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine); // -150 for home takers
    const before = snapshot(engine);
    const e = fail(one(engine, 'taker', ml('home', -140, 100, { orderType: 'fillAndKill' })));
    expect(e.error).toBe('fill and kill has no matches');
    expect(snapshot(engine)).toEqual(before);
  });
});

describe('§3 place fillOrKill', () => {
  it('matches when the whole bet is available', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine); // capacity 150
    const r = ok(one(engine, 'taker', ml('home', -150, 150, { orderType: 'fillOrKill' })));
    expect(r.matched.map((m) => m.amount)).toEqual([150]);
    expect(r.unmatched).toBeNull();
  });

  it('matches across several price levels', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine); // 150 at -150
    ok(one(engine, 'maker2', ml('away', 160, 100))); // 160 at -160
    const r = ok(one(engine, 'taker', ml('home', -160, 300, { orderType: 'fillOrKill' })));
    expect(r.matched.map((m) => [m.odds, m.amount])).toEqual([
      [-150, 150],
      [-160, 150],
    ]);
    expect(r.unmatched).toBeNull();
  });

  it('a residual of exactly 10 counts as complete; the residual is cancelled', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine);
    const r = ok(one(engine, 'taker', ml('home', -150, 160, { orderType: 'fillOrKill' })));
    expect(r.matched.map((m) => m.amount)).toEqual([150]);
    expect(r.unmatched).toBeNull();
    const order = engine.order(engine.bets('taker')[0]!.orderID)!;
    expect(order.status).toBe('cancelled');
    expect(order.closeReason).toBe('fillOrKill');
    expect(engine.bookSide(G, ML, 1)).toEqual([]);
    expect(engine.openOrders('taker')).toEqual([]);
  });

  it('a residual of exactly 10.00 counts as complete when the capacity is inexact in floating point', () => {
    const { engine } = newEngine();
    // Maker home -179 risking 17.90: away takers can stake 17.90 × 100/179 = 10.00 (9.999999999999998 in floats).
    const id = ok(one(engine, 'maker', ml('home', -179, 17.9))).unmatched!.orderID;
    const r = ok(one(engine, 'taker', ml('away', 179, 20, { orderType: 'fillOrKill' })));
    expect(r.matched.map((m) => m.orderID)).toEqual([id]);
    expect(r.matched[0]!.amount).toBeCloseTo(10, 9);
    expect(r.unmatched).toBeNull();
    expect(engine.order(id)?.status).toBe('filled');
    // ... and a cent more is still rejected.
    ok(one(engine, 'maker', ml('home', -179, 17.9)));
    expect(fail(one(engine, 'taker', ml('away', 179, 20.01, { orderType: 'fillOrKill' }))).error).toBe(
      'fill or kill matched but not fully',
    );
  });

  it('a residual below 10 also counts as complete', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine);
    const r = ok(one(engine, 'taker', ml('home', -150, 155.5, { orderType: 'fillOrKill' })));
    expect(r.matched.map((m) => m.amount)).toEqual([150]);
  });

  it('is rejected with no liquidity', () => {
    const { engine } = newEngine();
    const e = fail(one(engine, 'taker', ml('home', -150, 100, { orderType: 'fillOrKill' })));
    expect(e).toEqual({
      status: 'error',
      errorType: 'rejected_order_type_rules',
      error: 'fill or kill has no matches',
    });
  });

  it('a residual above 10 rejects and leaves the book exactly as it was', () => {
    const { engine } = newEngine();
    restAwayPlus150(engine);
    ok(one(engine, 'maker2', ml('away', 160, 10))); // +16 more at -160
    const before = snapshot(engine);
    const makerBefore = engine.openOrders('maker');
    const e = fail(one(engine, 'taker', ml('home', -160, 176.01, { orderType: 'fillOrKill' }))); // residual 10.01
    expect(e.errorType).toBe('rejected_order_type_rules');
    expect(e.error).toBe('fill or kill matched but not fully');
    expect(snapshot(engine)).toEqual(before);
    expect(engine.openOrders('maker')).toEqual(makerBefore);
    expect(engine.bets('taker')).toEqual([]);
    expect(engine.bets('maker')).toEqual([]);
    expect(engine.bets('maker2')).toEqual([]);
    expect(engine.matchedVolume(G)).toBe(0);
    // Capacity is 150 + 16 = 166: a bet of 176 leaves a residual of exactly 10 and is accepted.
    const r = ok(one(engine, 'taker', ml('home', -160, 176, { orderType: 'fillOrKill' })));
    expect(r.matched.reduce((s, m) => s + m.amount, 0)).toBeCloseTo(166, 9);
  });
});

describe('§3 live delay', () => {
  /** Live NBA game (5 s delay) with a maker at -150 for home takers. */
  function live() {
    const ctx = newEngine({ live: true, league: 'NBA' });
    const events: EngineEvent[] = [];
    ctx.engine.onEvent((e) => events.push(e));
    const makerOrder = restAwayPlus150(ctx.engine); // non-crossing: rests at once even live
    return { ...ctx, events, makerOrder };
  }

  it('a crossing order is delayed; nothing happens before the delay; afterwards it matches', () => {
    const { engine, clock, events, makerOrder } = live();
    const e = one(engine, 'taker', ml('home', -150, 60));
    expect(e.status).toBe('delayed');
    if (e.status !== 'delayed') return;
    expect(e.executeAt).toBe(T0 + 5_000);
    const book = snapshot(engine);

    clock.advance(4_999);
    engine.advance();
    expect(snapshot(engine)).toEqual(book);
    expect(engine.bets('taker')).toEqual([]);
    expect(events.some((x) => x.kind === 'delayedExecuted' || x.kind === 'fill')).toBe(false);

    clock.advance(1);
    events.length = 0;
    engine.advance();
    const done = events.find((x) => x.kind === 'delayedExecuted');
    expect(done).toBeDefined();
    if (done?.kind !== 'delayedExecuted') return;
    expect(done.ticket).toBe(e.ticket);
    expect(done.userId).toBe('taker');
    const r = ok(done.outcome);
    expect(r.matched).toHaveLength(1);
    expect(r.matched[0]!.orderID).toBe(makerOrder);
    expect(r.matched[0]!.odds).toBe(-150);
    expect(r.matched[0]!.amount).toBe(60);
    expect(r.unmatched).toBeNull();
    expect(engine.bets('taker')).toHaveLength(1);
    expect(engine.bets('taker')[0]!.matchedAt).toBe(T0 + 5_000);
  });

  it('any public call after the delay runs the due order', () => {
    const { engine, clock } = live();
    expect(one(engine, 'taker', ml('home', -150, 60)).status).toBe('delayed');
    clock.advance(5_000);
    engine.cancelAll('nobody'); // unrelated mutating call
    expect(engine.bets('taker')).toHaveLength(1);
  });

  it('if the price improved meanwhile it matches at the better price', () => {
    const { engine, clock, events } = live();
    const e = one(engine, 'taker', ml('home', -160, 60));
    expect(e.status).toBe('delayed');
    clock.advance(2_000);
    const better = ok(one(engine, 'maker2', ml('away', 130, 100))).unmatched!.orderID; // -130 for home takers
    clock.advance(3_000);
    engine.advance();
    const done = events.find((x) => x.kind === 'delayedExecuted');
    if (done?.kind !== 'delayedExecuted') throw new Error('no delayedExecuted');
    const r = ok(done.outcome);
    expect(r.matched).toHaveLength(1);
    expect(r.matched[0]!.orderID).toBe(better);
    expect(r.matched[0]!.odds).toBe(-130);
    expect(r.matched[0]!.winWithoutCommission).toBeCloseTo(60 / 1.3, 9);
  });

  it('if the price got worse meanwhile it does not match, and a limit rests', () => {
    const { engine, clock, events, makerOrder } = live();
    const e = one(engine, 'taker', ml('home', -150, 60));
    expect(e.status).toBe('delayed');
    clock.advance(1_000);
    expect(engine.cancel('maker', makerOrder).success).toBe(true);
    ok(one(engine, 'maker', ml('away', 170, 100))); // now -170 for home takers: worse
    clock.advance(4_000);
    engine.advance();
    const done = events.find((x) => x.kind === 'delayedExecuted');
    if (done?.kind !== 'delayedExecuted') throw new Error('no delayedExecuted');
    const r = ok(done.outcome);
    expect(r.matched).toEqual([]);
    expect(r.unmatched).toMatchObject({ offered: 60, odds: -150 });
    expect(engine.bets('taker')).toEqual([]);
    const resting = engine.order(r.unmatched!.orderID)!;
    expect(resting.status).toBe('open');
    expect(resting.gameStartExpiry).toBe(false);
    expect(engine.bookSide(G, ML, 1).map((l) => l.order.id)).toEqual([resting.id]);
  });

  it('a delayed fillAndKill whose liquidity vanished is rejected when it executes', () => {
    const { engine, clock, events, makerOrder } = live();
    expect(one(engine, 'taker', ml('home', -150, 60, { orderType: 'fillAndKill' })).status).toBe('delayed');
    engine.cancel('maker', makerOrder);
    clock.advance(5_000);
    engine.advance();
    const done = events.find((x) => x.kind === 'delayedExecuted');
    if (done?.kind !== 'delayedExecuted') throw new Error('no delayedExecuted');
    expect(done.outcome).toEqual({
      status: 'error',
      errorType: 'rejected_order_type_rules',
      error: 'fill and kill has no matches',
    });
    expect(engine.openOrders('taker')).toEqual([]);
  });

  it('a non-crossing order on a live game rests at once', () => {
    const { engine } = live();
    const r = ok(one(engine, 'taker', ml('home', -140, 60)));
    expect(r.unmatched?.offered).toBe(60);
    expect(engine.order(r.unmatched!.orderID)?.gameStartExpiry).toBe(false);
  });

  it.each([
    ['NFL', 3],
    ['UFCMMA', 3],
    ['NCAAF', 3],
    ['NCAAB', 5],
    ['NBA', 5],
    ['ATP', 8],
    ['WTA', 8],
    ['MLB', 10],
    ['EPL', 10],
  ])('league %s delays %i seconds', (league, seconds) => {
    const { engine } = newEngine({ live: true, league });
    restAwayPlus150(engine);
    const e = one(engine, 'taker', ml('home', -150, 10));
    expect(e).toMatchObject({ status: 'delayed', executeAt: T0 + seconds * 1000 });
  });
});

describe('§3 cancel', () => {
  it('cancelling a resting order reports filled, offered and remaining at that moment', () => {
    const { engine } = newEngine();
    const events: EngineEvent[] = [];
    engine.onEvent((e) => events.push(e));
    const id = restAwayPlus150(engine); // risk 100, capacity 150
    ok(one(engine, 'taker', ml('home', -150, 60))); // takes 60 → maker risk 40
    const c = engine.cancel('maker', id);
    expect(c.success).toBe(true);
    if (!c.success) return;
    expect(c.order.id).toBe(id);
    expect(c.order.status).toBe('cancelled');
    expect(c.order.closeReason).toBe('user');
    expect(c.order.bet).toBe(100); // offered
    expect(c.order.filled).toBeCloseTo(40, 9);
    expect(c.order.remaining).toBeCloseTo(60, 9);
    expect(engine.bookSide(G, ML, 0)).toEqual([]);
    expect(engine.openOrders('maker')).toEqual([]);
    expect(
      events.filter((e) => e.kind === 'orderCancelled').map((e) => e.kind === 'orderCancelled' && e.order.id),
    ).toEqual([id]);
    // once cancelled, it cannot be cancelled again
    const again = engine.cancel('maker', id);
    expect(again).toMatchObject({ success: false, code: 'not_cancellable', reason: 'order already cancelled' });
  });

  it('cancelling a fully filled order is refused (409: not_cancellable)', () => {
    const { engine } = newEngine();
    const id = restAwayPlus150(engine);
    ok(one(engine, 'taker', ml('home', -150, 150)));
    const c = engine.cancel('maker', id);
    expect(c.success).toBe(false);
    if (c.success) return;
    expect(c.code).toBe('not_cancellable');
    expect(c.reason).toBe('order already filled');
    expect(c.order?.status).toBe('filled');
    expect(engine.order(id)?.status).toBe('filled');
    expect(engine.bets('maker')).toHaveLength(1);
  });

  it("refuses someone else's order, a malformed id and an unknown id", () => {
    const { engine } = newEngine();
    const id = restAwayPlus150(engine);
    expect(engine.cancel('taker', id)).toMatchObject({ success: false, code: 'not_yours' });
    expect(engine.order(id)?.status).toBe('open');
    expect(engine.cancel('maker', 'xyz')).toMatchObject({ success: false, code: 'invalid_id' });
    expect(engine.cancel('maker', 'cc0000000000000000000009')).toMatchObject({ success: false, code: 'not_found' });
  });

  it('cancelMany is positional; cancelAll honours its filter', () => {
    const { engine } = newEngine();
    const a = restAwayPlus150(engine);
    const b = ok(one(engine, 'maker', ml('home', 120, 50))).unmatched!.orderID;
    const t = ok(one(engine, 'maker', { gameID: G, type: 'total', side: 'over', number: 210.5, odds: -110, bet: 20 }))
      .unmatched!.orderID;
    const out = engine.cancelMany('maker', [b, 'bad', a, b]);
    expect(out.map((o) => o.success)).toEqual([true, false, true, false]);
    expect(out[1]).toMatchObject({ code: 'invalid_id' });
    expect(out[3]).toMatchObject({ code: 'not_cancellable' });
    expect(engine.openOrders('maker').map((o) => o.id)).toEqual([t]);
    expect(engine.cancelAll('maker', { type: 'moneyline' })).toEqual([]);
    const all = engine.cancelAll('maker', { gameID: G, type: 'total' }, 'heartbeat');
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ success: true, order: { id: t, closeReason: 'heartbeat' } });
  });
});

describe('§3 settlement, regrade, refund', () => {
  let engine: MatchingEngine;
  let clock: ManualClock;
  beforeEach(() => {
    ({ engine, clock } = newEngine());
    restAwayPlus150(engine); // maker: away +150 risking 100
    ok(one(engine, 'taker', ml('home', -150, 150))); // taker: home -150 staking 150
  });

  it('grades every matched bet with an outcome and settledAt; balances move by result', () => {
    clock.set(T0 + 4 * HOUR);
    const r = engine.settleGame(G, { away: 90, home: 100 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toHaveLength(2);
    const [tg] = engine.grades('taker');
    const [mg] = engine.grades('maker');
    expect(tg).toMatchObject({
      outcome: 'winner',
      version: 1,
      adminRefund: false,
      settledAt: T0 + 4 * HOUR,
      gameID: G,
    });
    expect(tg!.result).toBeCloseTo(99, 9);
    expect(tg!.fee).toBeCloseTo(1, 9);
    expect(mg).toMatchObject({ outcome: 'loser', version: 1, adminRefund: false });
    expect(mg!.result).toBeCloseTo(-100, 9);
    expect(mg!.fee).toBe(0);
    expect(tg!.txID).toBe(mg!.txID);
    expect(engine.account('taker')!.balance).toBeCloseTo(1_000_099, 6);
    expect(engine.account('maker')!.balance).toBeCloseTo(999_900, 6);
    const bet = engine.bets('taker')[0]!;
    expect(bet.grade).toEqual(tg);
    expect(engine.game(G)).toMatchObject({ ended: true, live: false, score: { away: 90, home: 100 } });
  });

  it('settling ends the game and expires its open orders', () => {
    const rest = ok(one(engine, 'maker2', ml('home', 110, 30))).unmatched!.orderID;
    engine.settleGame(G, { away: 1, home: 2 });
    expect(engine.order(rest)).toMatchObject({ status: 'expired', closeReason: 'gameEnded' });
    expect(engine.openOrders('maker2')).toEqual([]);
    expect(engine.account('maker2')!.balance).toBe(1_000_000);
  });

  it('a regrade after a score correction appends a new version of the same txID; the latest wins', () => {
    engine.settleGame(G, { away: 90, home: 100 });
    const v1 = engine.grades('taker')[0]!;
    const r = engine.settleGame(G, { away: 100, home: 90 });
    expect(r.ok && r.value.length).toBe(2);
    const log = engine.grades('taker');
    expect(log).toHaveLength(2);
    const v2 = log[1]!;
    expect(v2.txID).toBe(v1.txID);
    expect(v2.betId).toBe(v1.betId);
    expect(v2.version).toBe(2);
    expect(v2.seq).toBeGreaterThan(v1.seq);
    expect(v2.outcome).toBe('loser');
    expect(v2.result).toBeCloseTo(-151, 9);
    expect(v2.fee).toBeCloseTo(1, 9); // 1% of min(stake 150, win 100)
    expect(engine.bets('taker')[0]!.grade).toEqual(v2);
    expect(engine.grades('maker')[1]).toMatchObject({ outcome: 'winner', version: 2 });
    expect(engine.account('taker')!.balance).toBeCloseTo(1_000_000 - 151, 6);
    expect(engine.account('maker')!.balance).toBeCloseTo(1_000_150, 6);
  });

  it('regrading with the same score creates no new version', () => {
    engine.settleGame(G, { away: 90, home: 100 });
    const r = engine.settleGame(G, { away: 95, home: 105 });
    expect(r.ok && r.value).toEqual([]);
    expect(engine.grades('taker')).toHaveLength(1);
    expect(engine.account('taker')!.balance).toBeCloseTo(1_000_099, 6);
  });

  it('a refund appends a refunded version (adminRefund) and restores balances; refunding twice does nothing', () => {
    engine.settleGame(G, { away: 90, home: 100 });
    const v1 = engine.grades('maker')[0]!;
    const r = engine.refundGame(G);
    expect(r.ok && r.value.length).toBe(2);
    const v2 = engine.grades('maker')[1]!;
    expect(v2).toMatchObject({ txID: v1.txID, version: 2, outcome: 'refunded', adminRefund: true, result: 0, fee: 0 });
    expect(engine.account('maker')!.balance).toBe(1_000_000);
    expect(engine.account('taker')!.balance).toBe(1_000_000);
    const again = engine.refundGame(G);
    expect(again.ok && again.value).toEqual([]);
    expect(engine.grades('maker')).toHaveLength(2);
  });

  it('refunding an unsettled game ends it and grades version 1 as refunded', () => {
    const r = engine.refundGame(G);
    expect(r.ok && r.value.map((g) => [g.version, g.outcome, g.adminRefund])).toEqual([
      [1, 'refunded', true],
      [1, 'refunded', true],
    ]);
    expect(engine.game(G)?.ended).toBe(true);
  });

  it('settling an unknown game or with a bad score is an error value', () => {
    expect(engine.settleGame('cc0000000000000000000001', { away: 1, home: 0 })).toMatchObject({
      ok: false,
      error: { code: 'game_not_found' },
    });
    expect(engine.settleGame(G, { away: -1, home: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_game' } });
    expect(engine.settleGame(G, { away: 1.5, home: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_game' } });
    expect(engine.game(G)?.ended).toBe(false);
  });
});

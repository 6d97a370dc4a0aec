/**
 * feeds-and-semantics §3 (book perspective) and §4 (money on a fill) through the engine,
 * plus priority, expiry, events, echoes, liability and settlement money.
 */
import { describe, it, expect } from 'vitest';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { createIdGenerator, isObjectId } from '../../src/engine/ids.ts';
import type { EngineEvent, PlaceInput } from '../../src/engine/types.ts';
import { roundMoney } from '../../src/money/rounding.ts';
import { invertOdds } from '../../src/odds/american.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { G, SOCCER, AWAY, HOME, S_AWAY, S_HOME, ML, ml, ok } from '../support/engine-fixture.ts';

const T0 = Date.UTC(2026, 4, 5, 16, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const USERS = ['maker', 'm2', 'm3', 'm4', 'taker', 'hedger'];

function newEngine() {
  const clock = new ManualClock(T0);
  const engine = new MatchingEngine({ clock, ids: createIdGenerator(23) });
  for (const id of USERS)
    expect(engine.addUser({ id, balance: 1_000_000, commissionRate: id === 'hedger' ? 0 : 0.01 }).ok).toBe(true);
  expect(
    engine.addGame({
      id: G,
      league: 'NBA',
      sport: 'basketball',
      participants: [
        { id: AWAY, longName: 'Away Team', shortName: 'AWY' },
        { id: HOME, longName: 'Home Team', shortName: 'HOM' },
      ],
      start: T0 + HOUR,
    }).ok,
  ).toBe(true);
  expect(
    engine.addGame({
      id: SOCCER,
      league: 'EPL',
      sport: 'soccer',
      participants: [
        { id: S_AWAY, longName: 'Away FC', shortName: 'AFC' },
        { id: S_HOME, longName: 'Home FC', shortName: 'HFC' },
      ],
      start: T0 + HOUR,
    }).ok,
  ).toBe(true);
  return { clock, engine };
}

type Extra = Record<string, unknown>;
const spread = (team: 'home' | 'away', number: number, odds: number, bet: number, extra: Extra = {}): PlaceInput => ({
  gameID: G,
  type: 'spread',
  side: team === 'home' ? HOME : AWAY,
  number,
  odds,
  bet,
  ...extra,
});
const total = (ou: 'over' | 'under', number: number, odds: number, bet: number, extra: Extra = {}): PlaceInput => ({
  gameID: G,
  type: 'total',
  side: ou,
  number,
  odds,
  bet,
  ...extra,
});
const x12 = (side: 'yes' | 'no', market: string, odds: number, bet: number): PlaceInput => ({
  gameID: SOCCER,
  type: 'moneyline1x2',
  side,
  market,
  odds,
  bet,
});

const place = (engine: MatchingEngine, user: string, input: PlaceInput) => ok(engine.place(user, [input])[0]);
const rest = (engine: MatchingEngine, user: string, input: PlaceInput): string => {
  const r = place(engine, user, input);
  expect(r.matched).toEqual([]);
  return r.unmatched!.orderID;
};

describe('feeds §3: the book lists a maker on the opposite side at the inverted price', () => {
  it('maker home -330 risking 3798.43 is listed to away takers at +330 with sumUntaken 1151.04', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', ml('home', -330, 3798.43));
    expect(engine.bookSide(G, ML, 0)).toEqual([]);
    const listed = engine.bookSide(G, ML, 1);
    expect(listed).toHaveLength(1);
    expect(listed[0]!.order.id).toBe(id);
    expect(listed[0]!.listedOdds).toBe(330);
    expect(listed[0]!.order.odds).toBe(-330); // own (maker) odds, as lookupOrder shows them
    expect(listed[0]!.order.bet).toBe(3798.43);
    expect(roundMoney(listed[0]!.sumUntaken)).toBe(1151.04);
    expect(listed[0]!.sumUntaken).toBeCloseTo(3798.43 / 3.3, 9);
  });

  it('maker over 209.5 at -104 risking 265.2 is listed under "under" at +104 with sumUntaken 255.00', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', total('over', 209.5, -104, 265.2));
    expect(engine.bookSide(G, 'total:209.5', 0)).toEqual([]);
    const listed = engine.bookSide(G, 'total:209.5', 1);
    expect(listed.map((l) => [l.order.id, l.listedOdds, roundMoney(l.sumUntaken)])).toEqual([[id, 104, 255]]);
    const book = engine.books(G).find((b) => b.key === 'total:209.5');
    expect(book?.selections).toEqual([
      { type: 'total', ou: 'over', line: 209.5 },
      { type: 'total', ou: 'under', line: 209.5 },
    ]);
    // An under taker at +104 takes it; an under taker asking +105 does not.
    expect(place(engine, 'taker', total('under', 209.5, 105, 10)).matched).toEqual([]);
    const f = place(engine, 'taker', total('under', 209.5, 104, 255)).matched;
    expect(f.map((m) => [m.orderID, m.odds, m.side, m.number])).toEqual([[id, 104, 'under', 209.5]]);
    expect(engine.order(id)?.status).toBe('filled');
  });

  it('spread: a maker on home -3.5 is offered to takers as away +3.5', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', spread('home', -3.5, -110, 110));
    expect(engine.books(G).map((b) => b.key)).toEqual(['spread:-3.5']);
    expect(engine.bookSide(G, 'spread:-3.5', 0)).toEqual([]);
    const listed = engine.bookSide(G, 'spread:-3.5', 1);
    expect(listed.map((l) => [l.order.id, l.listedOdds])).toEqual([[id, 110]]);
    expect(listed[0]!.sumUntaken).toBeCloseTo(100, 9);
    expect(listed[0]!.order.wire).toEqual({ type: 'spread', side: HOME, number: -3.5 });

    // away -3.5 is a different line: it does not meet the home -3.5 maker.
    const wrongLine = place(engine, 'taker', spread('away', -3.5, 110, 10));
    expect(wrongLine.matched).toEqual([]);
    expect(engine.order(wrongLine.unmatched!.orderID)?.bookKey).toBe('spread:3.5');

    const r = place(engine, 'taker', spread('away', 3.5, 110, 100));
    expect(r.matched.map((m) => [m.orderID, m.odds, m.number, m.side, m.type])).toEqual([
      [id, 110, 3.5, AWAY, 'spread'],
    ]);
    const takerBet = engine.bets('taker').find((b) => b.txID === r.matched[0]!.txID)!;
    const makerBet = engine.bets('maker')[0]!;
    expect(takerBet.selection).toEqual({ type: 'spread', team: 'away', line: 3.5 });
    expect(makerBet.selection).toEqual({ type: 'spread', team: 'home', line: -3.5 });
    expect(makerBet.txID).toBe(takerBet.txID);
  });

  it('a maker on away +3.5 shares the spread:-3.5 book and is listed to home -3.5 takers', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', spread('away', 3.5, 120, 50));
    expect(engine.bookSide(G, 'spread:-3.5', 0).map((l) => [l.order.id, l.listedOdds, l.sumUntaken])).toEqual([
      [id, -120, 60],
    ]);
    expect(place(engine, 'taker', spread('home', -3.5, -120, 60)).matched.map((m) => m.orderID)).toEqual([id]);
  });

  it('moneyline1x2: a maker on yes is offered as no on the same market, odds inverted', () => {
    const { engine } = newEngine();
    const yesDraw = rest(engine, 'maker', x12('yes', 'draw', 250, 100));
    const noHome = rest(engine, 'maker', x12('no', S_HOME, 120, 60));
    expect(
      engine.bookSide(SOCCER, 'moneyline1x2:draw', 1).map((l) => [l.order.id, l.listedOdds, l.sumUntaken]),
    ).toEqual([[yesDraw, -250, 250]]);
    expect(engine.bookSide(SOCCER, 'moneyline1x2:draw', 0)).toEqual([]);
    expect(engine.bookSide(SOCCER, 'moneyline1x2:home', 0).map((l) => [l.order.id, l.listedOdds])).toEqual([
      [noHome, -120],
    ]);
    expect(engine.order(noHome)?.wire).toEqual({ type: 'moneyline1x2', side: 'no', market: S_HOME, number: null });

    // "No draw" at -300 meets the yes-draw maker at -250 (price improvement).
    const r = place(engine, 'taker', x12('no', 'draw', -300, 100));
    expect(r.matched).toHaveLength(1);
    expect(r.matched[0]).toMatchObject({
      orderID: yesDraw,
      odds: -250,
      side: 'no',
      market: 'draw',
      type: 'moneyline1x2',
      number: null,
      amount: 100,
    });
    expect(r.matched[0]!.winWithoutCommission).toBeCloseTo(40, 9);
    // "Yes home" meets the no-home maker.
    const h = place(engine, 'taker', x12('yes', S_HOME, -120, 72));
    expect(h.matched[0]).toMatchObject({ orderID: noHome, odds: -120, side: 'yes', market: S_HOME, amount: 72 });
    expect(engine.order(noHome)?.status).toBe('filled');

    expect(engine.settleGame(SOCCER, { away: 1, home: 1 }).ok).toBe(true);
    const outcomes = (u: string) => engine.grades(u).map((g) => g.outcome);
    expect(outcomes('maker')).toEqual(['winner', 'winner']); // draw happened; home did not win
    expect(outcomes('taker')).toEqual(['loser', 'loser']);
  });

  it('-100 and +100 are the same price', () => {
    const { engine } = newEngine();
    const a = rest(engine, 'maker', ml('away', -100, 50));
    expect(engine.order(a)?.odds).toBe(100);
    const b = rest(engine, 'm2', ml('away', 100, 50));
    // one price level, time priority between them
    expect(engine.bookSide(G, ML, 0).map((l) => [l.order.id, l.listedOdds, l.sumUntaken])).toEqual([
      [a, 100, 50],
      [b, 100, 50],
    ]);
    expect(engine.isBestOffer(a) && engine.isBestOffer(b)).toBe(true);
    const r1 = place(engine, 'taker', ml('home', -100, 50));
    expect(r1.matched.map((m) => [m.orderID, m.odds, m.amount])).toEqual([[a, 100, 50]]);
    expect(r1.matched[0]!.winWithoutCommission).toBe(50);
    const r2 = place(engine, 'taker', ml('home', 100, 50));
    expect(r2.matched.map((m) => [m.orderID, m.odds])).toEqual([[b, 100]]);
    // and a post at -100 against a resting +100 would cross
    rest(engine, 'maker', ml('away', 100, 10));
    expect(engine.place('taker', [ml('home', -100, 5, { orderType: 'post' })])[0]).toMatchObject({
      status: 'error',
      error: 'post order cannot have matches',
    });
  });
});

describe('feeds §3: a price emptied and taken again', () => {
  it('the price is listed again at its place among the others, and fills at its price', () => {
    const { engine } = newEngine();
    const a = rest(engine, 'maker', ml('away', -100, 50));
    expect(engine.cancel('maker', a)).toMatchObject({ success: true });
    expect(engine.bookSide(G, ML, 0)).toEqual([]);
    // The same price spelt the other way, at the price's place among the others.
    const b = rest(engine, 'm2', ml('away', 100, 50));
    const worse = rest(engine, 'm3', ml('away', 120, 50));
    const better = rest(engine, 'm4', ml('away', -110, 50));
    expect(engine.bookSide(G, ML, 0).map((l) => [l.order.id, l.listedOdds])).toEqual([
      [better, 110],
      [b, 100],
      [worse, -120],
    ]);
    const r = place(engine, 'taker', ml('home', -100, 100));
    expect(r.matched.map((m) => [m.orderID, m.odds])).toEqual([
      [better, 110],
      [b, 100],
    ]);
    expect(engine.order(a)?.status).toBe('cancelled');
  });
});

describe('feeds §3: price-time priority and price improvement', () => {
  it('best price first, then earliest', () => {
    const { engine, clock } = newEngine();
    const m1 = rest(engine, 'maker', ml('away', 160, 100)); // -160, cap 160
    clock.advance(1000);
    const m2 = rest(engine, 'm2', ml('away', 150, 100)); // -150, cap 150
    clock.advance(1000);
    const m3 = rest(engine, 'm3', ml('away', 160, 50)); // -160, cap 80
    clock.advance(1000);
    const m4 = rest(engine, 'm4', ml('away', 150, 20)); // -150, cap 30
    expect(engine.bookSide(G, ML, 0).map((l) => l.order.id)).toEqual([m2, m4, m1, m3]);
    expect([m1, m2, m3, m4].map((id) => engine.isBestOffer(id))).toEqual([false, true, false, true]);

    const r = place(engine, 'taker', ml('home', -160, 380));
    expect(r.matched.map((m) => [m.orderID, m.odds, roundMoney(m.amount)])).toEqual([
      [m2, -150, 150],
      [m4, -150, 30],
      [m1, -160, 160],
      [m3, -160, 40],
    ]);
    expect(r.unmatched).toBeNull();
    const left = engine.bookSide(G, ML, 0);
    expect(left.map((l) => l.order.id)).toEqual([m3]);
    expect(left[0]!.order.remaining).toBeCloseTo(25, 9); // 50 - 40/1.6
    expect(left[0]!.sumUntaken).toBeCloseTo(40, 9);
    expect(engine.isBestOffer(m3)).toBe(true);
  });

  it('a taker stops at its limit price', () => {
    const { engine } = newEngine();
    const m1 = rest(engine, 'maker', ml('away', 150, 100)); // -150
    const m2 = rest(engine, 'm2', ml('away', 170, 100)); // -170
    const r = place(engine, 'taker', ml('home', -160, 500));
    expect(r.matched.map((m) => m.orderID)).toEqual([m1]);
    expect(r.unmatched?.offered).toBeCloseTo(350, 9);
    expect(engine.bookSide(G, ML, 0).map((l) => l.order.id)).toEqual([m2]);
  });

  it('the taker gets the resting price when its limit is worse (price improvement)', () => {
    const { engine } = newEngine();
    rest(engine, 'maker', ml('away', 150, 100)); // -150 for home takers
    const r = place(engine, 'taker', ml('home', -200, 90));
    const f = r.matched[0]!;
    expect(f.odds).toBe(-150);
    expect(f.winWithoutCommission).toBeCloseTo(60, 9); // 90 / 1.5, not 90 / 2
    expect(f.win).toBeCloseTo(59.4, 9);
    expect(engine.bets('taker')[0]!.money.odds).toBe(-150);

    rest(engine, 'm2', ml('home', -120, 100)); // +120 for away takers
    const g = place(engine, 'taker', ml('away', 100, 50)).matched[0]!;
    expect(g.odds).toBe(120);
    expect(g.winWithoutCommission).toBeCloseTo(60, 9);
  });

  it('self-matching is allowed', () => {
    const { engine } = newEngine();
    const id = rest(engine, 'maker', ml('away', 150, 100));
    const r = place(engine, 'maker', ml('home', -150, 150));
    expect(r.matched.map((m) => m.orderID)).toEqual([id]);
    expect(
      engine
        .bets('maker')
        .map((b) => b.origin)
        .sort(),
    ).toEqual(['offer', 'wager']);
  });
});

describe('feeds §4: money on a fill', () => {
  // taker odds, amount, winWithoutCommission, win, risk (commission 1%)
  const TABLE = [
    [-175, 50, 28.5714, 28.2857, 50.2857],
    [-110, 50, 45.4545, 45.0, 50.4545],
    [-104, 50, 48.0769, 47.5962, 50.4808],
    [185, 25, 46.25, 45.7875, 25.25],
  ] as const;

  it.each(TABLE)('taker at %i for %d', (odds, amount, wwc, win, risk) => {
    const { engine } = newEngine();
    const makerId = rest(engine, 'maker', ml('away', invertOdds(odds), 1000));
    const r = place(engine, 'taker', ml('home', odds, amount));
    expect(r.unmatched).toBeNull();
    expect(r.matched).toHaveLength(1);
    const f = r.matched[0]!;
    expect(f.orderID).toBe(makerId);
    expect(f.odds).toBe(odds);
    expect(f.amount).toBe(amount);
    expect(f.winWithoutCommission).toBeCloseTo(wwc, 4);
    expect(f.win).toBeCloseTo(win, 4);
    expect(f.risk).toBeCloseTo(risk, 4);
    // exact formulas, unrounded
    const payout = odds > 0 ? odds / 100 : 100 / -odds;
    expect(f.winWithoutCommission).toBeCloseTo(amount * payout, 12);
    expect(f.win).toBeCloseTo(amount * payout * 0.99, 12);
    expect(f.risk).toBeCloseTo(amount + 0.01 * Math.min(amount, amount * payout), 12);

    // The maker's side of the same fill: risk = taker's winWithoutCommission, win = taker's stake, no commission.
    const mb = engine.bets('maker')[0]!;
    expect(mb.txID).toBe(f.txID);
    expect(mb.origin).toBe('offer');
    expect(mb.money.amount).toBeCloseTo(f.winWithoutCommission, 9);
    expect(mb.money.risk).toBeCloseTo(f.winWithoutCommission, 9);
    expect(mb.money.win).toBeCloseTo(amount, 9);
    expect(mb.money.odds).toBe(invertOdds(odds));
    expect(mb.money.commissionOnWin + mb.money.commissionOnLoss).toBe(0);
    const tb = engine.bets('taker')[0]!;
    expect(tb.origin).toBe('wager');
    expect(tb.money.risk).toBe(f.risk);
    expect(tb.money.win).toBe(f.win);
    // The maker's order shrank by exactly the risk matched.
    expect(engine.order(makerId)!.filled).toBeCloseTo(f.winWithoutCommission, 9);
    expect(engine.order(makerId)!.remaining).toBeCloseTo(1000 - f.winWithoutCommission, 9);
  });

  it('commission follows the taker account rate', () => {
    const { engine } = newEngine();
    engine.addUser({ id: 'vip', balance: 1000, commissionRate: 0.025 });
    rest(engine, 'maker', ml('away', 110, 1000));
    const f = place(engine, 'vip', ml('home', -110, 50)).matched[0]!;
    expect(f.win).toBeCloseTo((50 / 1.1) * 0.975, 9);
    expect(f.risk).toBeCloseTo(50 + 0.025 * (50 / 1.1), 9);
    const zero = place(engine, 'hedger', ml('home', -110, 50)).matched[0]!;
    expect(zero.win).toBe(zero.winWithoutCommission);
    expect(zero.risk).toBe(50);
  });
});

describe('expiry', () => {
  it('expirationMinutes expires a resting order exactly on time', () => {
    const { engine, clock } = newEngine();
    const events: EngineEvent[] = [];
    engine.onEvent((e) => events.push(e));
    const id = rest(engine, 'maker', ml('away', 150, 100, { expirationMinutes: 5 }));
    expect(engine.order(id)?.expiresAt).toBe(T0 + 5 * MIN);
    expect(engine.nextDueAt()).toBe(T0 + 5 * MIN);
    place(engine, 'taker', ml('home', -150, 30)); // partly filled first
    clock.set(T0 + 5 * MIN - 1);
    engine.advance();
    expect(engine.order(id)?.status).toBe('open');
    events.length = 0;
    clock.set(T0 + 5 * MIN);
    engine.advance();
    expect(engine.order(id)).toMatchObject({ status: 'expired', closeReason: 'expiry' });
    expect(engine.order(id)!.filled).toBeCloseTo(20, 9);
    expect(engine.bookSide(G, ML, 0)).toEqual([]);
    expect(engine.openOrders('maker')).toEqual([]);
    expect(engine.bets('maker')).toHaveLength(1); // the matched part stays
    expect(events.map((e) => e.kind)).toEqual(['orderExpired', 'bookChanged']);
    expect(engine.cancel('maker', id)).toMatchObject({
      success: false,
      code: 'not_cancellable',
      reason: 'order is expired',
    });
    expect(engine.account('maker')!.exposure).toBeCloseTo(-20, 9);
  });

  it('fractional minutes, and an expiry due before a place runs first', () => {
    const { engine, clock } = newEngine();
    const id = rest(engine, 'maker', ml('away', 150, 100, { expirationMinutes: 0.5 }));
    expect(engine.order(id)?.expiresAt).toBe(T0 + 30_000);
    clock.advance(30_000);
    // No advance(): the place itself runs due work first, so it finds nothing to take.
    const r = place(engine, 'taker', ml('home', -150, 30));
    expect(r.matched).toEqual([]);
    expect(engine.order(id)?.status).toBe('expired');
  });

  it('orders placed before the start expire when the start time is reached', () => {
    const { engine, clock } = newEngine();
    const events: EngineEvent[] = [];
    engine.onEvent((e) => events.push(e));
    const pre = rest(engine, 'maker', ml('away', 150, 100));
    const preLong = rest(engine, 'maker', total('over', 210.5, -110, 50, { expirationMinutes: 600 }));
    expect(engine.order(pre)?.gameStartExpiry).toBe(true);
    clock.set(T0 + HOUR - 1);
    engine.advance();
    expect(engine.order(pre)?.status).toBe('open');
    events.length = 0;
    clock.set(T0 + HOUR);
    engine.advance();
    expect(engine.order(pre)).toMatchObject({ status: 'expired', closeReason: 'gameStart' });
    expect(engine.order(preLong)).toMatchObject({ status: 'expired', closeReason: 'gameStart' });
    expect(engine.game(G)?.started).toBe(true);
    expect(events.filter((e) => e.kind === 'orderExpired')).toHaveLength(2);
    expect(events.some((e) => e.kind === 'gameChanged' && e.change === 'started' && e.game.id === G)).toBe(true);
    // After the start (not live) a new order has no gameStartExpiry and stays.
    const after = rest(engine, 'maker', ml('away', 150, 100));
    expect(engine.order(after)?.gameStartExpiry).toBe(false);
    clock.advance(HOUR);
    engine.advance();
    expect(engine.order(after)?.status).toBe('open');
    // SOCCER is scheduled at the same instant, so it started too
    expect(engine.game(SOCCER)?.started).toBe(true);
  });

  it('going live expires pre-game orders; orders placed while live have no gameStartExpiry', () => {
    const { engine, clock } = newEngine();
    const pre = rest(engine, 'maker', ml('away', 150, 100));
    expect(engine.updateGame(G, { live: true }).ok).toBe(true);
    expect(engine.order(pre)).toMatchObject({ status: 'expired', closeReason: 'gameStart' });
    const live = rest(engine, 'maker', ml('away', 150, 100));
    expect(engine.order(live)?.gameStartExpiry).toBe(false);
    clock.set(T0 + HOUR); // the scheduled start passes while live
    engine.advance();
    expect(engine.order(live)?.status).toBe('open');
  });

  it('moving the start later defers the expiry', () => {
    const { engine, clock } = newEngine();
    const pre = rest(engine, 'maker', ml('away', 150, 100));
    expect(engine.updateGame(G, { start: T0 + 2 * HOUR }).ok).toBe(true);
    clock.set(T0 + HOUR);
    engine.advance();
    expect(engine.order(pre)?.status).toBe('open');
    clock.set(T0 + 2 * HOUR);
    engine.advance();
    expect(engine.order(pre)?.status).toBe('expired');
  });
});

describe('events', () => {
  it('place, fill, rest, cancel: payloads and order', () => {
    const { engine } = newEngine();
    const events: EngineEvent[] = [];
    const off = engine.onEvent((e) => events.push(e));

    const makerId = rest(engine, 'maker', ml('away', 150, 100, { userReference: 'mk' }));
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      kind: 'orderPlaced',
      order: { id: makerId, userId: 'maker', status: 'open', remaining: 100, userReference: 'mk' },
    });
    expect(events[1]).toEqual({ kind: 'bookChanged', gameID: G, bookKey: ML, side: 0 });

    events.length = 0;
    const r = place(engine, 'taker', ml('home', -150, 200, { userReference: 'tk' }));
    expect(events.map((e) => e.kind)).toEqual(['fill', 'bookChanged', 'orderPlaced', 'bookChanged']);
    const fill = events[0]!;
    if (fill.kind !== 'fill') throw new Error('not a fill');
    expect(fill.fill).toMatchObject({ txID: r.matched[0]!.txID, gameID: G, bookKey: ML, at: T0, isPostArb: false });
    expect(fill.fill.taker).toMatchObject({
      userId: 'taker',
      orderID: r.unmatched!.orderID,
      wagerRequestID: r.matched[0]!.wagerRequestID,
      selection: { type: 'moneyline', team: 'home' },
      userReference: 'tk',
    });
    expect(fill.fill.taker.money.amount).toBeCloseTo(150, 9);
    expect(fill.fill.taker.money.win).toBeCloseTo(99, 9);
    expect(fill.fill.maker).toMatchObject({
      userId: 'maker',
      orderID: makerId,
      selection: { type: 'moneyline', team: 'away' },
      userReference: 'mk',
    });
    expect(fill.fill.maker.money.risk).toBeCloseTo(100, 9);
    expect(fill.fill.makerOrderAfter).toMatchObject({ id: makerId, status: 'filled', remaining: 0 });
    expect(events[1]).toEqual({ kind: 'bookChanged', gameID: G, bookKey: ML, side: 0 });
    expect(events[2]).toMatchObject({ kind: 'orderPlaced', order: { id: r.unmatched!.orderID, userId: 'taker' } });
    expect(events[3]).toEqual({ kind: 'bookChanged', gameID: G, bookKey: ML, side: 1 });

    events.length = 0;
    engine.cancel('taker', r.unmatched!.orderID);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      kind: 'orderCancelled',
      order: { id: r.unmatched!.orderID, status: 'cancelled', closeReason: 'user' },
    });
    expect(events[1]).toEqual({ kind: 'bookChanged', gameID: G, bookKey: ML, side: 1 });

    off();
    rest(engine, 'maker', ml('away', 150, 10));
    expect(events).toHaveLength(2);
  });

  it('one bookChanged per side per call, delivered after the call completed', () => {
    const { engine } = newEngine();
    rest(engine, 'maker', ml('away', 150, 10));
    rest(engine, 'm2', ml('away', 150, 10));
    rest(engine, 'm3', ml('away', 160, 10));
    const events: EngineEvent[] = [];
    let betsSeenAtFirstEvent = -1;
    engine.onEvent((e) => {
      if (events.length === 0) betsSeenAtFirstEvent = engine.bets('taker').length;
      events.push(e);
    });
    place(engine, 'taker', ml('home', -160, 1000, { orderType: 'fillAndKill' }));
    expect(events.map((e) => e.kind)).toEqual(['fill', 'fill', 'fill', 'bookChanged']);
    expect(betsSeenAtFirstEvent).toBe(3);
  });

  it('events a listener causes come after the batch it is handling, and a listener added or removed meanwhile counts from the next batch', () => {
    const { engine } = newEngine();
    const seen: string[] = [];
    let nested = false;
    let offB = (): void => undefined;
    engine.onEvent((e) => {
      seen.push(`A ${e.kind}`);
      if (nested || e.kind !== 'orderPlaced') return;
      nested = true;
      // Re-entrant: this call's events wait for the batch under way.
      engine.place('m2', [ml('away', 160, 10)]);
      engine.onEvent((e2) => seen.push(`C ${e2.kind}`));
      offB();
    });
    offB = engine.onEvent((e) => seen.push(`B ${e.kind}`));
    engine.place('maker', [ml('away', 150, 10)]);
    expect(seen).toEqual([
      'A orderPlaced',
      'B orderPlaced',
      'A bookChanged',
      'B bookChanged',
      'A orderPlaced',
      'C orderPlaced',
      'A bookChanged',
      'C bookChanged',
    ]);
    // The next call delivers its own events only, once each.
    seen.length = 0;
    engine.place('m3', [ml('away', 170, 10)]);
    expect(seen).toEqual(['A orderPlaced', 'C orderPlaced', 'A bookChanged', 'C bookChanged']);
  });

  it('gameChanged, betGraded and balanceChanged through a game lifecycle', () => {
    const { engine, clock } = newEngine();
    const events: EngineEvent[] = [];
    engine.onEvent((e) => events.push(e));
    const G2 = 'aa0000000000000000000009';
    engine.addGame({
      id: G2,
      league: 'NHL',
      sport: 'hockey',
      participants: [
        { id: 'bb0000000000000000000011', longName: 'A', shortName: 'A' },
        { id: 'bb0000000000000000000012', longName: 'H', shortName: 'H' },
      ],
      start: T0 + HOUR,
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'gameChanged',
      change: 'created',
      game: { id: G2, live: false, ended: false, started: false },
    });

    events.length = 0;
    engine.updateGame(G2, { live: true });
    expect(events.map((e) => e.kind === 'gameChanged' && e.change)).toEqual(['updated', 'started']);
    expect(events[1]).toMatchObject({ game: { id: G2, live: true, started: true } });

    rest(engine, 'maker', ml('away', 150, 100));
    place(engine, 'taker', ml('home', -140, 20)); // rests on the other side
    events.length = 0;
    clock.advance(1000);
    // G is not live: this crosses at once
    const r = place(engine, 'taker', ml('home', -150, 150));
    expect(r.matched).toHaveLength(1);
    events.length = 0;
    engine.settleGame(G, { away: 98, home: 99 });
    expect(events.map((e) => e.kind)).toEqual([
      'orderExpired',
      'bookChanged',
      'betGraded',
      'betGraded',
      'gameChanged',
      'balanceChanged',
      'balanceChanged',
    ]);
    const graded = events.filter((e) => e.kind === 'betGraded');
    expect(graded.map((e) => e.kind === 'betGraded' && [e.bet.userId, e.grade.outcome, e.bet.grade?.version])).toEqual([
      ['maker', 'loser', 1],
      ['taker', 'winner', 1],
    ]);
    expect(events[4]).toMatchObject({
      kind: 'gameChanged',
      change: 'ended',
      game: { id: G, ended: true, score: { away: 98, home: 99 } },
    });
    const balances = Object.fromEntries(
      events
        .filter((e) => e.kind === 'balanceChanged')
        .map((e) => (e.kind === 'balanceChanged' ? [e.userId, e.balance] : [])),
    );
    expect(balances.maker).toBeCloseTo(999_900, 6);
    expect(balances.taker).toBeCloseTo(1_000_099, 6);

    events.length = 0;
    engine.settleGame(G, { away: 99, home: 98 });
    expect(events.filter((e) => e.kind === 'gameChanged').map((e) => e.kind === 'gameChanged' && e.change)).toEqual([
      'regraded',
    ]);
    expect(events.filter((e) => e.kind === 'betGraded')).toHaveLength(2);
    events.length = 0;
    engine.refundGame(G);
    expect(events.filter((e) => e.kind === 'gameChanged').map((e) => e.kind === 'gameChanged' && e.change)).toEqual([
      'refunded',
    ]);
    expect(
      events.filter((e) => e.kind === 'betGraded').map((e) => e.kind === 'betGraded' && e.grade.adminRefund),
    ).toEqual([true, true]);
  });

  it('events of due work are delivered by the call that ran it, even when that call fails', () => {
    const { engine, clock } = newEngine();
    const a = rest(engine, 'maker', ml('away', 150, 100, { expirationMinutes: 1 }));
    const b = rest(engine, 'maker', ml('away', 150, 100, { expirationMinutes: 2 }));
    const c = rest(engine, 'maker', ml('away', 150, 100, { expirationMinutes: 3 }));
    const events: EngineEvent[] = [];
    engine.onEvent((e) => events.push(e));
    const expired = () => events.flatMap((e) => (e.kind === 'orderExpired' ? [e.order.id] : []));

    clock.set(T0 + MIN);
    expect(
      engine.addGame({ id: 'not-a-game-id', league: 'NBA', sport: 'basketball', participants: [] as never, start: T0 })
        .ok,
    ).toBe(false);
    expect(expired()).toEqual([a]);

    clock.set(T0 + 2 * MIN);
    expect(engine.updateGame('aa00000000000000000000ee', { live: true }).ok).toBe(false);
    expect(expired()).toEqual([a, b]);

    clock.set(T0 + 3 * MIN);
    expect(engine.settleGame('aa00000000000000000000ee', { away: 0, home: 0 }).ok).toBe(false);
    expect(expired()).toEqual([a, b, c]);
  });

  it('delayedExecuted carries the ticket, the user and the outcome', () => {
    const { engine, clock } = newEngine();
    engine.updateGame(G, { live: true });
    const makerId = rest(engine, 'maker', ml('away', 150, 100));
    const events: EngineEvent[] = [];
    engine.onEvent((e) => events.push(e));
    const d = engine.place('taker', [ml('home', -150, 30, { userReference: 'late' })])[0]!;
    if (d.status !== 'delayed') throw new Error('expected delayed');
    expect(events).toEqual([]);
    clock.set(d.executeAt);
    engine.advance();
    expect(events.map((e) => e.kind)).toEqual(['fill', 'bookChanged', 'delayedExecuted']);
    const done = events[2]!;
    if (done.kind !== 'delayedExecuted') throw new Error('no delayedExecuted');
    expect(done.ticket).toBe(d.ticket);
    expect(done.userId).toBe('taker');
    expect(done.outcome).toMatchObject({
      status: 'ok',
      unmatched: null,
      matched: [{ orderID: makerId, amount: 30, odds: -150, userReference: 'late' }],
    });
  });
});

describe('echoes: userReference and wagerRequestID', () => {
  it('userReference is echoed on matched, unmatched, the order, the bets and cancel', () => {
    const { engine } = newEngine();
    const makerId = rest(engine, 'maker', ml('away', 150, 100, { userReference: 'maker-ref' }));
    rest(engine, 'm2', ml('away', 150, 100));
    const r = place(engine, 'taker', ml('home', -150, 400, { userReference: 'client-42' }));
    expect(r.matched).toHaveLength(2);
    for (const m of r.matched) expect(m.userReference).toBe('client-42');
    expect(r.unmatched?.userReference).toBe('client-42');
    expect(engine.order(r.unmatched!.orderID)?.userReference).toBe('client-42');
    expect(engine.bets('taker').map((b) => b.userReference)).toEqual(['client-42', 'client-42']);
    expect(engine.bets('maker').map((b) => b.userReference)).toEqual(['maker-ref']);
    expect(engine.bets('m2').map((b) => b.userReference)).toEqual([null]);
    expect(engine.order(makerId)?.userReference).toBe('maker-ref');
    const c = engine.cancel('taker', r.unmatched!.orderID);
    expect(c.success && c.order.userReference).toBe('client-42');
  });

  it('without userReference the field is absent from place results', () => {
    const { engine } = newEngine();
    rest(engine, 'maker', ml('away', 150, 100));
    const r = place(engine, 'taker', ml('home', -150, 200));
    expect('userReference' in r.matched[0]!).toBe(false);
    expect('userReference' in r.unmatched!).toBe(false);
    expect('market' in r.matched[0]!).toBe(false);
    expect(engine.order(r.unmatched!.orderID)?.userReference).toBeNull();
  });

  it('one wagerRequestID for every fill and the offer of one input; a new one per input', () => {
    const { engine } = newEngine();
    for (const [u, odds] of [
      ['maker', 150],
      ['m2', 155],
      ['m3', 160],
    ] as const)
      rest(engine, u, ml('away', odds, 10));
    const [a, b] = engine.place('taker', [ml('home', -160, 100), ml('home', -170, 5)]);
    const r = ok(a);
    expect(r.matched).toHaveLength(3);
    const w = r.unmatched!.wagerRequestID;
    expect(isObjectId(w)).toBe(true);
    expect(r.matched.map((m) => m.wagerRequestID)).toEqual([w, w, w]);
    expect(new Set(r.matched.map((m) => m.txID)).size).toBe(3);
    expect(r.matched.map((m) => m.orderID)).not.toContain(w);
    expect(w).not.toBe(r.unmatched!.orderID);
    expect(engine.order(r.unmatched!.orderID)?.wagerRequestID).toBe(w);
    expect(engine.bets('taker').map((x) => x.wagerRequestID)).toEqual([w, w, w]);
    const other = ok(b).unmatched!.wagerRequestID;
    expect(other).not.toBe(w);
    // the makers keep their own wagerRequestIDs on their bets
    expect(engine.bets('maker')[0]!.wagerRequestID).toBe(
      engine.order(engine.bets('maker')[0]!.orderID)?.wagerRequestID,
    );
    expect(engine.bets('maker')[0]!.wagerRequestID).not.toBe(w);
  });
});

describe('gameLiability (exchange-api §4.8)', () => {
  it('is 0 with no bets, and resting orders do not count', () => {
    const { engine } = newEngine();
    expect(engine.gameLiability('taker', G)).toBe(0);
    expect(engine.gameLiability('nobody', G)).toBe(0);
    rest(engine, 'taker', ml('home', 200, 500));
    expect(engine.gameLiability('taker', G)).toBe(0);
    expect(engine.account('taker')!.exposure).toBe(-500);
  });

  it('a single bet: the taker risks stake plus commission, the maker its stake', () => {
    const { engine } = newEngine();
    rest(engine, 'maker', ml('away', -150, 150)); // home takers at +150, cap 100
    place(engine, 'taker', ml('home', 150, 100));
    expect(engine.gameLiability('taker', G)).toBeCloseTo(-101, 9);
    expect(engine.gameLiability('maker', G)).toBeCloseTo(-150, 9);
  });

  it('independent markets lose together; an offsetting bet reduces it', () => {
    const { engine } = newEngine();
    rest(engine, 'maker', ml('away', -150, 150)); // home +150 for takers
    rest(engine, 'maker', total('over', 209.5, 104, 100)); // under -104 for takers
    place(engine, 'taker', ml('home', 150, 100)); // risk 101
    place(engine, 'taker', total('under', 209.5, -104, 52)); // risk 52 + 0.5
    expect(engine.gameLiability('taker', G)).toBeCloseTo(-153.5, 9);
    // A bet on away +20.5 (stake 50, win 49.5, risk 50.5) wins whenever home does not win,
    // and loses only when home wins by 21+, where the moneyline wins 148.5.
    // Away wins & over: -101 + 49.5 - 52.5 = -104; home by 21+ & over: 148.5 - 50.5 - 52.5 = 45.5.
    rest(engine, 'm2', spread('home', -20.5, 100, 100));
    place(engine, 'taker', spread('away', 20.5, 100, 50));
    expect(engine.gameLiability('taker', G)).toBeCloseTo(-104, 9);
  });

  it('never positive, even for a book that wins whatever happens', () => {
    const { engine } = newEngine();
    rest(engine, 'maker', ml('away', -120, 120)); // home +120, cap 100
    expect(place(engine, 'hedger', ml('home', 120, 100)).matched).toHaveLength(1);
    expect(engine.gameLiability('hedger', G)).toBeCloseTo(-100, 9);
    rest(engine, 'm2', ml('home', 100, 100)); // away +100, cap 100
    place(engine, 'hedger', ml('away', 100, 50));
    // home: +120 - 50 = 70; away: -100 + 50 = -50; tie: 0
    expect(engine.gameLiability('hedger', G)).toBeCloseTo(-50, 9);
    place(engine, 'hedger', ml('away', 100, 50));
    // home: +20; away: 0; tie: 0
    expect(engine.gameLiability('hedger', G)).toBe(0);
    expect(Object.is(engine.gameLiability('hedger', G), -0)).toBe(false);
  });

  it('is 0 again once the game is settled', () => {
    const { engine } = newEngine();
    rest(engine, 'maker', ml('away', -150, 150));
    place(engine, 'taker', ml('home', 150, 100));
    engine.settleGame(G, { away: 1, home: 2 });
    expect(engine.gameLiability('taker', G)).toBe(0);
    expect(engine.gameLiability('maker', G)).toBe(0);
  });
});

describe('settlement money: quarter lines, fees, balances', () => {
  function quarterBook() {
    const ctx = newEngine();
    const { engine } = ctx;
    const sp = (team: 'home' | 'away', number: number, odds: number, bet: number): PlaceInput => ({
      gameID: SOCCER,
      type: 'spread',
      side: team === 'home' ? S_HOME : S_AWAY,
      number,
      odds,
      bet,
    });
    // home -0.25 at +100 risking 100 ← taker away +0.25 stakes 100 at +100
    rest(engine, 'maker', sp('home', -0.25, 100, 100));
    const q1 = place(engine, 'taker', sp('away', 0.25, 100, 100)).matched[0]!;
    expect(q1.win).toBeCloseTo(99, 9);
    expect(q1.risk).toBeCloseTo(101, 9);
    // home -0.75 at -110 risking 110 ← taker away +0.75 stakes 50 at +110
    rest(engine, 'maker', sp('home', -0.75, -110, 110));
    const q2 = place(engine, 'taker', sp('away', 0.75, 110, 50)).matched[0]!;
    expect(q2.winWithoutCommission).toBeCloseTo(55, 9);
    expect(q2.win).toBeCloseTo(54.45, 9);
    expect(q2.risk).toBeCloseTo(50.5, 9);
    return { ...ctx, q1, q2 };
  }

  const byTx = (engine: MatchingEngine, user: string) =>
    Object.fromEntries(engine.bets(user).map((b) => [b.txID, b.grade]));

  it('home wins by one: -0.25 wins outright, -0.75 half-wins; the taker alone pays fees', () => {
    const { engine, q1, q2 } = quarterBook();
    expect(engine.settleGame(SOCCER, { away: 1, home: 2 }).ok).toBe(true);
    const m = byTx(engine, 'maker');
    const t = byTx(engine, 'taker');
    expect(m[q1.txID]).toMatchObject({ outcome: 'winner', fee: 0 });
    expect(m[q1.txID]!.result).toBeCloseTo(100, 9);
    expect(t[q1.txID]).toMatchObject({ outcome: 'loser' });
    expect(t[q1.txID]!.result).toBeCloseTo(-101, 9);
    expect(t[q1.txID]!.fee).toBeCloseTo(1, 9);
    expect(m[q2.txID]).toMatchObject({ outcome: 'half-win', fee: 0 });
    expect(m[q2.txID]!.result).toBeCloseTo(25, 9); // maker wins 50 on 55 risked; half
    expect(t[q2.txID]).toMatchObject({ outcome: 'half-loss' });
    expect(t[q2.txID]!.result).toBeCloseTo(-25.25, 9);
    expect(t[q2.txID]!.fee).toBeCloseTo(0.25, 9);
    expect(engine.account('maker')!.balance).toBeCloseTo(1_000_125, 6);
    expect(engine.account('taker')!.balance).toBeCloseTo(1_000_000 - 126.25, 6);
  });

  it('a draw: -0.25 half-loses, -0.75 loses; regrading moves balances by the difference', () => {
    const { engine, q1, q2 } = quarterBook();
    engine.settleGame(SOCCER, { away: 1, home: 2 });
    engine.settleGame(SOCCER, { away: 1, home: 1 });
    const m = byTx(engine, 'maker');
    const t = byTx(engine, 'taker');
    expect(m[q1.txID]).toMatchObject({ outcome: 'half-loss', fee: 0, version: 2 });
    expect(m[q1.txID]!.result).toBeCloseTo(-50, 9);
    expect(t[q1.txID]).toMatchObject({ outcome: 'half-win', version: 2 });
    expect(t[q1.txID]!.result).toBeCloseTo(49.5, 9);
    expect(t[q1.txID]!.fee).toBeCloseTo(0.5, 9);
    expect(m[q2.txID]).toMatchObject({ outcome: 'loser', fee: 0 });
    expect(m[q2.txID]!.result).toBeCloseTo(-55, 9);
    expect(t[q2.txID]).toMatchObject({ outcome: 'winner' });
    expect(t[q2.txID]!.result).toBeCloseTo(54.45, 9);
    expect(t[q2.txID]!.fee).toBeCloseTo(0.55, 9);
    expect(engine.account('maker')!.balance).toBeCloseTo(1_000_000 - 105, 6);
    expect(engine.account('taker')!.balance).toBeCloseTo(1_000_000 + 103.95, 6);
    // Σ results over versions' deltas equals the latest results
    const latest = (u: string) => engine.bets(u).reduce((s, b) => s + (b.grade?.result ?? 0), 0);
    expect(engine.account('maker')!.balance - 1_000_000).toBeCloseTo(latest('maker'), 9);
    expect(engine.account('taker')!.balance - 1_000_000).toBeCloseTo(latest('taker'), 9);
  });

  it('whole-line push refunds the stake with no fee', () => {
    const { engine } = newEngine();
    rest(engine, 'maker', spread('home', -3, -110, 110));
    const f = place(engine, 'taker', spread('away', 3, 110, 100)).matched[0]!;
    engine.settleGame(G, { away: 100, home: 103 });
    expect(engine.grades('taker')).toMatchObject([
      { txID: f.txID, outcome: 'refunded', result: 0, fee: 0, adminRefund: false },
    ]);
    expect(engine.account('taker')!.balance).toBe(1_000_000);
    expect(engine.account('maker')!.balance).toBe(1_000_000);
  });

  it('balances after settlement across several games and users', () => {
    const { engine } = newEngine();
    rest(engine, 'maker', ml('away', 150, 100)); // home -150 for takers
    place(engine, 'taker', ml('home', -150, 75)); // taker: win 50·0.99 / risk 75.5
    rest(engine, 'm2', x12('yes', 'draw', 300, 10)); // no-draw -300 for takers, cap 30
    place(engine, 'taker', x12('no', 'draw', -300, 30)); // win 10·0.99 / risk 30.1
    engine.settleGame(G, { away: 80, home: 81 });
    engine.settleGame(SOCCER, { away: 0, home: 0 });
    expect(engine.account('taker')!.balance).toBeCloseTo(1_000_000 + 49.5 - 30.1, 9);
    expect(engine.account('maker')!.balance).toBeCloseTo(1_000_000 - 50, 9);
    expect(engine.account('m2')!.balance).toBeCloseTo(1_000_000 + 30, 9);
    expect(engine.account('taker')!.exposure).toBe(0);
  });
});

describe('listener isolation', () => {
  it('a throwing listener neither escapes the engine nor stops delivery to others', async () => {
    const { MatchingEngine, createIdGenerator } = await import('../../src/engine/index.ts');
    const { ManualClock } = await import('../../src/shared/clock.ts');
    const reported: unknown[] = [];
    const engine = new MatchingEngine({
      clock: new ManualClock(),
      ids: createIdGenerator(5),
      onListenerError: (e) => reported.push(e),
    });
    const seen: string[] = [];
    engine.onEvent(() => {
      throw new Error('boom');
    });
    engine.onEvent((e) => seen.push(e.kind));
    engine.addUser({ id: 'u', balance: 1000 });
    const added = engine.addGame({
      id: 'f'.repeat(24),
      league: 'NBA',
      sport: 'basketball',
      participants: [
        { id: 'e'.repeat(24), longName: 'A', shortName: 'A' },
        { id: 'd'.repeat(24), longName: 'H', shortName: 'H' },
      ],
      start: Date.UTC(2030, 0, 1),
    });
    expect(added.ok).toBe(true);
    expect(() =>
      engine.place('u', [{ gameID: 'f'.repeat(24), type: 'moneyline', side: 'd'.repeat(24), odds: -110, bet: 10 }]),
    ).not.toThrow();
    expect(seen).toEqual(['gameChanged', 'orderPlaced', 'bookChanged']);
    expect(reported).toHaveLength(3);
    expect(engine.listenerErrorCount).toBe(3);
  });
});

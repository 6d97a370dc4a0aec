import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { planSweep, postArb } from '../../strategies/post-arb.ts';
import type { ListedOffer, MarketBook } from '../../src/market-model/types.ts';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { createIdGenerator } from '../../src/engine/ids.ts';
import type { PlaceInput } from '../../src/engine/types.ts';
import { worstCaseLiability } from '../../src/money/liability.ts';
import { oddsRank, withinPostArbBand } from '../../src/odds/american.ts';
import { edgeOf } from '../../src/strategy/fair.ts';
import { sideIndexOf } from '../../src/markets/types.ts';
import type { Position } from '../../src/money/position.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { intentPosition } from '../../src/strategy/liability-fit.ts';
import { AWAY_ML, HOME_ML, book, offer, position, side, view, type OfferSpec } from './support.ts';

const params = (over: Record<string, unknown> = {}) => postArb.params.parse(over);

describe('post-arb', () => {
  it('meets an offer priced better than fair with a postArb at the listed price', () => {
    // Takers of home can get +105 (a maker backing away at -105); fair home 0.55 → edge 6.2 points.
    const b = book('moneyline', [offer(105, 80)], [offer(-125, 300)]);
    const out = postArb.quote(view({ books: [b], fair: { moneyline: 0.55 } }), params());
    expect(out).toEqual([
      { key: 'moneyline:0', selection: HOME_ML, odds: 105, size: 80, orderType: 'postArb', expirationMinutes: 1 },
    ]);
    expect(withinPostArbBand(out[0]!.odds, 105)).toBe(true);
  });

  it('backs the side the offer is listed for: an offer to takers of away is met by backing away', () => {
    const b = book('moneyline', [offer(-140, 300)], [offer(130, 60)]);
    const out = postArb.quote(view({ books: [b], fair: { moneyline: 0.5 } }), params());
    expect(out.map((i) => [i.selection, i.odds, i.size])).toEqual([[AWAY_ML, 130, 60]]);
  });

  it('sweeps further levels only while its price stays inside the band of every level above', () => {
    // o = +149 is 1 cent from +150 (band 1.5) and meets both; +140 is 10 cents from +150.
    const b = book('moneyline', [offer(150, 50), offer(149, 30), offer(149, 20), offer(140, 100)], [offer(-200, 500)]);
    const out = postArb.quote(view({ books: [b], fair: { moneyline: 0.6 } }), params());
    expect(out.map((i) => [i.odds, i.size])).toEqual([[149, 100]]);
    expect(withinPostArbBand(149, 150)).toBe(true);
    expect(withinPostArbBand(149, 149)).toBe(true);
    // On the negative side the band is as narrow: -106 is 1 from -105 (band 1.05), -107 is 2.
    const neg = side(HOME_ML, [offer(-105, 10), offer(-106, 10), offer(-107, 10)]);
    expect(planSweep(neg, 0.6, 0.02, 0.01)).toMatchObject({ odds: -106, size: 20 });
  });

  it('leaves offers without enough edge', () => {
    const b = book('moneyline', [offer(100, 80)], [offer(-120, 80)]);
    expect(postArb.quote(view({ books: [b], fair: { moneyline: 0.515 } }), params({ minEdge: 0.02 }))).toEqual([]);
    expect(postArb.quote(view({ books: [b], fair: { moneyline: 0.525 } }), params({ minEdge: 0.02 }))).toHaveLength(1);
    // With the book's own consensus the best offer is never better than fair...
    expect(postArb.quote(view({ books: [b] }), params({ minDepth: 0, minEdge: 0 }))).toEqual([]);
  });

  it('asked again on the same book object, answers as on a fresh copy of it whatever else changed', () => {
    const b = book('moneyline', [offer(105, 80), offer(104, 50)], [offer(-125, 300)]);
    const copy = (): MarketBook => ({ ...b, sides: [{ ...b.sides[0] }, { ...b.sides[1] }] });
    const wide = params();
    const capped = params({ maxSize: 30 });
    const consensus = params({ minDepth: 0, minEdge: 0 });
    const asks: [Record<string, number>, ReturnType<typeof params>][] = [
      [{ moneyline: 0.55 }, wide],
      [{ moneyline: 0.55 }, capped],
      [{ moneyline: 0.6 }, capped],
      [{ moneyline: 0.5 }, capped],
      [{}, consensus],
      [{ moneyline: 0.55 }, consensus],
      [{ moneyline: 0.55 }, wide],
    ];
    for (const [fair, p] of asks) {
      const again = postArb.quote(view({ books: [b], fair }), p);
      expect(again).toEqual(postArb.quote(view({ books: [copy()], fair }), p));
    }
    expect(postArb.quote(view({ books: [b], fair: { moneyline: 0.6 } }), capped)[0]).toMatchObject({
      odds: 104,
      size: 30,
    });
  });

  it('asked on games in turn, answers each from its own book of the key', () => {
    const pays = book('moneyline', [offer(105, 80)], [offer(-125, 300)]);
    const dry = book('moneyline', [offer(100, 80)], [offer(-120, 80)]);
    const p = params();
    const on = (id: string, b: MarketBook) =>
      postArb.quote(view({ books: [b], fair: { moneyline: 0.515 }, game: { id } }), p);
    for (let i = 0; i < 3; i++) {
      expect(on('g-pays', pays).map((x) => [x.odds, x.size])).toEqual([[105, 80]]);
      expect(on('g-dry', dry)).toEqual([]);
    }
    // A game's book replaced by another object of the key: the answer follows the new book.
    expect(on('g-pays', dry)).toEqual([]);
    expect(on('g-dry', pays).map((x) => [x.odds, x.size])).toEqual([[105, 80]]);
  });

  it('at an edge only a near-certain fair price gives, still takes what pays and nothing else', () => {
    // +9900 implies 0.01: fair home 0.9999 gives 0.9899 of edge; -9900 on away can give none.
    const b = book('moneyline', [offer(9900, 10)], [offer(-9900, 10)]);
    const fair = { moneyline: 0.9999 };
    expect(postArb.quote(view({ books: [b], fair }), params({ minEdge: 0.9899 })).map((i) => i.odds)).toEqual([9900]);
    expect(postArb.quote(view({ books: [b], fair }), params({ minEdge: 0.99 }))).toEqual([]);
    expect(postArb.quote(view({ books: [b], fair }), params({ minEdge: 1 }))).toEqual([]);
  });

  it('takes a dust offer priced off the consensus that minDepth looks past', () => {
    const b = book('moneyline', [offer(150, 10), offer(105, 500)], [offer(-125, 500)]);
    const out = postArb.quote(view({ books: [b] }), params({ minDepth: 20 }));
    expect(out.map((i) => [i.selection, i.odds, i.size])).toEqual([[HOME_ML, 150, 10]]);
  });

  it('never walks into our own offers', () => {
    const fair = { moneyline: 0.6 };
    const head = book('moneyline', [offer(150, 50, { mine: true }), offer(149, 50)], [offer(-200, 500)]);
    expect(postArb.quote(view({ books: [head], fair }), params())).toEqual([]);
    // Ours shares the second level: that level is dropped, the first is still taken.
    const level = book(
      'moneyline',
      [offer(150, 50), offer(149, 30), offer(149, 20, { mine: true })],
      [offer(-200, 500)],
    );
    expect(postArb.quote(view({ books: [level], fair }), params()).map((i) => [i.odds, i.size])).toEqual([[150, 50]]);
  });

  it('caps the size and keeps within the liability budget, best edge first', () => {
    const b = book('moneyline', [offer(105, 500)], [offer(-150, 500)]);
    const fair = { moneyline: 0.55 };
    expect(postArb.quote(view({ books: [b], fair }), params({ maxSize: 120 }))[0]!.size).toBe(120);
    expect(postArb.quote(view({ books: [b], fair }), params({ maxLiability: 30 }))[0]!.size).toBe(30);
    // Already losing 300 if home loses: backing home adds to that, no budget left.
    const longHome = [position(HOME_ML, 300, 110)];
    expect(postArb.quote(view({ books: [b], fair, positions: longHome }), params({ maxLiability: 300 }))).toEqual([]);
    // Long away instead: backing home loses only where we are up 330, so the budget holds 200.
    const longAway = [position(AWAY_ML, 300, 110)];
    const out = postArb.quote(view({ books: [b], fair, positions: longAway }), params({ maxLiability: 300 }));
    expect(out[0]!.size).toBe(200);
    expect(worstCaseLiability([...longAway, ...out.map((i) => intentPosition(i, true))])).toBeGreaterThanOrEqual(-300);

    // Two books, budget for one: the larger edge wins it.
    const total = book('total:8.5', [offer(120, 100)], [offer(-160, 100)]);
    const two = postArb.quote(
      view({ books: [b, total], fair: { moneyline: 0.55, 'total:8.5': 0.6 } }),
      params({ maxLiability: 100 }),
    );
    expect(two.map((i) => [i.key, i.size])).toEqual([['total:8.5:0', 100]]);
  });

  it('respects the trading mode', () => {
    const b = book('moneyline', [offer(105, 80)], [offer(-150, 80)]);
    const fair = { moneyline: 0.55 };
    expect(postArb.quote(view({ books: [b], fair, mode: 'halted' }), params())).toEqual([]);
    expect(postArb.quote(view({ books: [b], fair, mode: 'reducing' }), params())).toEqual([]);
    const longAway = [position(AWAY_ML, 300, 110)];
    expect(postArb.quote(view({ books: [b], fair, mode: 'reducing', positions: longAway }), params())).toHaveLength(1);
  });
});

describe('post-arb against the engine replica', () => {
  const G = 'aa0000000000000000000001';

  function setup() {
    const engine = new MatchingEngine({ clock: new ManualClock(Date.UTC(2026, 0, 1)), ids: createIdGenerator(7) });
    for (const id of ['m1', 'm2', 'm3', 'arb'])
      expect(engine.addUser({ id, balance: 100_000, commissionRate: 0.01 }).ok).toBe(true);
    expect(
      engine.addGame({
        id: G,
        league: 'NBA',
        sport: 'basketball',
        participants: [
          { id: 'bb0000000000000000000001', longName: 'Away', shortName: 'AWY' },
          { id: 'bb0000000000000000000002', longName: 'Home', shortName: 'HOM' },
        ],
        start: Date.UTC(2026, 0, 2),
      }).ok,
    ).toBe(true);
    return engine;
  }

  function bookOf(engine: MatchingEngine, me: string): MarketBook[] {
    return engine.books(G).map((b) => {
      const sideOf = (k: 0 | 1) => ({
        taker: b.selections[k],
        epoch: 0,
        offers: engine.bookSide(G, b.key, k).map((l): ListedOffer => ({
          id: l.order.id,
          odds: l.listedOdds,
          sumUntaken: l.sumUntaken,
          bet: l.order.remaining,
          isPostArb: l.order.isPostArb,
          mine: l.order.userId === me,
        })),
      });
      return { key: b.key, type: b.selections[0].type, sides: [sideOf(0), sideOf(1)] };
    });
  }

  function place(
    engine: MatchingEngine,
    user: string,
    selection: typeof HOME_ML,
    odds: number,
    bet: number,
    orderType: string,
  ) {
    const wire = engine.wireOf(G, selection)!;
    const input: PlaceInput = {
      gameID: G,
      type: wire.type,
      side: wire.side,
      ...(wire.number === null ? {} : { number: wire.number }),
      odds,
      bet,
      orderType,
    };
    const [entry] = engine.place(user, [input]);
    return entry!;
  }

  it('is accepted, matches the offers it targets commission-free and leaves the rest', () => {
    const engine = setup();
    // Makers back away; the book lists them for takers of home at +105, +104 and +101.
    expect(place(engine, 'm1', AWAY_ML, -105, 105, 'post').status).toBe('ok');
    expect(place(engine, 'm2', AWAY_ML, -104, 52, 'post').status).toBe('ok');
    expect(place(engine, 'm3', AWAY_ML, -101, 101, 'post').status).toBe('ok');
    const books = bookOf(engine, 'arb');
    const out = postArb.quote(
      view({ books, fair: { moneyline: 0.56 } }),
      params({ maxLiability: 10_000, maxSize: 10_000 }),
    );
    expect(out).toHaveLength(1);
    const intent = out[0]!;
    expect(intent.odds).toBe(104);
    expect(intent.size).toBeCloseTo(150, 9);

    const entry = place(engine, 'arb', intent.selection, intent.odds, intent.size, intent.orderType!);
    expect(entry.status).toBe('ok');
    if (entry.status !== 'ok') return;
    expect(entry.matched.map((m) => m.odds)).toEqual([105, 104]);
    const staked = entry.matched.reduce((s, m) => s + m.amount, 0);
    expect(staked).toBeCloseTo(150, 6);
    for (const m of entry.matched) {
      expect(m.risk).toBeCloseTo(m.amount, 9);
      expect(m.win).toBeCloseTo(m.winWithoutCommission, 9);
    }
    expect(entry.unmatched).toBeNull();
    // The +101 offer, outside the band of +105, is untouched.
    const left = engine.bookSide(G, 'moneyline', 0);
    expect(left.map((l) => [l.listedOdds, l.sumUntaken])).toEqual([[101, 100]]);
  });

  it('does not target its own resting order (the exchange would match it)', () => {
    const engine = setup();
    expect(place(engine, 'arb', AWAY_ML, -105, 105, 'post').status).toBe('ok');
    expect(place(engine, 'm1', AWAY_ML, -105, 105, 'post').status).toBe('ok');
    const out = postArb.quote(view({ books: bookOf(engine, 'arb'), fair: { moneyline: 0.56 } }), params());
    expect(out).toEqual([]);
  });
});

const oddsArb = fc.oneof(fc.integer({ min: 100, max: 300 }), fc.integer({ min: -300, max: -101 }));
// Prices bunched so that band sweeps, own offers inside them and budget cuts all happen.
const offersArb: fc.Arbitrary<OfferSpec[]> = fc.array(
  fc.record({
    odds: fc.oneof(
      oddsArb,
      fc.integer({ min: -3, max: 3 }).map((d) => (d >= 0 ? 140 + d : -140 + d)),
    ),
    size: fc.integer({ min: 1, max: 400 }),
    mine: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }),
  }),
  { maxLength: 6 },
);
const positionArb: fc.Arbitrary<Position> = fc.record({
  selection: fc.constantFrom(HOME_ML, AWAY_ML),
  amount: fc.integer({ min: 1, max: 500 }),
  odds: oddsArb,
  commissionRate: fc.constant(0),
});

describe('post-arb properties', () => {
  test.prop(
    [
      offersArb,
      offersArb,
      fc.double({ min: 0.05, max: 0.95, noNaN: true }),
      fc.array(positionArb, { maxLength: 3 }),
      fc.integer({ min: 10, max: 1000 }),
      fc.double({ min: 0, max: 0.1, noNaN: true }),
    ],
    { numRuns: 300 },
  )(
    'every intent is accepted by the band rule, meets only offers not ours and with edge, and fits the budget',
    (s0, s1, fair, positions, maxLiability, minEdge) => {
      const b = book('moneyline', s0, s1);
      const out = postArb.quote(
        view({ books: [b], fair: { moneyline: fair }, positions }),
        params({ maxLiability, minEdge }),
      );
      for (const i of out) {
        expect(i.orderType).toBe('postArb');
        const k = sideIndexOf(i.selection);
        expect(i.selection).toEqual(b.sides[k].taker);
        // What the engine walks: every offer listed to takers of our selection at our price or better.
        const crossed = b.sides[k].offers.filter((o) => oddsRank(o.odds) >= oddsRank(i.odds));
        expect(crossed.length).toBeGreaterThan(0);
        expect(crossed[0]).toBe(b.sides[k].offers[0]);
        for (const o of crossed) {
          expect(o.mine).toBe(false);
          expect(withinPostArbBand(i.odds, o.odds)).toBe(true);
          expect(edgeOf(o.odds, k === 0 ? fair : 1 - fair)).toBeGreaterThanOrEqual(minEdge);
        }
        expect(i.size).toBeLessThanOrEqual(crossed.reduce((s, o) => s + o.sumUntaken, 0) + 1e-9);
      }
      const bound = Math.min(-maxLiability, worstCaseLiability(positions)) - 1e-7;
      expect(worstCaseLiability([...positions, ...out.map((i) => intentPosition(i, true))])).toBeGreaterThanOrEqual(
        bound,
      );
    },
  );
});

import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { fixedSpread } from '../../strategies/fixed-spread.ts';
import { bookKeyOf, sideIndexOf } from '../../src/markets/types.ts';
import { worstCaseLiability } from '../../src/money/liability.ts';
import { impliedProbability, oddsRank } from '../../src/odds/american.ts';
import { consensusFair, edgeOf, fairProbability } from '../../src/strategy/fair.ts';
import { bestRank, stepOut } from '../../src/strategy/ladder.ts';
import { intentPosition } from '../../src/strategy/liability-fit.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { AWAY_ML, HOME_ML, book, deepFreeze, offer, ownOrder, position, view, type OfferSpec } from './support.ts';

const params = (over: Record<string, unknown> = {}) => fixedSpread.params.parse(over);

const ML = book('moneyline', [offer(110, 200), offer(105, 300)], [offer(-130, 200), offer(-135, 300)]);
const P0 = consensusFair(ML)!;

const onSide = (intents: readonly QuoteIntent[], k: 0 | 1) => intents.filter((i) => sideIndexOf(i.selection) === k);

describe('fixed-spread quotes', () => {
  it('brackets fair with the margin honoured after rounding, in levels of the given step and size', () => {
    const out = fixedSpread.quote(
      view({ books: [ML] }),
      params({ margin: 0.02, levels: 3, levelStepCents: 5, sizePerLevel: 25, toleranceCents: 4 }),
    );
    expect(out).toHaveLength(6);
    const home = onSide(out, 0);
    const away = onSide(out, 1);
    expect(home.map((i) => i.selection)).toEqual([HOME_ML, HOME_ML, HOME_ML]);
    expect(away.map((i) => i.selection)).toEqual([AWAY_ML, AWAY_ML, AWAY_ML]);
    for (const i of home) expect(edgeOf(i.odds, P0)).toBeGreaterThanOrEqual(0.02);
    for (const i of away) expect(edgeOf(i.odds, 1 - P0)).toBeGreaterThanOrEqual(0.02);
    // In probability of home: we buy home below fair and sell it (back away) above fair.
    const bid = impliedProbability(home[0]!.odds);
    const ask = 1 - impliedProbability(away[0]!.odds);
    expect(bid).toBeLessThan(P0 - 0.02 + 1e-12);
    expect(ask).toBeGreaterThan(P0 + 0.02 - 1e-12);
    // Inner level is the tightest price honouring the margin: one cent closer would not.
    expect(edgeOf(stepOut(home[0]!.odds, -1), P0)).toBeLessThan(0.02);
    for (const side of [home, away]) {
      expect(side.map((i) => oddsRank(i.odds) - oddsRank(side[0]!.odds))).toEqual([0, 5, 10]);
      for (const i of side) {
        expect(i.size).toBe(25);
        expect(i.toleranceCents).toBe(4);
        expect(i.orderType).toBe('post');
      }
    }
    expect(new Set(out.map((i) => i.key)).size).toBe(6);
  });

  it('keeps intent keys stable when the price moves', () => {
    const moved = book('moneyline', [offer(120, 200)], [offer(-140, 200)]);
    const a = fixedSpread.quote(view({ books: [ML] }), params({ levels: 2 }));
    const b = fixedSpread.quote(view({ books: [moved] }), params({ levels: 2 }));
    expect(b.map((i) => i.key)).toEqual(a.map((i) => i.key));
    expect(b.map((i) => i.odds)).not.toEqual(a.map((i) => i.odds));
  });

  it('quotes the main spread and total from the game, and skips books with no fair price', () => {
    const spread = book('spread:-3.5', [offer(-105, 100)], [offer(-115, 100)]);
    const total = book('total:210.5', [offer(-110, 100)], [offer(-110, 100)]);
    const thin = book('moneyline', [offer(110, 5)], [offer(-130, 5)]);
    const out = fixedSpread.quote(
      view({ books: [thin, spread, total], game: { mainHomeSpread: -3.5, mainTotal: 210.5 } }),
      params(),
    );
    expect([...new Set(out.map((i) => bookKeyOf(i.selection)))]).toEqual(['spread:-3.5', 'total:210.5']);
    expect(out.find((i) => i.selection.type === 'spread' && sideIndexOf(i.selection) === 1)!.selection).toEqual({
      type: 'spread',
      team: 'away',
      line: 3.5,
    });
    // A configured fair price makes a missing or thin book quotable.
    const withFair = fixedSpread.quote(
      view({ books: [thin], fair: { moneyline: 0.5 } }),
      params({ markets: ['moneyline'] }),
    );
    expect(withFair).toHaveLength(2);
  });

  it('steps a quote that would cross the book one cent clear of it, keeping the margin', () => {
    // A configured fair of 0.60 for home makes our home bid (≈ -138) worse than the +110
    // takers of home can already get: a post there would match, so it moves to +111.
    const out = fixedSpread.quote(
      view({ books: [ML], fair: { moneyline: 0.6 } }),
      params({ levels: 2, levelStepCents: 5 }),
    );
    const home = onSide(out, 0);
    expect(home.map((i) => i.odds)).toEqual([111, 116]);
    for (const i of home) expect(edgeOf(i.odds, 0.6)).toBeGreaterThanOrEqual(0.02);
  });

  it('does not step around its own resting orders, which the order manager replaces', () => {
    const b = book('moneyline', [offer(110, 200, { id: 'mine1', mine: true }), offer(-150, 200)], [offer(-130, 200)]);
    const v = view({ books: [b], fair: { moneyline: 0.6 }, orders: [ownOrder('mine1', AWAY_ML, -110, 181.82)] });
    const home = onSide(fixedSpread.quote(v, params()), 0);
    expect(home).toHaveLength(1);
    expect(oddsRank(home[0]!.odds)).toBeLessThan(oddsRank(110));
    expect(oddsRank(home[0]!.odds)).toBeGreaterThan(oddsRank(-150));
    // Another strategy's order on the same account is real liquidity: step clear of it.
    const other = view({ books: [b], fair: { moneyline: 0.6 } });
    expect(onSide(fixedSpread.quote(other, params()), 0)[0]!.odds).toBe(111);
  });

  it('skews both quotes against the side it is long, capped', () => {
    const flat = fixedSpread.quote(view({ books: [ML] }), params({ skewPerUnit: 0.0001 }));
    // Long home: 200 at +110 is 420 of unit-payoff contracts → shift 0.042.
    const long = fixedSpread.quote(
      view({ books: [ML], positions: [position(HOME_ML, 200, 110)] }),
      params({ skewPerUnit: 0.0001 }),
    );
    const [fh, fa] = [onSide(flat, 0)[0]!, onSide(flat, 1)[0]!];
    const [lh, la] = [onSide(long, 0)[0]!, onSide(long, 1)[0]!];
    // Home bid drops (higher payout for us: takers of away find it worse), away quote gets keener.
    expect(oddsRank(lh.odds)).toBeGreaterThan(oddsRank(fh.odds));
    expect(oddsRank(la.odds)).toBeLessThan(oddsRank(fa.odds));
    expect(edgeOf(lh.odds, P0 - 0.042)).toBeGreaterThanOrEqual(0.02);
    expect(edgeOf(la.odds, 1 - P0 + 0.042)).toBeGreaterThanOrEqual(0.02);
    expect(edgeOf(stepOut(la.odds, -1), 1 - P0 + 0.042)).toBeLessThan(0.02);
    // Long away mirrors it.
    const short = fixedSpread.quote(
      view({ books: [ML], positions: [position(AWAY_ML, 200, -130)] }),
      params({ skewPerUnit: 0.0001 }),
    );
    expect(oddsRank(onSide(short, 0)[0]!.odds)).toBeLessThan(oddsRank(fh.odds));
    expect(oddsRank(onSide(short, 1)[0]!.odds)).toBeGreaterThan(oddsRank(fa.odds));
    // A huge position is capped at maxSkew.
    const huge = fixedSpread.quote(
      view({ books: [ML], positions: [position(HOME_ML, 1e6, 110)] }),
      params({ skewPerUnit: 0.0001, maxSkew: 0.03 }),
    );
    const hh = onSide(huge, 1)[0]!;
    expect(edgeOf(hh.odds, 1 - P0 + 0.03)).toBeGreaterThanOrEqual(0.02);
    expect(edgeOf(stepOut(hh.odds, -1), 1 - P0 + 0.03)).toBeLessThan(0.02);
  });

  it('in reducing mode keeps only quotes whose fills lower the worst case, together too', () => {
    const positions = [position(HOME_ML, 100, 110)];
    const base = worstCaseLiability(positions);
    const p = params({ levels: 5, levelStepCents: 1, sizePerLevel: 50 });
    const active = fixedSpread.quote(view({ books: [ML], positions }), p);
    const out = fixedSpread.quote(view({ books: [ML], positions, mode: 'reducing' }), p);
    expect(out.length).toBeGreaterThan(0);
    expect(out.every((i) => sideIndexOf(i.selection) === 1)).toBe(true);
    for (const i of out) expect(worstCaseLiability([...positions, intentPosition(i, false)])).toBeGreaterThan(base);
    expect(worstCaseLiability([...positions, ...out.map((i) => intentPosition(i, false))])).toBeGreaterThanOrEqual(
      base,
    );
    // Each of the five away levels alone reduces, but all five filled would overshoot.
    const awayActive = onSide(active, 1);
    expect(awayActive).toHaveLength(5);
    for (const i of awayActive)
      expect(worstCaseLiability([...positions, intentPosition(i, false)])).toBeGreaterThan(base);
    expect(worstCaseLiability([...positions, ...awayActive.map((i) => intentPosition(i, false))])).toBeLessThan(base);
    expect(out.length).toBeLessThan(5);
    // Flat: nothing reduces.
    expect(fixedSpread.quote(view({ books: [ML], mode: 'reducing' }), p)).toEqual([]);
  });

  it('quotes nothing when halted', () => {
    expect(
      fixedSpread.quote(view({ books: [ML], positions: [position(HOME_ML, 100, 110)], mode: 'halted' }), params()),
    ).toEqual([]);
  });

  it('caps its own worst case when maxLiability is set', () => {
    const out = fixedSpread.quote(view({ books: [ML] }), params({ levels: 3, sizePerLevel: 50, maxLiability: 120 }));
    // Resting, the home quotes lose together when away wins: 50 + 50 + 20.
    expect(onSide(out, 0).map((i) => i.size)).toEqual([50, 50, 20]);
    expect(worstCaseLiability(out.map((i) => intentPosition(i, true)))).toBeGreaterThanOrEqual(-120);
  });

  it('is pure: no mutation of the view, same answer twice', () => {
    const v = deepFreeze(view({ books: [ML], positions: [position(HOME_ML, 100, 110)] }));
    const a = fixedSpread.quote(v, params({ levels: 2 }));
    const b = fixedSpread.quote(v, params({ levels: 2 }));
    expect(b).toEqual(a);
  });
});

const oddsArb = fc.oneof(fc.integer({ min: 100, max: 400 }), fc.integer({ min: -400, max: -101 }));
const offersArb: fc.Arbitrary<OfferSpec[]> = fc.array(
  fc.record({ odds: oddsArb, size: fc.integer({ min: 1, max: 500 }), mine: fc.boolean() }),
  { maxLength: 5 },
);

describe('fixed-spread properties', () => {
  test.prop(
    [
      offersArb,
      offersArb,
      fc.option(fc.double({ min: 0.05, max: 0.95, noNaN: true }), { nil: undefined }),
      fc.double({ min: 0, max: 0.05, noNaN: true }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 10 }),
    ],
    { numRuns: 300 },
  )(
    'flat: every quote keeps the margin over fair and never crosses an offer that is not its own',
    (s0, s1, fair, margin, levels, step) => {
      const b = book('moneyline', s0, s1);
      const v = view({ books: [b], ...(fair === undefined ? {} : { fair: { moneyline: fair } }) });
      const p = params({ margin, levels, levelStepCents: step, minDepth: 0, maxOverround: 1 });
      const p0 = fairProbability(v, 'moneyline', { minDepth: 0, maxOverround: 1 });
      const out = fixedSpread.quote(v, p);
      if (p0 === null) {
        expect(out).toEqual([]);
        return;
      }
      for (const i of out) {
        const k = sideIndexOf(i.selection);
        expect(edgeOf(i.odds, k === 0 ? p0 : 1 - p0)).toBeGreaterThanOrEqual(margin);
        const best = bestRank(b.sides[k], new Set());
        if (best !== null) expect(oddsRank(i.odds)).toBeGreaterThan(best);
      }
    },
  );
});

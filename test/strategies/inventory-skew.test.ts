import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import {
  binaryVariance,
  intensityDecay,
  inventorySkew,
  optimalSpread,
  reservationProbability,
} from '../../strategies/inventory-skew.ts';
import type { Selection } from '../../src/markets/types.ts';
import { sideIndexOf } from '../../src/markets/types.ts';
import { worstCaseLiability } from '../../src/money/liability.ts';
import type { Position } from '../../src/money/position.ts';
import { impliedProbability } from '../../src/odds/american.ts';
import { consensusFair } from '../../src/strategy/fair.ts';
import { intentPosition } from '../../src/strategy/liability-fit.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { AWAY_ML, HOME_ML, book, offer, position, view, type OfferSpec } from './support.ts';

const params = (over: Record<string, unknown> = {}) => inventorySkew.params.parse(over);

const ML = book('moneyline', [offer(-105, 300)], [offer(-115, 300)]);
const P = consensusFair(ML)!;

/** Our quotes as a two-sided market in probability of home: bid = backing home, ask = 1 − backing away. */
function market(intents: readonly QuoteIntent[]): { bid: number; ask: number } {
  const home = intents.find((i) => sideIndexOf(i.selection) === 0)!;
  const away = intents.find((i) => sideIndexOf(i.selection) === 1)!;
  return { bid: impliedProbability(home.odds), ask: 1 - impliedProbability(away.odds) };
}

describe('Avellaneda–Stoikov on a binary outcome', () => {
  it('shifts the reservation probability against inventory, scaled by γ and σ² = p(1−p), capped', () => {
    expect(binaryVariance(0.5)).toBe(0.25);
    expect(binaryVariance(0.9)).toBeCloseTo(0.09, 12);
    expect(reservationProbability(0.5, 2, 0.1)).toBeCloseTo(0.45, 12);
    expect(reservationProbability(0.5, -2, 0.1)).toBeCloseTo(0.55, 12);
    expect(reservationProbability(0.9, 2, 0.1)).toBeCloseTo(0.9 - 0.018, 12);
    expect(reservationProbability(0.5, 0, 0.1)).toBe(0.5);
    expect(reservationProbability(0.5, 100, 0.1, 0.08)).toBeCloseTo(0.42, 12);
  });

  it('widens the spread with γ and narrows it with k', () => {
    const gammas = [0.02, 0.05, 0.1, 0.2, 0.5, 1, 2];
    const ks = [5, 20, 50, 100, 500];
    for (const k of ks) {
      const d = gammas.map((g) => optimalSpread(0.5, g, k));
      for (let i = 1; i < d.length; i++) expect(d[i]!).toBeGreaterThan(d[i - 1]!);
    }
    for (const g of gammas) {
      const d = ks.map((k) => optimalSpread(0.5, g, k));
      for (let i = 1; i < d.length; i++) expect(d[i]!).toBeLessThan(d[i - 1]!);
    }
    // γ ≪ k: the liquidity term is ≈ 2/k.
    expect(optimalSpread(0.5, 0.001, 50) - 0.001 * 0.25).toBeCloseTo(2 / 50, 4);
  });

  it('derives k from the taker arrival rate', () => {
    expect(intensityDecay(0, 50, 25)).toBe(50);
    expect(intensityDecay(2, 50, 25)).toBe(100);
    expect(intensityDecay(Number.NaN, 50, 25)).toBe(50);
    expect(intensityDecay(-3, 50, 25)).toBe(50);
  });
});

describe('inventory-skew quotes', () => {
  it('quotes around fair when flat, at least δ wide', () => {
    const p = params({ minSpread: 0 });
    const out = inventorySkew.quote(view({ books: [ML] }), p);
    expect(out).toHaveLength(2);
    const { bid, ask } = market(out);
    const delta = optimalSpread(P, p.gamma, p.kBase);
    expect(bid).toBeLessThanOrEqual(P - delta / 2);
    expect(ask).toBeGreaterThanOrEqual(P + delta / 2);
    // Rounding moves each side by under a cent (< 0.3 points here), no more.
    expect(P - delta / 2 - bid).toBeLessThan(0.003);
    expect(ask - (P + delta / 2)).toBeLessThan(0.003);
    for (const i of out) {
      expect(i.orderType).toBe('post');
      expect(i.size).toBe(p.size);
      expect(i.toleranceCents).toBe(p.toleranceCents);
    }
  });

  it('moves the reservation price with the position', () => {
    const p = params({ minSpread: 0 });
    const flat = market(inventorySkew.quote(view({ books: [ML] }), p));
    const longHome = market(inventorySkew.quote(view({ books: [ML], positions: [position(HOME_ML, 100, 110)] }), p));
    const longAway = market(inventorySkew.quote(view({ books: [ML], positions: [position(AWAY_ML, 100, 110)] }), p));
    expect(longHome.bid).toBeLessThan(flat.bid);
    expect(longHome.ask).toBeLessThan(flat.ask);
    expect(longAway.bid).toBeGreaterThan(flat.bid);
    expect(longAway.ask).toBeGreaterThan(flat.ask);
    // q = 100 × 2.10 / inventoryUnit(100) = 2.1 → r = P − 2.1 γ P(1−P).
    const r = reservationProbability(P, 2.1, p.gamma);
    expect((longHome.bid + longHome.ask) / 2).toBeCloseTo(r, 2);
  });

  it('widens with γ and narrows with taker flow', () => {
    const width = (over: Record<string, unknown>, arrivals = 0) => {
      const m = market(
        inventorySkew.quote(view({ books: [ML], takerArrivalsPerMinute: arrivals }), params({ minSpread: 0, ...over })),
      );
      return m.ask - m.bid;
    };
    expect(width({ gamma: 0.5 })).toBeGreaterThan(width({ gamma: 0.1 }));
    expect(width({}, 4)).toBeLessThan(width({}, 0));
    expect(width({ kBase: 200 })).toBeLessThan(width({ kBase: 50 }));
  });

  it('sizes down or drops what would breach the limit, and keeps what reduces', () => {
    // Long away: we lose 300 if home wins. Limit 320: another 50 backing away (losing when
    // home wins) only fits as 20; backing home loses only when away wins, where we are up.
    const positions = [position(AWAY_ML, 300, 110)];
    const out = inventorySkew.quote(view({ books: [ML], positions }), params({ maxLiability: 320, size: 50 }));
    expect(out.find((i) => i.selection.type === 'moneyline' && i.selection.team === 'home')!.size).toBe(50);
    expect(out.find((i) => i.selection.type === 'moneyline' && i.selection.team === 'away')!.size).toBe(20);
    const tight = inventorySkew.quote(view({ books: [ML], positions }), params({ maxLiability: 300, size: 50 }));
    expect(tight.map((i) => i.selection)).toEqual([HOME_ML]);
  });

  it('quotes nothing when halted and only reducing quotes when reducing', () => {
    const positions = [position(AWAY_ML, 300, 110)];
    expect(inventorySkew.quote(view({ books: [ML], positions, mode: 'halted' }), params())).toEqual([]);
    const reducing = inventorySkew.quote(view({ books: [ML], positions, mode: 'reducing' }), params());
    expect(reducing.map((i) => i.selection)).toEqual([HOME_ML]);
  });
});

// ---------------------------------------------------------------- the hard limit

const MAIN_SPREAD = -3.5;
const MAIN_TOTAL = 210.5;
const team = fc.constantFrom<'home' | 'away'>('home', 'away');
const selectionArb: fc.Arbitrary<Selection> = fc.oneof(
  team.map((t): Selection => ({ type: 'moneyline', team: t })),
  fc
    .tuple(team, fc.constantFrom(MAIN_SPREAD, -3, -4.25, -7))
    .map(([t, homeLine]): Selection => ({ type: 'spread', team: t, line: t === 'home' ? homeLine : -homeLine })),
  fc
    .tuple(fc.constantFrom<'over' | 'under'>('over', 'under'), fc.constantFrom(MAIN_TOTAL, 210, 215.25))
    .map(([ou, line]): Selection => ({ type: 'total', ou, line })),
);
const oddsArb = fc.oneof(fc.integer({ min: 100, max: 500 }), fc.integer({ min: -500, max: -101 }));
const positionArb: fc.Arbitrary<Position> = fc.record({
  selection: selectionArb,
  amount: fc.integer({ min: 1, max: 50_000 }).map((c) => c / 100),
  odds: oddsArb,
  commissionRate: fc.constantFrom(0, 0.01),
});
const offersArb: fc.Arbitrary<OfferSpec[]> = fc.array(
  fc.record({ odds: oddsArb, size: fc.integer({ min: 1, max: 1000 }) }),
  { maxLength: 4 },
);
const bookArb = (key: string) => fc.tuple(offersArb, offersArb).map(([a, b]) => book(key, a, b));
const KEYS = ['moneyline', `spread:${MAIN_SPREAD}`, `total:${MAIN_TOTAL}`];

describe('inventory-skew hard limit', () => {
  test.prop(
    [
      fc.array(positionArb, { maxLength: 8 }),
      bookArb(KEYS[0]!),
      bookArb(KEYS[1]!),
      bookArb(KEYS[2]!),
      fc.dictionary(fc.constantFrom(...KEYS), fc.double({ min: 0.03, max: 0.97, noNaN: true })),
      fc.record({
        maxLiability: fc.integer({ min: 10, max: 2000 }),
        size: fc.integer({ min: 1, max: 1000 }),
        gamma: fc.double({ min: 0.01, max: 2, noNaN: true }),
        inventoryUnit: fc.integer({ min: 10, max: 1000 }),
        minSize: fc.constantFrom(0, 1, 5),
      }),
      fc.constantFrom<'active' | 'reducing'>('active', 'active', 'reducing'),
      fc.double({ min: 0, max: 10, noNaN: true }),
    ],
    { numRuns: 300 },
  )(
    'positions plus every intent at full size never lose more than maxLiability (or than the positions already do)',
    (positions, ml, sp, to, fair, p, mode, arrivals) => {
      const v = view({
        books: [ml, sp, to],
        game: { mainHomeSpread: MAIN_SPREAD, mainTotal: MAIN_TOTAL },
        positions,
        fair,
        mode,
        takerArrivalsPerMinute: arrivals,
      });
      const parsed = params({ ...p, markets: ['moneyline', 'mainSpread', 'mainTotal'], minDepth: 0, maxOverround: 1 });
      const out = inventorySkew.quote(v, parsed);
      const bound = Math.min(-p.maxLiability, worstCaseLiability(positions)) - 1e-7;
      const matched = worstCaseLiability([...positions, ...out.map((i) => intentPosition(i, false))]);
      const resting = worstCaseLiability([...positions, ...out.map((i) => intentPosition(i, true))]);
      expect(matched).toBeGreaterThanOrEqual(bound);
      expect(resting).toBeGreaterThanOrEqual(bound);
      for (const i of out) {
        expect(i.size).toBeGreaterThanOrEqual(Math.max(parsed.minSize, 0.01));
        expect(i.size).toBeLessThanOrEqual(p.size);
        expect(Math.round(i.size * 100) / 100).toBe(i.size);
      }
    },
  );
});

import { describe, expect, it } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { bookKeyOf, sideIndexOf } from '../../src/markets/types.ts';
import { impliedProbability, oddsRank } from '../../src/odds/american.ts';
import {
  MIN_QUOTABLE_PROBABILITY,
  consensusFair,
  depthPrice,
  edgeOf,
  fairProbability,
  makerOdds,
} from '../../src/strategy/fair.ts';
import { bestRank, clearOfBook, fromRank, stepOut } from '../../src/strategy/ladder.ts';
import { selectedBookKeys, selectionsOfKey } from '../../src/strategy/markets.ts';
import { bookExposure } from '../../src/strategy/exposure.ts';
import { AWAY_ML, HOME_ML, book, game, offer, position, side, view } from './support.ts';

describe('consensus fair', () => {
  it('normalises the implied probabilities of the best taker prices multiplicatively', () => {
    const b = book('moneyline', [offer(110, 100), offer(105, 500)], [offer(-130, 100), offer(-135, 500)]);
    const q0 = 100 / 210;
    const q1 = 130 / 230;
    const p0 = consensusFair(b, { minDepth: 0, maxOverround: 1 });
    expect(p0).toBeCloseTo(q0 / (q0 + q1), 12);
    // De-margining pulls each side below its own taker price: the overround is removed.
    expect(p0!).toBeLessThan(q0);
    expect(1 - p0!).toBeLessThan(q1);
  });

  it('walks to minDepth so a dust offer at an off-market price does not move it', () => {
    const s = side(HOME_ML, [offer(200, 5), offer(110, 100)]);
    expect(depthPrice(s, 0)).toBe(200);
    expect(depthPrice(s, 50)).toBe(110);
    expect(depthPrice(s, 106)).toBeNull();
  });

  it('ignores our own offers', () => {
    const s = side(HOME_ML, [offer(150, 1000, { mine: true }), offer(110, 100)]);
    expect(depthPrice(s, 10)).toBe(110);
  });

  it('is null when a side is empty, too thin or the overround too wide', () => {
    expect(consensusFair(book('moneyline', [offer(110, 100)], []))).toBeNull();
    expect(
      consensusFair(book('moneyline', [offer(110, 10)], [offer(-130, 10)]), { minDepth: 20, maxOverround: 1 }),
    ).toBeNull();
    expect(
      consensusFair(book('moneyline', [offer(-200, 100)], [offer(-200, 100)]), { minDepth: 0, maxOverround: 0.25 }),
    ).toBeNull();
    expect(
      consensusFair(book('moneyline', [offer(-200, 100)], [offer(-200, 100)]), { minDepth: 0, maxOverround: 0.4 }),
    ).toBeCloseTo(0.5, 12);
  });

  it('takes the configured fair map when it has a valid value for the key', () => {
    const b = book('moneyline', [offer(110, 100)], [offer(-130, 100)]);
    expect(fairProbability(view({ books: [b], fair: { moneyline: 0.61 } }), 'moneyline')).toBe(0.61);
    const consensus = consensusFair(b);
    expect(fairProbability(view({ books: [b], fair: { 'total:8.5': 0.5 } }), 'moneyline')).toBe(consensus);
    expect(fairProbability(view({ books: [b], fair: { moneyline: 1.2 } }), 'moneyline')).toBe(consensus);
    expect(fairProbability(view({ fair: { 'spread:-3.5': 0.4 } }), 'spread:-3.5')).toBe(0.4);
    expect(fairProbability(view(), 'spread:-3.5')).toBeNull();
  });
});

describe('maker odds at a margin', () => {
  test.prop([fc.double({ min: 0.03, max: 0.97, noNaN: true }), fc.double({ min: 0, max: 0.02, noNaN: true })], {
    numRuns: 500,
  })('never gives away more than asked, and is the tightest such price', (p, margin) => {
    // 0.03 − 0.02 is 0.00999… in binary: below the quotable floor, so null is right there.
    fc.pre(p - margin >= MIN_QUOTABLE_PROBABILITY);
    const o = makerOdds(p, margin);
    expect(o).not.toBeNull();
    expect(Number.isInteger(o!) && Math.abs(o!) >= 100 && o !== -100).toBe(true);
    expect(edgeOf(o!, p)).toBeGreaterThanOrEqual(margin);
    // One cent less payout for us would break the margin: the rounding gave nothing extra away.
    expect(edgeOf(stepOut(o!, -1), p)).toBeLessThan(margin);
  });

  it('rounds toward the higher payout for us on both signs', () => {
    // 0.5238… is exactly -110; a hair more probability must not round to -110.
    expect(makerOdds(110 / 210, 0)).toBe(-110);
    expect(makerOdds(110 / 210 + 1e-6, 0)).toBe(-110);
    expect(makerOdds(110 / 210 - 1e-6, 0)).toBe(-109);
    expect(makerOdds(0.4, 0.02)).toBe(164); // 1/0.38 − 1 = 1.6315… → +164, not +163
    expect(makerOdds(0.5, 0)).toBe(100);
  });

  it('is null outside the quotable range', () => {
    expect(makerOdds(0.02, 0.05)).toBeNull();
    expect(makerOdds(0.999, 0)).toBeNull();
  });
});

describe('ladder', () => {
  test.prop([fc.integer({ min: -5000, max: 5000 })])('fromRank inverts oddsRank', (r) => {
    expect(oddsRank(fromRank(r))).toBe(r);
  });

  it('steps across the even line without a gap', () => {
    expect(stepOut(-101, 1)).toBe(100);
    expect(stepOut(100, 1)).toBe(101);
    expect(stepOut(-110, 5)).toBe(-105);
    expect(stepOut(102, -4)).toBe(-102);
  });

  it('moves a post clear of the best offer it would meet, ignoring only our own orders', () => {
    const s = side(HOME_ML, [offer(-105, 50, { id: 'x' }), offer(-110, 50)]);
    expect(bestRank(s, new Set())).toBe(-5);
    expect(clearOfBook(-108, s, new Set())).toBe(-104);
    expect(clearOfBook(-105, s, new Set())).toBe(-104);
    expect(clearOfBook(-104, s, new Set())).toBe(-104);
    expect(clearOfBook(-108, s, new Set(['x']))).toBe(-108);
    expect(clearOfBook(-112, s, new Set(['x']))).toBe(-109);
  });
});

describe('market keys and exposure', () => {
  it('derives side selections that round-trip through bookKeyOf and sideIndexOf', () => {
    for (const key of ['moneyline', 'spread:-3.5', 'spread:0', 'spread:7', 'total:210.5', 'moneyline1x2:draw']) {
      const sels = selectionsOfKey(key)!;
      expect(sels.map(bookKeyOf)).toEqual([key, key]);
      expect(sels.map(sideIndexOf)).toEqual([0, 1]);
    }
    expect(selectionsOfKey('spread:')).toBeNull();
    expect(selectionsOfKey('corners:3')).toBeNull();
  });

  it('resolves main lines from the game', () => {
    const g = game([book('total:8.5', [], [])], { mainHomeSpread: -1.5, mainTotal: 9 });
    expect(selectedBookKeys(g, ['moneyline', 'mainSpread', 'mainTotal', 'moneyline'])).toEqual([
      'moneyline',
      'spread:-1.5',
      'total:9',
    ]);
    expect(selectedBookKeys(g, ['all'])).toEqual(['total:8.5']);
    expect(selectedBookKeys(game([]), ['mainSpread'])).toEqual([]);
  });

  it('measures net inventory as unit-payoff contracts long side 0', () => {
    const e = bookExposure([position(HOME_ML, 100, 150), position(AWAY_ML, 40, -200)], 'moneyline');
    expect(e.pnlIfSide[0]).toBeCloseTo(150 - 40, 9);
    expect(e.pnlIfSide[1]).toBeCloseTo(-100 + 20, 9);
    expect(e.net).toBeCloseTo(190, 9);
    // A hedged book is flat: backing both sides to the same payoff.
    expect(bookExposure([position(HOME_ML, 300, -300), position(AWAY_ML, 100, 300)], 'moneyline').net).toBeCloseTo(
      0,
      9,
    );
    expect(bookExposure([position(HOME_ML, 300, -300)], 'total:8.5').net).toBe(0);
  });

  it('edge is fair minus implied', () => {
    expect(edgeOf(100, 0.55)).toBeCloseTo(0.05, 12);
    expect(edgeOf(-110, 0.5)).toBeCloseTo(0.5 - impliedProbability(-110), 12);
  });
});

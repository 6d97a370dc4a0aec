import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import type { Selection } from '../../src/markets/types.ts';
import type { Position } from '../../src/money/position.ts';
import { bookExposure, bookExposures, NO_EXPOSURE, positionsExtend } from '../../src/strategy/exposure.ts';
import { AWAY_ML as AWAY, HOME_ML as HOME, position as pos } from './support.ts';

const OVER: Selection = { type: 'total', ou: 'over', line: 8.5 };

describe('bookExposures', () => {
  it('sums each book: a maker backing side 0 at +150 for 100 is long 250 of side 0', () => {
    const e = bookExposures([pos(HOME, 100, 150), pos(OVER, 50, -200)]);
    expect(e.get('moneyline')).toEqual({ pnlIfSide: [150, -100], net: 250 });
    expect(e.get('total:8.5')).toEqual({ pnlIfSide: [25, -50], net: 75 });
    expect(bookExposure([pos(AWAY, 100, 100)], 'moneyline').net).toBe(-200);
    expect(bookExposure([], 'moneyline')).toBe(NO_EXPOSURE);
  });

  it('answers a frozen positions array from its first answer, and another array from its own', () => {
    const first = Object.freeze([pos(HOME, 100, 100)]);
    expect(bookExposures(first).get('moneyline')!.net).toBe(200);
    expect(bookExposures(first)).toBe(bookExposures(first));
    // The next fill comes as a new array (same length here, so only identity tells them apart).
    const next = Object.freeze([pos(AWAY, 100, 100)]);
    expect(bookExposures(next).get('moneyline')!.net).toBe(-200);
    expect(bookExposures(first).get('moneyline')!.net).toBe(200);
  });

  it('never remembers an array that can still change', () => {
    const growing: Position[] = [pos(HOME, 100, 100)];
    expect(bookExposures(growing).get('moneyline')!.net).toBe(200);
    growing.push(pos(AWAY, 300, 100));
    expect(bookExposures(growing).get('moneyline')!.net).toBe(-400);
    growing[0] = pos(OVER, 10, 100);
    expect(bookExposures(growing).get('moneyline')!.net).toBe(-600);
    expect(bookExposures(growing).get('total:8.5')!.net).toBe(20);
  });

  it('hands out answers nobody can change', () => {
    const e = bookExposures(Object.freeze([pos(HOME, 100, 100)])).get('moneyline')!;
    expect(Object.isFrozen(e)).toBe(true);
    expect(Object.isFrozen(e.pnlIfSide)).toBe(true);
  });
});

describe('bookExposures of positions that extend earlier ones', () => {
  const selectionArb = fc.constantFrom<Selection>(
    HOME,
    AWAY,
    OVER,
    { type: 'total', ou: 'under', line: 8.5 },
    { type: 'spread', team: 'home', line: -1.5 },
    { type: 'spread', team: 'away', line: 1.5 },
  );
  const positionArb = fc
    .tuple(
      selectionArb,
      fc.double({ min: 0.01, max: 500, noNaN: true }),
      fc.constantFrom(-250, -110, 100, 105, 137),
      fc.constantFrom(0, 0.01),
    )
    .map(([selection, amount, odds, commissionRate]): Position => ({ selection, amount, odds, commissionRate }));

  /** Each figure bit for bit (Object.is), and the books in the same order. */
  const same = (got: ReadonlyMap<string, unknown>, want: ReadonlyMap<string, unknown>) => {
    expect([...got.keys()]).toEqual([...want.keys()]);
    for (const [k, w] of want) {
      const g = got.get(k) as { pnlIfSide: readonly number[]; net: number };
      const x = w as typeof g;
      expect(Object.is(g.pnlIfSide[0], x.pnlIfSide[0]) && Object.is(g.pnlIfSide[1], x.pnlIfSide[1])).toBe(true);
      expect(Object.is(g.net, x.net)).toBe(true);
    }
  };

  test.prop([
    fc.array(fc.array(positionArb, { maxLength: 6 }), { minLength: 1, maxLength: 6 }),
    fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  ])('are the sums of one pass over all of them, whichever earlier arrays were asked', (steps, asked) => {
    // Each step a new frozen array: the last one's positions (the same objects) and more, as the fill ledger makes them.
    let prev: readonly Position[] = Object.freeze([]);
    steps.forEach((more, n) => {
      const next = Object.freeze([...prev, ...more]);
      positionsExtend(next, prev);
      if (asked[n] === true || n === steps.length - 1) same(bookExposures(next), bookExposures([...next]));
      prev = next;
    });
  });

  it('counts only what the earlier array holds as known', () => {
    const prev = Object.freeze([pos(HOME, 100, 100)]);
    expect(bookExposures(prev).get('moneyline')!.net).toBe(200);
    const next = Object.freeze([prev[0]!, pos(AWAY, 50, 100), pos(OVER, 10, 100)]);
    positionsExtend(next, prev);
    expect(bookExposures(next).get('moneyline')).toEqual({ pnlIfSide: [50, -50], net: 100 });
    expect(bookExposures(next).get('total:8.5')!.net).toBe(20);
    expect([...bookExposures(next).keys()]).toEqual(['moneyline', 'total:8.5']);
  });
});

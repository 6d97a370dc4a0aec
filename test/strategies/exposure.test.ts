import { describe, expect, it } from 'vitest';
import type { Selection } from '../../src/markets/types.ts';
import type { Position } from '../../src/money/position.ts';
import { bookExposure, bookExposures, NO_EXPOSURE } from '../../src/strategy/exposure.ts';
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

import { describe, it, expect } from 'vitest';
import { fillMoney, takerCapacity } from '../../src/money/fill.ts';
import { invertOdds } from '../../src/odds/american.ts';

// feeds-and-semantics §4, taker commission rate 1%
const TABLE: ReadonlyArray<readonly [odds: number, amount: number, wwc: number, win: number, risk: number]> = [
  [-175, 50, 28.5714, 28.2857, 50.2857],
  [-110, 50, 45.4545, 45.0, 50.4545],
  [-104, 50, 48.0769, 47.5962, 50.4808],
  [185, 25, 46.25, 45.7875, 25.25],
];

describe('fillMoney (taker, 1%)', () => {
  for (const [odds, amount, wwc, win, risk] of TABLE) {
    it(`${odds} for ${amount}`, () => {
      const m = fillMoney(amount, odds, 0.01);
      expect(m.amount).toBe(amount);
      expect(m.odds).toBe(odds);
      expect(m.winWithoutCommission).toBeCloseTo(wwc, 4);
      expect(m.win).toBeCloseTo(win, 4);
      expect(m.risk).toBeCloseTo(risk, 4);
      expect(m.commissionOnWin).toBeCloseTo(m.winWithoutCommission - m.win, 10);
      expect(m.commissionOnLoss).toBeCloseTo(m.risk - amount, 10);
    });
  }
});

describe('fillMoney (maker, no commission)', () => {
  for (const [odds, amount, wwc] of TABLE) {
    it(`${odds} for ${amount}`, () => {
      const m = fillMoney(amount, odds, 0);
      expect(m.risk).toBe(amount);
      expect(m.win).toBeCloseTo(wwc, 4);
      expect(m.win).toBe(m.winWithoutCommission);
      expect(m.commissionOnWin).toBe(0);
      expect(m.commissionOnLoss).toBe(0);
    });
  }
});

describe('takerCapacity (book perspective, §3)', () => {
  it('maker -330 risking 3798.43 can absorb 1151.04', () => {
    expect(takerCapacity(3798.43, -330)).toBeCloseTo(1151.04, 2);
    expect(invertOdds(-330)).toBe(330);
  });
  it('maker over at -104 risking 265.2 can absorb 255', () => {
    expect(takerCapacity(265.2, -104)).toBeCloseTo(255, 8);
  });
  it('a taker filling the capacity wins exactly the maker risk (before commission)', () => {
    const cap = takerCapacity(3798.43, -330);
    expect(fillMoney(cap, invertOdds(-330), 0).winWithoutCommission).toBeCloseTo(3798.43, 8);
  });
});

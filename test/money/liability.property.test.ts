import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import type { Selection } from '../../src/markets/types.ts';
import type { Position } from '../../src/money/position.ts';
import { pnlByOutcome } from '../../src/money/grading.ts';
import {
  addResting,
  pnlAtScore,
  restingPosition,
  worstCaseLiability,
  worstCaseScore,
  worstLoss,
} from '../../src/money/liability.ts';
import { PnlGroups } from '../../src/money/pnl-groups.ts';
import { positionArb } from '../support/money-arbitraries.ts';

const positionsArb = fc.array(positionArb, { minLength: 0, maxLength: 16 });

function lineOf(s: Selection): number {
  return s.type === 'spread' || s.type === 'total' ? Math.abs(s.line) : 0;
}

/** Minimum of pnlAtScore over away, home in 0..N, N = max |line| + 4. */
function gridMinimum(ps: readonly Position[]): number {
  let n = 0;
  for (const p of ps) n = Math.max(n, lineOf(p.selection));
  const N = Math.ceil(n) + 4;
  let min = Infinity;
  for (let away = 0; away <= N; away++) {
    for (let home = 0; home <= N; home++) min = Math.min(min, pnlAtScore(ps, { away, home }));
  }
  return min;
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

describe('worstCaseLiability properties', () => {
  test.prop([positionsArb], { numRuns: 300 })('equals the brute-force minimum over a large enough grid', (ps) => {
    const exact = worstCaseLiability(ps);
    const grid = Math.min(0, gridMinimum(ps));
    expect(close(exact, grid), `exact ${exact} grid ${grid}`).toBe(true);
  });

  test.prop([positionsArb], { numRuns: 300 })('is never positive and never -0', (ps) => {
    const l = worstCaseLiability(ps);
    expect(l).toBeLessThanOrEqual(0);
    expect(Object.is(l, -0)).toBe(false);
  });

  test.prop([positionsArb, positionArb], { numRuns: 300 })(
    'adding a contingent order never makes it better',
    (ps, extra) => {
      const before = worstCaseLiability(ps);
      const after = worstCaseLiability([...ps, { ...extra, contingent: true }]);
      expect(after <= before || close(after, before), `before ${before} after ${after}`).toBe(true);
    },
  );

  test.prop([positionsArb], { numRuns: 300 })('worstCaseScore attains the liability at a valid score', (ps) => {
    const w = worstCaseScore(ps);
    expect(Number.isInteger(w.score.home) && w.score.home >= 0).toBe(true);
    expect(Number.isInteger(w.score.away) && w.score.away >= 0).toBe(true);
    expect(Object.is(w.score.home, -0) || Object.is(w.score.away, -0)).toBe(false);
    const at = pnlAtScore(ps, w.score);
    expect(close(Math.min(0, at), w.liability), `at ${at} liability ${w.liability}`).toBe(true);
    // the score attains the minimum P&L itself, not only the capped liability
    expect(close(at, gridMinimum(ps)) || at < gridMinimum(ps), `at ${at}`).toBe(true);
    expect(w.liability).toBe(worstCaseLiability(ps));
  });

  test.prop([positionsArb], { numRuns: 300 })('no position ever lowers the P&L below the liability', (ps) => {
    const l = worstCaseLiability(ps);
    for (const score of [
      { away: 0, home: 0 },
      { away: 1, home: 0 },
      { away: 0, home: 1 },
      { away: 3, home: 7 },
      { away: 12, home: 2 },
      { away: 30, home: 30 },
    ]) {
      const v = pnlAtScore(ps, score);
      expect(v >= l || close(v, l)).toBe(true);
    }
  });

  test.prop([positionArb, fc.constantFrom(1, Number.NaN, 0, -0)], { numRuns: 300 })(
    'worstLoss is the least of the outcomes, and 0, bit for bit (a NaN amount too)',
    (p, scale) => {
      const q = { ...p, amount: p.amount * scale };
      let want = 0;
      for (const v of pnlByOutcome(q)) if (v < want) want = v;
      expect(Object.is(worstLoss(q), want)).toBe(true);
    },
  );

  test.prop([positionsArb, fc.constantFrom(0, 0.01)], { numRuns: 200 })(
    'addResting adds what restingPosition makes, bit for bit',
    (ps, takerRate) => {
      const by = new PnlGroups();
      const made = new PnlGroups();
      for (const p of ps) {
        addResting(by, p.selection, p.amount, p.odds, takerRate);
        made.add(restingPosition(p.selection, p.amount, p.odds, takerRate));
      }
      expect(by.pnl.length).toBe(made.pnl.length);
      expect(by.pnl.every((v, n) => Object.is(v, made.pnl[n]))).toBe(true);
      expect(by.shape.codes).toEqual(made.shape.codes);
    },
  );
});

import { describe, it, expect } from 'vitest';
import type { Selection } from '../../src/markets/types.ts';
import type { Position } from '../../src/money/position.ts';
import { pnlAtScore, worstCaseLiability, worstCaseScore } from '../../src/money/liability.ts';

const ml = (team: 'home' | 'away'): Selection => ({ type: 'moneyline', team });
const sp = (team: 'home' | 'away', line: number): Selection => ({ type: 'spread', team, line });
const tot = (ou: 'over' | 'under', line: number): Selection => ({ type: 'total', ou, line });
const x12 = (outcome: 'home' | 'away' | 'draw', yes: boolean): Selection => ({ type: 'moneyline1x2', outcome, yes });

const pos = (selection: Selection, amount: number, odds: number, commissionRate = 0, contingent = false): Position =>
  contingent ? { selection, amount, odds, commissionRate, contingent } : { selection, amount, odds, commissionRate };

/** The worst-case score must attain the liability. */
function expectAttained(ps: readonly Position[]): void {
  const w = worstCaseScore(ps);
  expect(Number.isInteger(w.score.home) && w.score.home >= 0).toBe(true);
  expect(Number.isInteger(w.score.away) && w.score.away >= 0).toBe(true);
  expect(Math.min(0, pnlAtScore(ps, w.score))).toBeCloseTo(w.liability, 9);
}

describe('pnlAtScore', () => {
  it('sums matched positions and caps contingent ones at 0', () => {
    const ps = [pos(ml('home'), 110, -110), pos(ml('away'), 100, 100, 0, true), pos(ml('home'), 50, 100, 0, true)];
    // home wins: +100, contingent away loses -100, contingent home wins → 0
    expect(pnlAtScore(ps, { away: 0, home: 1 })).toBeCloseTo(0, 10);
    // away wins: -110, contingent away wins → 0, contingent home loses -50
    expect(pnlAtScore(ps, { away: 1, home: 0 })).toBeCloseTo(-160, 10);
    expect(Object.is(pnlAtScore(ps, { away: 2, home: 2 }), 0)).toBe(true);
  });
  it('is 0 with no positions', () => {
    expect(pnlAtScore([], { away: 3, home: 1 })).toBe(0);
  });
});

describe('worstCaseLiability', () => {
  it('is 0 for no positions, never -0', () => {
    expect(Object.is(worstCaseLiability([]), 0)).toBe(true);
    expect(worstCaseScore([])).toEqual({ liability: 0, score: { away: 0, home: 0 } });
  });

  it('a single taker bet loses its risk', () => {
    const ps = [pos(ml('home'), 50, -110, 0.01)];
    expect(worstCaseLiability(ps)).toBeCloseTo(-50.454545, 6);
    const w = worstCaseScore(ps);
    expect(w.score.away).toBeGreaterThan(w.score.home);
    expectAttained(ps);
  });

  it('a single maker total bet loses its stake; quarter lines lose fully somewhere', () => {
    expect(worstCaseLiability([pos(tot('over', 209.5), 265.2, -104)])).toBeCloseTo(-265.2, 10);
    expect(worstCaseLiability([pos(sp('home', -0.25), 100, 100)])).toBeCloseTo(-100, 10);
    expect(worstCaseLiability([pos(tot('under', 0.25), 80, 150)])).toBeCloseTo(-80, 10);
  });

  it('a bet that cannot lose has liability 0', () => {
    // over 0 can only push or win, over -0.5 always wins; under -0.5 always loses
    expect(Object.is(worstCaseLiability([pos(tot('over', 0), 100, -110)]), 0)).toBe(true);
    expect(Object.is(worstCaseLiability([pos(tot('over', -0.5), 100, -110)]), 0)).toBe(true);
    expect(worstCaseLiability([pos(tot('under', -0.5), 100, -110)])).toBe(-100);
  });

  it('a fully hedged moneyline at even odds is flat', () => {
    const ps = [pos(ml('home'), 100, 100), pos(ml('away'), 100, -100)];
    expect(Object.is(worstCaseLiability(ps), 0)).toBe(true);
    expectAttained(ps);
  });

  it('a moneyline hedged at the same -110 on both sides loses the vig', () => {
    const ps = [pos(ml('home'), 110, -110), pos(ml('away'), 110, -110)];
    expect(worstCaseLiability(ps)).toBeCloseTo(-10, 10);
    expectAttained(ps);
  });

  it('a surebet has liability 0 even though the worst P&L is positive', () => {
    const ps = [pos(sp('home', -0.5), 100, 150), pos(sp('away', 0.5), 100, 150)];
    expect(Object.is(worstCaseLiability(ps), 0)).toBe(true);
    const w = worstCaseScore(ps);
    expect(pnlAtScore(ps, w.score)).toBeCloseTo(50, 10);
  });

  it('maker spread + total that can lose together', () => {
    // home -3.5 risking 110 at -110, over 44.5 risking 50 at +100: both lose at 0-0
    const ps = [pos(sp('home', -3.5), 110, -110), pos(tot('over', 44.5), 50, 100)];
    expect(worstCaseLiability(ps)).toBeCloseTo(-160, 10);
    expectAttained(ps);
  });

  it('maker spread + total that cannot lose together', () => {
    // away +10.5 loses only when home wins by 11+, which needs a total ≥ 11: over 9.5 then wins
    const ps = [pos(sp('away', 10.5), 100, -110), pos(tot('over', 9.5), 50, 100)];
    // home by 11+: -100 + 50; total ≤ 9: -50 + 90.91; otherwise both win
    expect(worstCaseLiability(ps)).toBeCloseTo(-50, 10);
    expectAttained(ps);
  });

  it('respects the parity of margin and total', () => {
    // draw-no loses only at d = 0, over 1.5 + under 0.5 both lose only at s = 1; d = 0, s = 1 is impossible
    const ps = [pos(x12('draw', false), 100, 100), pos(tot('over', 1.5), 100, 100), pos(tot('under', 0.5), 100, 100)];
    expect(worstCaseLiability(ps)).toBeCloseTo(-100, 10);
    expectAttained(ps);
  });

  it('quarter-line spread and total combination', () => {
    // home -0.25 risking 100 (+100), under 2.75 risking 100 (+100)
    // 0-0: half-loss -50, under wins +100 → +50; 1-1: half-loss -50, under 2.75 at 2 wins +100
    // 2-2: -50, under loses -100 → -150; away 1-0: -100 + 100; away wins with s ≥ 4: -100 -100 = -200
    const ps = [pos(sp('home', -0.25), 100, 100), pos(tot('under', 2.75), 100, 100)];
    expect(worstCaseLiability(ps)).toBeCloseTo(-200, 10);
    const w = worstCaseScore(ps);
    expect(w.score.away).toBeGreaterThan(w.score.home);
    expect(w.score.away + w.score.home).toBeGreaterThanOrEqual(3);
    expectAttained(ps);
  });

  it('contingent resting orders count only where they lose', () => {
    // matched home -110 risking 110 (win 100), resting away +100 risking 100
    const ps = [pos(ml('home'), 110, -110), pos(ml('away'), 100, 100, 0, true)];
    // home wins: +100 - 100 = 0; away wins: -110 + min(0, 100) = -110; tie: 0
    expect(worstCaseLiability(ps)).toBeCloseTo(-110, 10);
    expectAttained(ps);
  });

  it('resting orders on both sides cannot hedge each other', () => {
    const resting = [pos(ml('home'), 100, 100, 0, true), pos(ml('away'), 100, 100, 0, true)];
    expect(worstCaseLiability(resting)).toBeCloseTo(-100, 10);
    const matched = resting.map(({ selection, amount, odds, commissionRate }) =>
      pos(selection, amount, odds, commissionRate),
    );
    expect(Object.is(worstCaseLiability(matched), 0)).toBe(true);
  });

  it('merges positions on the same selection', () => {
    const ps = [
      pos(tot('over', 44.5), 50, 100),
      pos(tot('over', 44.5), 70, -120, 0.01),
      pos(tot('under', 44.5), 30, 100),
    ];
    // under: -50 - 70.583… + 30 ; over: +50 + 57.75 - 30
    expect(worstCaseLiability(ps)).toBeCloseTo(-50 - (70 + (0.01 * 70) / 1.2) + 30, 9);
    expectAttained(ps);
  });

  it('handles lines far from the origin', () => {
    const ps = [pos(sp('home', -40.5), 100, 100), pos(tot('under', 250.5), 100, 100)];
    // home must win by 41+ to cover; total ≥ 251 → both lose at e.g. 105-146
    expect(worstCaseLiability(ps)).toBeCloseTo(-200, 10);
    expectAttained(ps);
  });
});

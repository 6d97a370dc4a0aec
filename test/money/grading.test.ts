import { describe, it, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import type { GradeOutcome, Score, Selection } from '../../src/markets/types.ts';
import { oppositeSelection } from '../../src/markets/types.ts';
import {
  feeOnOutcome,
  gradeSelection,
  isQuarterLine,
  pnlByOutcome,
  pnlOnOutcome,
  GRADE_OUTCOMES,
} from '../../src/money/grading.ts';
import type { Position } from '../../src/money/position.ts';

const ml = (team: 'home' | 'away'): Selection => ({ type: 'moneyline', team });
const sp = (team: 'home' | 'away', line: number): Selection => ({ type: 'spread', team, line });
const tot = (ou: 'over' | 'under', line: number): Selection => ({ type: 'total', ou, line });
const x12 = (outcome: 'home' | 'away' | 'draw', yes: boolean): Selection => ({ type: 'moneyline1x2', outcome, yes });
const sc = (away: number, home: number): Score => ({ away, home });

type Case = readonly [Selection, Score, GradeOutcome];

const CASES: readonly Case[] = [
  // moneyline
  [ml('home'), sc(1, 3), 'winner'],
  [ml('away'), sc(1, 3), 'loser'],
  [ml('away'), sc(4, 3), 'winner'],
  [ml('home'), sc(2, 2), 'refunded'],
  [ml('away'), sc(0, 0), 'refunded'],
  // spread, half lines
  [sp('home', -3.5), sc(20, 24), 'winner'],
  [sp('home', -3.5), sc(20, 23), 'loser'],
  [sp('away', 3.5), sc(20, 23), 'winner'],
  [sp('away', 3.5), sc(20, 24), 'loser'],
  [sp('away', -0.5), sc(1, 0), 'winner'],
  [sp('home', 0.5), sc(1, 1), 'winner'],
  [sp('away', -0.5), sc(1, 1), 'loser'],
  // spread, whole lines (push)
  [sp('home', -3), sc(20, 23), 'refunded'],
  [sp('home', -3), sc(20, 24), 'winner'],
  [sp('home', -3), sc(20, 22), 'loser'],
  [sp('away', 3), sc(20, 23), 'refunded'],
  [sp('home', 0), sc(2, 2), 'refunded'],
  [sp('away', 7), sc(30, 20), 'winner'],
  // spread, quarter lines
  [sp('home', -0.25), sc(0, 0), 'half-loss'],
  [sp('home', -0.25), sc(0, 1), 'winner'],
  [sp('home', -0.25), sc(1, 0), 'loser'],
  [sp('away', 0.25), sc(0, 0), 'half-win'],
  [sp('home', 0.25), sc(2, 2), 'half-win'],
  [sp('home', -0.75), sc(0, 1), 'half-win'],
  [sp('home', -0.75), sc(0, 2), 'winner'],
  [sp('home', -0.75), sc(0, 0), 'loser'],
  [sp('away', 0.75), sc(0, 1), 'half-loss'],
  [sp('home', -1.75), sc(0, 2), 'half-win'],
  [sp('away', 1.75), sc(0, 2), 'half-loss'],
  [sp('away', 1.75), sc(0, 1), 'winner'],
  [sp('away', 1.75), sc(0, 3), 'loser'],
  [sp('away', -1.25), sc(2, 2), 'loser'],
  [sp('away', -1.25), sc(3, 2), 'half-loss'],
  [sp('away', -1.25), sc(3, 1), 'winner'],
  [sp('home', 1.25), sc(3, 2), 'half-win'],
  // totals
  [tot('over', 44.5), sc(20, 25), 'winner'],
  [tot('over', 44.5), sc(20, 24), 'loser'],
  [tot('under', 44.5), sc(20, 24), 'winner'],
  [tot('under', 44.5), sc(20, 25), 'loser'],
  [tot('over', 44), sc(20, 24), 'refunded'],
  [tot('under', 44), sc(20, 24), 'refunded'],
  [tot('under', 44), sc(20, 23), 'winner'],
  [tot('over', 0.5), sc(0, 0), 'loser'],
  [tot('under', 0.5), sc(0, 0), 'winner'],
  // totals, quarter lines
  [tot('over', 44.25), sc(20, 24), 'half-loss'],
  [tot('under', 44.25), sc(20, 24), 'half-win'],
  [tot('over', 44.25), sc(20, 25), 'winner'],
  [tot('over', 44.75), sc(20, 25), 'half-win'],
  [tot('under', 44.75), sc(20, 25), 'half-loss'],
  [tot('under', 44.75), sc(20, 24), 'winner'],
  [tot('over', 44.75), sc(20, 26), 'winner'],
  [tot('over', 2.25), sc(1, 2), 'winner'],
  [tot('under', 2.25), sc(1, 1), 'half-win'],
  [tot('over', 0.25), sc(0, 0), 'half-loss'],
  // 1x2
  [x12('home', true), sc(1, 2), 'winner'],
  [x12('home', false), sc(1, 2), 'loser'],
  [x12('away', true), sc(1, 2), 'loser'],
  [x12('away', false), sc(1, 2), 'winner'],
  [x12('draw', true), sc(1, 2), 'loser'],
  [x12('draw', false), sc(1, 2), 'winner'],
  [x12('draw', true), sc(1, 1), 'winner'],
  [x12('draw', false), sc(1, 1), 'loser'],
  [x12('home', true), sc(1, 1), 'loser'],
  [x12('home', false), sc(0, 0), 'winner'],
  [x12('away', true), sc(3, 0), 'winner'],
  [x12('away', false), sc(3, 0), 'loser'],
];

describe('gradeSelection', () => {
  it.each(CASES.map(([sel, score, out]) => [JSON.stringify(sel), score.away, score.home, out, sel] as const))(
    '%s at away %i home %i → %s',
    (_name, away, home, expected, sel) => {
      expect(gradeSelection(sel, { away, home })).toBe(expected);
    },
  );
  it('recognises quarter lines', () => {
    for (const l of [0.25, -0.25, 0.75, -1.75, 44.25]) expect(isQuarterLine(l)).toBe(true);
    for (const l of [0, 0.5, -3, -3.5, 44, 0.3]) expect(isQuarterLine(l)).toBe(false);
  });
  it('recognises quarter lines beyond the small integers, and none in what is not a number', () => {
    // Four times the line past 2^31: the low bit of a small integer no longer says it.
    for (const l of [2 ** 29 + 0.25, -(2 ** 29) - 0.75, 2 ** 40 + 0.25]) expect(isQuarterLine(l)).toBe(true);
    for (const l of [2 ** 29, 2 ** 29 + 0.5, -(2 ** 40), 2 ** 60, -0, NaN, Infinity, -Infinity])
      expect(isQuarterLine(l)).toBe(false);
  });
});

const selectionArb: fc.Arbitrary<Selection> = fc.oneof(
  fc.constantFrom<'home' | 'away'>('home', 'away').map(ml),
  fc
    .tuple(fc.constantFrom<'home' | 'away'>('home', 'away'), fc.integer({ min: -60, max: 60 }))
    .map(([t, q]) => sp(t, q / 4)),
  fc
    .tuple(fc.constantFrom<'over' | 'under'>('over', 'under'), fc.integer({ min: 0, max: 240 }))
    .map(([o, q]) => tot(o, q / 4)),
  fc.tuple(fc.constantFrom<'home' | 'away' | 'draw'>('home', 'away', 'draw'), fc.boolean()).map(([o, y]) => x12(o, y)),
);
const scoreArb = fc.record({ away: fc.integer({ min: 0, max: 70 }), home: fc.integer({ min: 0, max: 70 }) });

const MIRROR: Record<GradeOutcome, GradeOutcome> = {
  winner: 'loser',
  loser: 'winner',
  'half-win': 'half-loss',
  'half-loss': 'half-win',
  refunded: 'refunded',
};

describe('gradeSelection properties', () => {
  test.prop([selectionArb, scoreArb], { numRuns: 300 })('the opposite side gets the mirrored outcome', (sel, score) => {
    expect(gradeSelection(oppositeSelection(sel), score)).toBe(MIRROR[gradeSelection(sel, score)]);
  });
  test.prop([selectionArb, scoreArb], { numRuns: 300 })(
    'halves only on quarter lines, pushes never on 1x2 or half lines',
    (sel, score) => {
      const g = gradeSelection(sel, score);
      const line = sel.type === 'spread' || sel.type === 'total' ? sel.line : 0;
      if (g === 'half-win' || g === 'half-loss') expect(isQuarterLine(line)).toBe(true);
      if (g === 'refunded') {
        expect(sel.type).not.toBe('moneyline1x2');
        expect(Number.isInteger(line)).toBe(true);
      }
    },
  );
});

describe('pnlOnOutcome / feeOnOutcome', () => {
  const taker: Position = { selection: ml('home'), amount: 50, odds: -110, commissionRate: 0.01 };
  const maker: Position = { selection: ml('home'), amount: 50, odds: -110, commissionRate: 0 };

  it('taker -110 for 50 at 1%', () => {
    expect(pnlOnOutcome(taker, 'winner')).toBeCloseTo(45, 10);
    expect(pnlOnOutcome(taker, 'loser')).toBeCloseTo(-50.454545, 6);
    expect(pnlOnOutcome(taker, 'half-win')).toBeCloseTo(22.5, 10);
    expect(pnlOnOutcome(taker, 'half-loss')).toBeCloseTo(-25.2272727, 6);
    expect(Object.is(pnlOnOutcome(taker, 'refunded'), 0)).toBe(true);
    expect(feeOnOutcome(taker, 'winner')).toBeCloseTo(0.454545, 6);
    expect(feeOnOutcome(taker, 'loser')).toBeCloseTo(0.454545, 6);
    expect(feeOnOutcome(taker, 'half-win')).toBeCloseTo(0.2272727, 6);
    expect(feeOnOutcome(taker, 'half-loss')).toBeCloseTo(0.2272727, 6);
    expect(feeOnOutcome(taker, 'refunded')).toBe(0);
  });

  it('taker +185 for 25 at 1%: commission on a loss is on the stake', () => {
    const p: Position = { selection: tot('over', 44.5), amount: 25, odds: 185, commissionRate: 0.01 };
    expect(pnlOnOutcome(p, 'winner')).toBeCloseTo(45.7875, 10);
    expect(pnlOnOutcome(p, 'loser')).toBeCloseTo(-25.25, 10);
    expect(feeOnOutcome(p, 'winner')).toBeCloseTo(0.4625, 10);
    expect(feeOnOutcome(p, 'loser')).toBeCloseTo(0.25, 10);
  });

  it('maker pays no fee', () => {
    expect(pnlOnOutcome(maker, 'winner')).toBeCloseTo(45.454545, 6);
    expect(pnlOnOutcome(maker, 'loser')).toBe(-50);
    expect(pnlOnOutcome(maker, 'half-loss')).toBe(-25);
    for (const o of GRADE_OUTCOMES) expect(feeOnOutcome(maker, o)).toBe(0);
  });

  it('pnlByOutcome agrees with pnlOnOutcome', () => {
    const v = pnlByOutcome(taker);
    GRADE_OUTCOMES.forEach((o, i) => expect(v[i]).toBe(pnlOnOutcome(taker, o)));
  });

  it('a zero stake never returns -0', () => {
    const z: Position = { selection: ml('home'), amount: 0, odds: -110, commissionRate: 0.01 };
    for (const o of GRADE_OUTCOMES) expect(Object.is(pnlOnOutcome(z, o), -0)).toBe(false);
  });
});

import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { bookKeyOf, sideIndexOf } from '../../src/markets/types.ts';
import type { Position } from '../../src/money/position.ts';
import { pnlByOutcome } from '../../src/money/grading.ts';
import { worstCaseLiability, worstCaseOfGroups, worstCaseScore, type WorstCase } from '../../src/money/liability.ts';
import { PnlGroups, STRIDE } from '../../src/money/pnl-groups.ts';
import { positionArb, selectionArb } from '../support/money-arbitraries.ts';
import { referenceWorstCaseScore } from './liability-reference.ts';

// Few distinct selections, so that positions share groups and copies share regions.
const fewSelections = fc.array(selectionArb, { minLength: 1, maxLength: 5 });
const positionsOn = (sels: readonly Position['selection'][]) =>
  fc.array(
    fc.tuple(positionArb, fc.nat({ max: sels.length - 1 })).map(([p, i]): Position => ({ ...p, selection: sels[i]! })),
    { maxLength: 24 },
  );
const positionsArb = fc.oneof(fc.array(positionArb, { maxLength: 24 }), fewSelections.chain(positionsOn));

/** The same worst case to the bit (Object.is on each figure, as toEqual compares numbers); a failure shows both. */
function expectSame(got: WorstCase, want: WorstCase): void {
  const figures = (w: WorstCase) => ({ liability: w.liability, score: { home: w.score.home, away: w.score.away } });
  expect(figures(got)).toEqual(figures(want));
}

describe('grouped worst case', () => {
  test.prop([positionsArb], { numRuns: 500 })('is the reference search, bit for bit', (ps) => {
    const want = referenceWorstCaseScore(ps);
    const got = worstCaseScore(ps);
    expectSame(got, want);
    expect(worstCaseLiability(ps)).toBe(want.liability); // toBe is Object.is
  });

  test.prop([positionsArb, positionsArb, positionsArb], { numRuns: 300 })(
    'a copy keeps its groups while the set it copied grows, and the other way round',
    (a, b, c) => {
      const base = new PnlGroups();
      base.addAll(a);
      worstCaseOfGroups(base); // regions built, then shared by the copy
      const scratch = new PnlGroups();
      scratch.copyFrom(base);
      base.addAll(b); // new groups in the original must not reach the copy's shape
      expectSame(worstCaseOfGroups(scratch), referenceWorstCaseScore(a));
      scratch.addAll(c);
      expectSame(worstCaseOfGroups(scratch), referenceWorstCaseScore([...a, ...c]));
      expectSame(worstCaseOfGroups(base), referenceWorstCaseScore([...a, ...b]));
    },
  );

  test.prop([positionsArb, positionsArb, positionsArb], { numRuns: 300 })(
    'two copies of one set plus the rest are the whole, and none disturbs the others',
    (a, b, c) => {
      const base = new PnlGroups();
      base.addAll(a);
      const first = worstCaseOfGroups(base); // regions built, then shared with both copies
      const left = new PnlGroups();
      left.copyFrom(base);
      const right = new PnlGroups();
      right.copyFrom(base);
      left.addAll(b);
      right.addAll(c);
      expectSame(worstCaseOfGroups(left), referenceWorstCaseScore([...a, ...b]));
      expectSame(worstCaseOfGroups(right), referenceWorstCaseScore([...a, ...c]));
      expectSame(worstCaseOfGroups(base), first);
      // The base keeps growing after it was copied: its copies keep what they had.
      base.addAll(b);
      expectSame(worstCaseOfGroups(base), referenceWorstCaseScore([...a, ...b]));
      expectSame(worstCaseOfGroups(right), referenceWorstCaseScore([...a, ...c]));
    },
  );

  test.prop([positionsArb, positionsArb, positionsArb], { numRuns: 300 })(
    'a reused scratch set forgets what it held',
    (a, b, c) => {
      const base = new PnlGroups();
      base.addAll(a);
      const scratch = new PnlGroups();
      scratch.addAll(c); // more or other groups than base, with sums of their own
      worstCaseOfGroups(scratch);
      scratch.copyFrom(base);
      scratch.addAll(b);
      expectSame(worstCaseOfGroups(scratch), referenceWorstCaseScore([...a, ...b]));
      expectSame(worstCaseOfGroups(base), referenceWorstCaseScore(a));
      scratch.copyFrom(base);
      scratch.addAll(c);
      expectSame(worstCaseOfGroups(scratch), referenceWorstCaseScore([...a, ...c]));
    },
  );

  test.prop([positionsArb, positionsArb], { numRuns: 300 })(
    'shares regions exactly between sets of the same groups in the same order',
    (a, b) => {
      const first = new PnlGroups();
      first.addAll(a);
      expectSame(worstCaseOfGroups(first), referenceWorstCaseScore(a));
      // The same groups in the same order, at once: the same shape, and so the same regions.
      const copy = new PnlGroups();
      copy.addAll(a);
      expect(copy.shape).toBe(first.shape);
      const second = new PnlGroups();
      second.addAll(b);
      expectSame(worstCaseOfGroups(second), referenceWorstCaseScore(b));
      const again = new PnlGroups();
      again.addAll([...a].reverse());
      expectSame(worstCaseOfGroups(again), referenceWorstCaseScore([...a].reverse()));
      const same = (x: PnlGroups, y: PnlGroups) =>
        x.shape.codes.length === y.shape.codes.length &&
        x.shape.codes.every(
          (c, i) => c === y.shape.codes[i] && Object.is(x.shape.lines[i]! + 0, y.shape.lines[i]! + 0),
        );
      // Never one shape for other groups, or the same groups in another order. (The same
      // groups may get another shape here: interning starts over after many shapes.)
      if (first.shape === second.shape) expect(same(first, second)).toBe(true);
      if (first.shape === again.shape) expect(same(first, again)).toBe(true);
    },
  );

  test('sets keep their figures, and can grow, after the shapes kept are let go', () => {
    const total = (line: number): Position => ({
      selection: { type: 'total', ou: 'over', line },
      amount: 10,
      odds: 120,
      commissionRate: 0,
    });
    const spread: Position = {
      selection: { type: 'spread', team: 'home', line: -1.5 },
      amount: 7,
      odds: -110,
      commissionRate: 0,
    };
    const held = new PnlGroups();
    held.addAll([spread, total(2.5)]);
    const before = worstCaseOfGroups(held);
    // Far more distinct shapes than are kept: interning starts over, more than once.
    for (let i = 0; i < 10_000; i++) {
      const g = new PnlGroups();
      g.add(total(i + 0.5));
      worstCaseOfGroups(g);
    }
    expectSame(worstCaseOfGroups(held), before);
    held.add(total(3.5));
    expectSame(worstCaseOfGroups(held), referenceWorstCaseScore([spread, total(2.5), total(3.5)]));
    const fresh = new PnlGroups();
    fresh.addAll([spread, total(2.5), total(3.5)]);
    expect(fresh.shape).toBe(held.shape);
  });

  test.prop([selectionArb, selectionArb], { numRuns: 500 })(
    'merges exactly the selections of one book side',
    (a, b) => {
      const g = new PnlGroups();
      g.add({ selection: a, amount: 1, odds: 100, commissionRate: 0 });
      g.add({ selection: b, amount: 1, odds: 100, commissionRate: 0 });
      expect(g.size === 1).toBe(bookKeyOf(a) === bookKeyOf(b) && sideIndexOf(a) === sideIndexOf(b));
    },
  );

  test('a line of -0 is the line 0', () => {
    const g = new PnlGroups();
    g.add({ selection: { type: 'spread', team: 'away', line: 0 }, amount: 1, odds: 100, commissionRate: 0 });
    g.add({ selection: { type: 'spread', team: 'away', line: -0 }, amount: 1, odds: 100, commissionRate: 0 });
    g.add({ selection: { type: 'total', ou: 'under', line: -0 }, amount: 1, odds: 100, commissionRate: 0 });
    g.add({ selection: { type: 'total', ou: 'under', line: 0 }, amount: 1, odds: 100, commissionRate: 0 });
    expect(g.size).toBe(2);
  });

  test.prop([positionArb], { numRuns: 300 })('adds pnlByOutcome term for term', (p) => {
    const g = new PnlGroups();
    g.add({ ...p, contingent: false });
    const v = pnlByOutcome(p);
    for (let k = 0; k < STRIDE; k++) expect(g.pnl[k], `slot ${k}`).toBe((v[k] as number) + 0); // toBe is Object.is
  });
});

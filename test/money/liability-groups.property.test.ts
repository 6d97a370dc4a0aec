import { describe, expect } from 'vitest';
import { test, fc } from '@fast-check/vitest';
import { bookKeyOf, sideIndexOf } from '../../src/markets/types.ts';
import type { Position } from '../../src/money/position.ts';
import { pnlByOutcome } from '../../src/money/grading.ts';
import { worstCaseLiability, worstCaseOfGroups, worstCaseScore } from '../../src/money/liability.ts';
import { PnlGroups, RecentRegions, STRIDE } from '../../src/money/pnl-groups.ts';
import { positionArb, selectionArb } from '../support/money-arbitraries.ts';
import { referenceWorstCaseScore } from './liability-reference.ts';

// Few distinct selections, so that positions share groups and clones share regions.
const fewSelections = fc.array(selectionArb, { minLength: 1, maxLength: 5 });
const positionsOn = (sels: readonly Position['selection'][]) =>
  fc.array(
    fc.tuple(positionArb, fc.nat({ max: sels.length - 1 })).map(([p, i]): Position => ({ ...p, selection: sels[i]! })),
    { maxLength: 24 },
  );
const positionsArb = fc.oneof(fc.array(positionArb, { maxLength: 24 }), fewSelections.chain(positionsOn));

function same(a: { liability: number; score: { home: number; away: number } }, b: typeof a): boolean {
  return Object.is(a.liability, b.liability) && Object.is(a.score.home, b.score.home) && Object.is(a.score.away, b.score.away);
}

describe('grouped worst case', () => {
  test.prop([positionsArb], { numRuns: 500 })('is the reference search, bit for bit', (ps) => {
    const want = referenceWorstCaseScore(ps);
    const got = worstCaseScore(ps);
    expect(same(got, want), `${JSON.stringify(got)} vs ${JSON.stringify(want)}`).toBe(true);
    expect(Object.is(worstCaseLiability(ps), want.liability)).toBe(true);
  });

  test.prop([positionsArb, positionsArb, positionsArb], { numRuns: 300 })('a copy keeps its groups while the set it copied grows, and the other way round', (a, b, c) => {
    const base = new PnlGroups();
    base.addAll(a);
    worstCaseOfGroups(base); // regions built, then shared by the copy
    const scratch = new PnlGroups();
    scratch.copyFrom(base);
    base.addAll(b); // new groups in the original must not reach the copy's shape
    expect(same(worstCaseOfGroups(scratch), referenceWorstCaseScore(a))).toBe(true);
    scratch.addAll(c);
    expect(same(worstCaseOfGroups(scratch), referenceWorstCaseScore([...a, ...c]))).toBe(true);
    expect(same(worstCaseOfGroups(base), referenceWorstCaseScore([...a, ...b]))).toBe(true);
  });

  test.prop([positionsArb, positionsArb, positionsArb], { numRuns: 300 })('a clone plus the rest is the whole, and neither disturbs the other', (a, b, c) => {
    const base = new PnlGroups();
    base.addAll(a);
    const first = worstCaseOfGroups(base); // regions built, then shared with the clones
    const left = base.clone();
    left.addAll(b);
    const right = base.clone();
    right.addAll(c);
    expect(same(worstCaseOfGroups(left), referenceWorstCaseScore([...a, ...b]))).toBe(true);
    expect(same(worstCaseOfGroups(right), referenceWorstCaseScore([...a, ...c]))).toBe(true);
    expect(same(worstCaseOfGroups(base), first)).toBe(true);
    // The base keeps growing after it was cloned: its clones keep what they had.
    base.addAll(b);
    expect(same(worstCaseOfGroups(base), referenceWorstCaseScore([...a, ...b]))).toBe(true);
    expect(same(worstCaseOfGroups(right), referenceWorstCaseScore([...a, ...c]))).toBe(true);
  });

  test.prop([positionsArb, positionsArb, positionsArb], { numRuns: 300 })('a reused scratch set forgets what it held', (a, b, c) => {
    const base = new PnlGroups();
    base.addAll(a);
    const scratch = new PnlGroups();
    scratch.addAll(c); // more or other groups than base, with sums of their own
    worstCaseOfGroups(scratch);
    scratch.copyFrom(base);
    scratch.addAll(b);
    expect(same(worstCaseOfGroups(scratch), referenceWorstCaseScore([...a, ...b]))).toBe(true);
    expect(same(worstCaseOfGroups(base), referenceWorstCaseScore(a))).toBe(true);
    scratch.copyFrom(base);
    scratch.addAll(c);
    expect(same(worstCaseOfGroups(scratch), referenceWorstCaseScore([...a, ...c]))).toBe(true);
  });

  test.prop([positionsArb, positionsArb], { numRuns: 300 })('lends regions only to a set with the same groups', (a, b) => {
    const recent = new RecentRegions();
    const first = new PnlGroups();
    first.addAll(a);
    expect(same(worstCaseOfGroups(first, recent), referenceWorstCaseScore(a))).toBe(true);
    const second = new PnlGroups();
    second.addAll(b);
    expect(same(worstCaseOfGroups(second, recent), referenceWorstCaseScore(b))).toBe(true);
    const again = new PnlGroups();
    again.addAll([...a].reverse());
    expect(same(worstCaseOfGroups(again, recent), referenceWorstCaseScore([...a].reverse()))).toBe(true);
  });

  test.prop([selectionArb, selectionArb], { numRuns: 500 })('merges exactly the selections of one book side', (a, b) => {
    const g = new PnlGroups();
    g.add({ selection: a, amount: 1, odds: 100, commissionRate: 0 });
    g.add({ selection: b, amount: 1, odds: 100, commissionRate: 0 });
    expect(g.size === 1).toBe(bookKeyOf(a) === bookKeyOf(b) && sideIndexOf(a) === sideIndexOf(b));
  });

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
    for (let k = 0; k < STRIDE; k++) expect(Object.is(g.pnl[k], (v[k] as number) + 0)).toBe(true);
  });
});

import { expect } from 'vitest';
import { bookKeyOf, sideIndexOf } from '../../src/markets/types.ts';
import type { Score, Selection } from '../../src/markets/types.ts';
import { dependsOnMargin, gradeIndexAt, isQuarterLine, pnlByOutcome } from '../../src/money/grading.ts';
import type { Position } from '../../src/money/position.ts';

/**
 * The straightforward worst-case search the cached and grouped one in src/money replaced,
 * kept as the reference it must match bit for bit (liability and score): backtest reports
 * are pinned to the byte, so "close" is not enough. It is src/money/liability.ts's search
 * as it stood at f60cccc, on purpose written out again: importing the region helpers from
 * score-regions.ts would make the bit-for-bit checks blind to a mistake in them.
 */

interface Group {
  readonly selection: Selection;
  /** Summed P&L by grade code (contingent parts already capped at 0). */
  readonly pnl: Float64Array;
}

function groupKey(s: Selection): string {
  return `${bookKeyOf(s)}|${sideIndexOf(s)}`;
}

/**
 * Integers around threshold `x` of a strict comparison against integer scores: x itself
 * and its neighbours when x is an integer, else floor and ceil. Between consecutive
 * critical integers no comparison against any threshold changes.
 */
function pushCritical(out: number[], x: number): void {
  if (!Number.isFinite(x)) return;
  if (Number.isInteger(x)) out.push(x - 1, x, x + 1);
  else out.push(Math.floor(x), Math.ceil(x));
}

/** Where a selection's grade can change, along d (margin) or s (total). */
function pushThresholds(out: number[], s: Selection): void {
  switch (s.type) {
    case 'moneyline':
    case 'moneyline1x2':
      pushCritical(out, 0);
      return;
    case 'spread':
    case 'total': {
      // spread: home wins the comparison when d + L > 0, away when −d + L > 0.
      const base = s.type === 'total' ? s.line : s.team === 'home' ? -s.line : s.line;
      if (isQuarterLine(s.line)) {
        pushCritical(out, base - 0.25);
        pushCritical(out, base + 0.25);
      } else {
        pushCritical(out, base);
      }
      return;
    }
  }
}

/** Sorted distinct values of `xs` that are ≥ `min`. */
function sortedUnique(xs: readonly number[], min: number): Float64Array {
  const a = Float64Array.from(xs).sort();
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i] as number;
    if (v < min) continue;
    if (n > 0 && a[n - 1] === v) continue;
    a[n++] = v;
  }
  return a.subarray(0, n);
}

/**
 * Split the integers ≥ `floor` (or all integers when `floor` is -Infinity) into regions
 * on which nothing changes: each critical integer alone, each non-empty gap between
 * consecutive ones, and the two ends. Returns [lo, hi] arrays (inclusive, ±Infinity ends).
 */
function buildRegions(crit: Float64Array, floor: number): { lo: Float64Array; hi: Float64Array; n: number } {
  const lo = new Float64Array(2 * crit.length + 2);
  const hi = new Float64Array(2 * crit.length + 2);
  let n = 0;
  if (crit.length === 0) {
    lo[0] = floor;
    hi[0] = Infinity;
    return { lo, hi, n: 1 };
  }
  const first = crit[0] as number;
  if (first - 1 >= floor) {
    lo[n] = floor;
    hi[n++] = first - 1;
  }
  for (let i = 0; i < crit.length; i++) {
    const c = crit[i] as number;
    lo[n] = c;
    hi[n++] = c;
    const next = i + 1 < crit.length ? (crit[i + 1] as number) : Infinity;
    if (next - c > 1) {
      lo[n] = c + 1;
      hi[n++] = next - 1;
    }
  }
  return { lo, hi, n };
}

/** The integer of parity `p` in [lo, hi] with the smallest |d|, or NaN when there is none. */
function closestToZero(lo: number, hi: number, p: number): number {
  const c = lo > 0 ? lo : hi < 0 ? hi : 0;
  if (Math.abs(c) % 2 === p) return c;
  if (c > 0) return c + 1 <= hi ? c + 1 : Number.NaN;
  if (c < 0) return c - 1 >= lo ? c - 1 : Number.NaN;
  return 1 <= hi ? 1 : -1 >= lo ? -1 : Number.NaN;
}

/** Smallest s ≥ max(lo, a) with s ≡ a (mod 2), or NaN when it exceeds hi. */
function smallestTotal(lo: number, hi: number, a: number): number {
  if (Number.isNaN(a)) return Number.NaN;
  let t = lo > a ? lo : a;
  if (t % 2 !== a % 2) t += 1;
  return t <= hi ? t : Number.NaN;
}

/**
 * Exact worst case over every final score, with a score where it occurs.
 *
 * P&L depends on the margin d and the total s only, and is a sum F(d) + G(s) (each
 * selection depends on one of them). Critical integers cut d and s into regions on which
 * F and G are constant; a (d-region, s-region) pair is reachable iff some integers d, s
 * in them have s ≥ |d| and s ≡ d (mod 2), and for that only the d of each parity closest
 * to zero matters.
 */
export function referenceWorstCaseScore(positions: readonly Position[]): { liability: number; score: Score } {
  // 1. Merge positions on the same selection; precompute P&L per outcome once.
  const groups = new Map<string, Group>();
  for (const p of positions) {
    const key = groupKey(p.selection);
    let g = groups.get(key);
    if (g === undefined) {
      g = { selection: p.selection, pnl: new Float64Array(5) };
      groups.set(key, g);
    }
    const v = pnlByOutcome(p);
    const cap = p.contingent === true;
    for (let k = 0; k < 5; k++) {
      const x = v[k] as number;
      g.pnl[k] = (g.pnl[k] as number) + (cap ? Math.min(0, x) : x);
    }
  }
  const marginGroups: Group[] = [];
  const totalGroups: Group[] = [];
  const dCritRaw: number[] = [];
  const sCritRaw: number[] = [];
  for (const g of groups.values()) {
    if (dependsOnMargin(g.selection)) {
      marginGroups.push(g);
      pushThresholds(dCritRaw, g.selection);
    } else {
      totalGroups.push(g);
      pushThresholds(sCritRaw, g.selection);
    }
  }

  // 2. Regions of d (all integers) and s (integers ≥ 0).
  const dReg = buildRegions(sortedUnique(dCritRaw, -Infinity), -Infinity);
  const sReg = buildRegions(sortedUnique(sCritRaw, 0), 0);

  // 3. Per d-region: the closest-to-zero d of each parity, and F.
  const nd = dReg.n;
  const dEven = new Float64Array(nd);
  const dOdd = new Float64Array(nd);
  const aEven = new Float64Array(nd);
  const aOdd = new Float64Array(nd);
  const F = new Float64Array(nd);
  for (let i = 0; i < nd; i++) {
    const lo = dReg.lo[i] as number;
    const hi = dReg.hi[i] as number;
    const e = closestToZero(lo, hi, 0);
    const o = closestToZero(lo, hi, 1);
    dEven[i] = e;
    dOdd[i] = o;
    aEven[i] = Math.abs(e);
    aOdd[i] = Math.abs(o);
    const w = Number.isNaN(e) ? o : e;
    let f = 0;
    for (const g of marginGroups) f += g.pnl[gradeIndexAt(g.selection, w, 0)] as number;
    F[i] = f;
  }

  // 4. Per s-region: G (constant on the region, evaluated at its lower end).
  const ns = sReg.n;
  const G = new Float64Array(ns);
  for (let j = 0; j < ns; j++) {
    const s = sReg.lo[j] as number;
    let gsum = 0;
    for (const g of totalGroups) gsum += g.pnl[gradeIndexAt(g.selection, 0, s)] as number;
    G[j] = gsum;
  }

  // 5. Minimise F + G over reachable pairs; feasibility is checked only for improvements.
  let found = false;
  let best = 0;
  let bestD = 0;
  let bestS = 0;
  for (let i = 0; i < nd; i++) {
    const fi = F[i] as number;
    const ae = aEven[i] as number;
    const ao = aOdd[i] as number;
    for (let j = 0; j < ns; j++) {
      const val = fi + (G[j] as number);
      if (found && !(val < best)) continue;
      const slo = sReg.lo[j] as number;
      const shi = sReg.hi[j] as number;
      const te = smallestTotal(slo, shi, ae);
      const to = smallestTotal(slo, shi, ao);
      if (Number.isNaN(te) && Number.isNaN(to)) continue;
      found = true;
      best = val;
      if (Number.isNaN(to) || te <= to) {
        bestD = dEven[i] as number;
        bestS = te;
      } else {
        bestD = dOdd[i] as number;
        bestS = to;
      }
    }
  }

  const score: Score = { home: (bestS + bestD) / 2 + 0, away: (bestS - bestD) / 2 + 0 };
  return { liability: Math.min(0, best) + 0, score };
}

/** A figure equals the reference's bit for bit (0 and -0 alike); a failure names both numbers. */
export function expectSame(got: number, reference: number, what: string): void {
  if (got !== reference) expect.fail(`${what}: ${got}, the reference search ${reference}`);
}

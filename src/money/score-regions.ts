import type { Selection } from '../markets/types.ts';
import { dependsOnMargin, gradeIndexAt, isQuarterLine } from './grading.ts';
import type { GroupShape } from './pnl-groups.ts';

/**
 * Everything of the worst-case search that depends on which selections are held but not
 * on how much: the regions of margin d and total s on which no grade changes, each
 * group's grade on each region, and the reachable (d-region, s-region) pairs with the
 * score to report for each. Positions change far more often than the set of selections,
 * so this is built once per set of groups and the search per query is sums and a minimum.
 *
 * P&L depends on d and s only, and is a sum F(d) + G(s) (each selection depends on one of
 * them). Critical integers cut d and s into regions on which F and G are constant; a
 * (d-region, s-region) pair is reachable iff some integers d, s in them have s ≥ |d| and
 * s ≡ d (mod 2), and for that only the d of each parity closest to zero matters.
 */
export interface ScoreRegions {
  /** Group indexes that depend on the margin, in group order, and on the total. */
  readonly marginGroups: readonly number[];
  readonly totalGroups: readonly number[];
  readonly nd: number;
  readonly ns: number;
  /** Grade code of margin group k on d-region i at `i * marginGroups.length + k`. */
  readonly dGrade: readonly number[];
  /** Grade code of total group k on s-region j at `j * totalGroups.length + k`. */
  readonly sGrade: readonly number[];
  /** Reachable pairs in (i, j) order, with the score (d, s) that attains each. */
  readonly pairI: readonly number[];
  readonly pairJ: readonly number[];
  readonly pairD: readonly number[];
  readonly pairS: readonly number[];
  readonly pairs: number;
  /**
   * Working space of the search (F per d-region, G per s-region), overwritten by every
   * search: kept here so a search allocates nothing. Searches never nest.
   */
  readonly F: number[];
  readonly G: number[];
}

// Plain arrays throughout, not typed ones: these are a few dozen numbers, and V8 keeps a
// typed array over 64 bytes off the heap, which costs far more to make than its contents.

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

/**
 * Sorted distinct values of `xs` (finite) that are ≥ `min`, sorted in place. Of 0 and -0
 * either may stand for both: a region's zero bound grades and scores the same either way.
 */
function sortedUnique(xs: number[], min: number): number[] {
  // Insertion sort: a few dozen values, mostly pushed in order already.
  for (let i = 1; i < xs.length; i++) {
    const v = xs[i] as number;
    let j = i - 1;
    while (j >= 0 && (xs[j] as number) > v) {
      xs[j + 1] = xs[j] as number;
      j--;
    }
    xs[j + 1] = v;
  }
  let n = 0;
  for (let i = 0; i < xs.length; i++) {
    const v = xs[i] as number;
    if (v < min) continue;
    if (n > 0 && xs[n - 1] === v) continue;
    xs[n++] = v;
  }
  xs.length = n;
  return xs;
}

/**
 * Split the integers ≥ `floor` (or all integers when `floor` is -Infinity) into regions
 * on which nothing changes: each critical integer alone, each non-empty gap between
 * consecutive ones, and the two ends. Returns [lo, hi] arrays (inclusive, ±Infinity ends).
 */
function buildRegions(crit: readonly number[], floor: number): { lo: number[]; hi: number[]; n: number } {
  const lo: number[] = [];
  const hi: number[] = [];
  if (crit.length === 0) {
    lo.push(floor);
    hi.push(Infinity);
    return { lo, hi, n: 1 };
  }
  const first = crit[0] as number;
  if (first - 1 >= floor) {
    lo.push(floor);
    hi.push(first - 1);
  }
  for (let i = 0; i < crit.length; i++) {
    const c = crit[i] as number;
    lo.push(c);
    hi.push(c);
    const next = i + 1 < crit.length ? (crit[i + 1] as number) : Infinity;
    if (next - c > 1) {
      lo.push(c + 1);
      hi.push(next - 1);
    }
  }
  return { lo, hi, n: lo.length };
}

/**
 * `x % 2`, the same number but -0 for 0 (its callers compare it with `===`, which does not
 * tell them apart): by the low bit for a non-negative int32, by `%` otherwise. `%` on a
 * double is a call into C, and a region build asks this for every pair of regions.
 */
function rem2(x: number): number {
  return (x | 0) === x && x >= 0 ? x & 1 : x % 2;
}

/** The integer of parity `p` in [lo, hi] with the smallest |d|, or NaN when there is none. */
function closestToZero(lo: number, hi: number, p: number): number {
  const c = lo > 0 ? lo : hi < 0 ? hi : 0;
  if (rem2(Math.abs(c)) === p) return c;
  if (c > 0) return c + 1 <= hi ? c + 1 : Number.NaN;
  if (c < 0) return c - 1 >= lo ? c - 1 : Number.NaN;
  return 1 <= hi ? 1 : -1 >= lo ? -1 : Number.NaN;
}

/** Smallest s ≥ max(lo, a) with s ≡ a (mod 2), or NaN when it exceeds hi. */
function smallestTotal(lo: number, hi: number, a: number): number {
  if (Number.isNaN(a)) return Number.NaN;
  let t = lo > a ? lo : a;
  if (rem2(t) !== rem2(a)) t += 1;
  return t <= hi ? t : Number.NaN;
}

export function buildScoreRegions(shape: GroupShape): ScoreRegions {
  const count = shape.selections.length;
  const margin: number[] = [];
  const total: number[] = [];
  const dCritRaw: number[] = [];
  const sCritRaw: number[] = [];
  for (let k = 0; k < count; k++) {
    const s = shape.selections[k] as Selection;
    if (dependsOnMargin(s)) {
      margin.push(k);
      pushThresholds(dCritRaw, s);
    } else {
      total.push(k);
      pushThresholds(sCritRaw, s);
    }
  }

  // Regions of d (all integers) and s (integers ≥ 0).
  const dReg = buildRegions(sortedUnique(dCritRaw, -Infinity), -Infinity);
  const sReg = buildRegions(sortedUnique(sCritRaw, 0), 0);

  // Per d-region: the closest-to-zero d of each parity, and each margin group's grade.
  const nd = dReg.n;
  const gm = margin.length;
  const dEven: number[] = [];
  const dOdd: number[] = [];
  const dGrade: number[] = [];
  for (let i = 0; i < nd; i++) {
    const lo = dReg.lo[i] as number;
    const hi = dReg.hi[i] as number;
    const e = closestToZero(lo, hi, 0);
    const o = closestToZero(lo, hi, 1);
    dEven.push(e);
    dOdd.push(o);
    const w = Number.isNaN(e) ? o : e;
    for (let k = 0; k < gm; k++) dGrade.push(gradeIndexAt(shape.selections[margin[k] as number] as Selection, w, 0));
  }

  // Per s-region: each total group's grade (constant on the region, taken at its lower end).
  const ns = sReg.n;
  const gt = total.length;
  const sGrade: number[] = [];
  for (let j = 0; j < ns; j++) {
    const s = sReg.lo[j] as number;
    for (let k = 0; k < gt; k++) sGrade.push(gradeIndexAt(shape.selections[total[k] as number] as Selection, 0, s));
  }

  // Reachable pairs, and the score of each: the smallest total of either parity.
  const pairI: number[] = [];
  const pairJ: number[] = [];
  const pairD: number[] = [];
  const pairS: number[] = [];
  for (let i = 0; i < nd; i++) {
    const e = dEven[i] as number;
    const o = dOdd[i] as number;
    const ae = Math.abs(e);
    const ao = Math.abs(o);
    for (let j = 0; j < ns; j++) {
      const slo = sReg.lo[j] as number;
      const shi = sReg.hi[j] as number;
      const te = smallestTotal(slo, shi, ae);
      const to = smallestTotal(slo, shi, ao);
      if (Number.isNaN(te) && Number.isNaN(to)) continue;
      pairI.push(i);
      pairJ.push(j);
      if (Number.isNaN(to) || te <= to) {
        pairD.push(e);
        pairS.push(te);
      } else {
        pairD.push(o);
        pairS.push(to);
      }
    }
  }

  return {
    marginGroups: margin,
    totalGroups: total,
    nd,
    ns,
    dGrade,
    sGrade,
    pairI,
    pairJ,
    pairD,
    pairS,
    pairs: pairI.length,
    F: new Array<number>(nd).fill(0),
    G: new Array<number>(ns).fill(0),
  };
}

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
 * Working lists of a build, reused by every build (builds never nest): each is written from
 * index 0 up to its own count and only grows, and what the regions keep is copied out at
 * its exact length. Grown by `push` from empty instead, every list is copied at each step
 * of its growth: several kilobytes per build, for a few hundred numbers.
 */
const work = {
  dCrit: [] as number[],
  sCrit: [] as number[],
  dLo: [] as number[],
  dHi: [] as number[],
  sLo: [] as number[],
  sHi: [] as number[],
  dEven: [] as number[],
  dOdd: [] as number[],
  dGrade: [] as number[],
  sGrade: [] as number[],
  pairI: [] as number[],
  pairJ: [] as number[],
  pairD: [] as number[],
  pairS: [] as number[],
};

/**
 * Integers around threshold `x` of a strict comparison against integer scores: x itself
 * and its neighbours when x is an integer, else floor and ceil. Between consecutive
 * critical integers no comparison against any threshold changes. Written to `out` from
 * `n`; returns the new count.
 */
function pushCritical(out: number[], n: number, x: number): number {
  if (!Number.isFinite(x)) return n;
  if (Number.isInteger(x)) {
    out[n] = x - 1;
    out[n + 1] = x;
    out[n + 2] = x + 1;
    return n + 3;
  }
  out[n] = Math.floor(x);
  out[n + 1] = Math.ceil(x);
  return n + 2;
}

/** Where a selection's grade can change, along d (margin) or s (total): written to `out` from `n`, the new count returned. */
function pushThresholds(out: number[], n: number, s: Selection): number {
  switch (s.type) {
    case 'moneyline':
    case 'moneyline1x2':
      return pushCritical(out, n, 0);
    case 'spread':
    case 'total': {
      // spread: home wins the comparison when d + L > 0, away when −d + L > 0.
      const base = s.type === 'total' ? s.line : s.team === 'home' ? -s.line : s.line;
      if (isQuarterLine(s.line)) return pushCritical(out, pushCritical(out, n, base - 0.25), base + 0.25);
      return pushCritical(out, n, base);
    }
  }
}

/**
 * The sorted distinct values of the first `count` of `xs` (finite) that are ≥ `min`, sorted
 * in place; returns how many. Of 0 and -0 either may stand for both: a region's zero bound
 * grades and scores the same either way.
 */
function sortedUnique(xs: number[], count: number, min: number): number {
  // Insertion sort: a few dozen values, mostly pushed in order already.
  for (let i = 1; i < count; i++) {
    const v = xs[i] as number;
    let j = i - 1;
    while (j >= 0 && (xs[j] as number) > v) {
      xs[j + 1] = xs[j] as number;
      j--;
    }
    xs[j + 1] = v;
  }
  let n = 0;
  for (let i = 0; i < count; i++) {
    const v = xs[i] as number;
    if (v < min) continue;
    if (n > 0 && xs[n - 1] === v) continue;
    xs[n++] = v;
  }
  return n;
}

/**
 * Split the integers ≥ `floor` (or all integers when `floor` is -Infinity) into regions
 * on which nothing changes: each critical integer alone (the first `count` of `crit`), each
 * non-empty gap between consecutive ones, and the two ends. Writes their bounds to `lo` and
 * `hi` (inclusive, ±Infinity ends) and returns how many.
 */
function buildRegions(crit: readonly number[], count: number, floor: number, lo: number[], hi: number[]): number {
  if (count === 0) {
    lo[0] = floor;
    hi[0] = Infinity;
    return 1;
  }
  let n = 0;
  const first = crit[0] as number;
  if (first - 1 >= floor) {
    lo[n] = floor;
    hi[n++] = first - 1;
  }
  for (let i = 0; i < count; i++) {
    const c = crit[i] as number;
    lo[n] = c;
    hi[n++] = c;
    const next = i + 1 < count ? (crit[i + 1] as number) : Infinity;
    if (next - c > 1) {
      lo[n] = c + 1;
      hi[n++] = next - 1;
    }
  }
  return n;
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
  const w = work;
  let dc = 0;
  let sc = 0;
  for (let k = 0; k < count; k++) {
    const s = shape.selections[k] as Selection;
    if (dependsOnMargin(s)) {
      margin.push(k);
      dc = pushThresholds(w.dCrit, dc, s);
    } else {
      total.push(k);
      sc = pushThresholds(w.sCrit, sc, s);
    }
  }

  // Regions of d (all integers) and s (integers ≥ 0).
  const nd = buildRegions(w.dCrit, sortedUnique(w.dCrit, dc, -Infinity), -Infinity, w.dLo, w.dHi);
  const ns = buildRegions(w.sCrit, sortedUnique(w.sCrit, sc, 0), 0, w.sLo, w.sHi);

  // Per d-region: the closest-to-zero d of each parity, and each margin group's grade.
  const gm = margin.length;
  const dEven = w.dEven;
  const dOdd = w.dOdd;
  const dGrade = w.dGrade;
  let n = 0;
  for (let i = 0; i < nd; i++) {
    const lo = w.dLo[i] as number;
    const hi = w.dHi[i] as number;
    const e = closestToZero(lo, hi, 0);
    const o = closestToZero(lo, hi, 1);
    dEven[i] = e;
    dOdd[i] = o;
    const d = Number.isNaN(e) ? o : e;
    for (let k = 0; k < gm; k++) dGrade[n++] = gradeIndexAt(shape.selections[margin[k] as number] as Selection, d, 0);
  }

  // Per s-region: each total group's grade (constant on the region, taken at its lower end).
  const gt = total.length;
  const sGrade = w.sGrade;
  n = 0;
  for (let j = 0; j < ns; j++) {
    const s = w.sLo[j] as number;
    for (let k = 0; k < gt; k++) sGrade[n++] = gradeIndexAt(shape.selections[total[k] as number] as Selection, 0, s);
  }

  // Reachable pairs, and the score of each: the smallest total of either parity.
  const pairI = w.pairI;
  const pairJ = w.pairJ;
  const pairD = w.pairD;
  const pairS = w.pairS;
  let q = 0;
  for (let i = 0; i < nd; i++) {
    const e = dEven[i] as number;
    const o = dOdd[i] as number;
    const ae = Math.abs(e);
    const ao = Math.abs(o);
    for (let j = 0; j < ns; j++) {
      const slo = w.sLo[j] as number;
      const shi = w.sHi[j] as number;
      const te = smallestTotal(slo, shi, ae);
      const to = smallestTotal(slo, shi, ao);
      if (Number.isNaN(te) && Number.isNaN(to)) continue;
      pairI[q] = i;
      pairJ[q] = j;
      if (Number.isNaN(to) || te <= to) {
        pairD[q] = e;
        pairS[q] = te;
      } else {
        pairD[q] = o;
        pairS[q] = to;
      }
      q++;
    }
  }

  return {
    marginGroups: margin,
    totalGroups: total,
    nd,
    ns,
    dGrade: dGrade.slice(0, nd * gm),
    sGrade: sGrade.slice(0, ns * gt),
    pairI: pairI.slice(0, q),
    pairJ: pairJ.slice(0, q),
    pairD: pairD.slice(0, q),
    pairS: pairS.slice(0, q),
    pairs: q,
    F: new Array<number>(nd).fill(0),
    G: new Array<number>(ns).fill(0),
  };
}

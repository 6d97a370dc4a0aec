import type { Score, Selection } from '../markets/types.ts';
import { EVEN_ODDS, payout, type AmericanOdds } from '../odds/american.ts';
import { fillRisk, fillWin } from './fill.ts';
import { gradeSelection, pnlOnOutcome } from './grading.ts';
import { PnlGroups, STRIDE } from './pnl-groups.ts';
import type { Position } from './position.ts';
import { buildScoreRegions, type ScoreRegions } from './score-regions.ts';

/**
 * Worst-case liability of a set of positions on one game (`getGameLiability`, exchange-api
 * §4.8): the minimum over every final score of the P&L, where matched positions settle
 * normally and contingent (resting) ones count only where they lose — an adversary fills
 * exactly the resting orders that lose at that score.
 */

/** A score where the worst case occurs, with the liability (≤ 0) it implies. */
export interface WorstCase {
  /** min(0, pnlAtScore(positions, score)); never -0. */
  readonly liability: number;
  /** A final score attaining the minimum of `pnlAtScore` over all scores. */
  readonly score: Score;
}

/** P&L of `positions` at a final `score`; contingent positions contribute min(0, pnl). */
export function pnlAtScore(positions: readonly Position[], score: Score): number {
  let total = 0;
  for (const p of positions) {
    const v = pnlOnOutcome(p, gradeSelection(p.selection, score));
    total += p.contingent === true ? Math.min(0, v) : v;
  }
  return total + 0;
}

/**
 * A lower bound must clear a limit by this much before it stands in for the exact figure:
 * the bound and the exact worst case are sums of the same terms in another order, so they
 * may differ in the last bits, never by this much.
 */
export const BOUND_MARGIN = 1e-6;

/**
 * The most one position can lose at any score (≤ 0). The worst case of a set is never
 * below the sum of its parts' worst cases (a minimum of sums is at least the sum of
 * minimums), so `worstCaseLiability(rest) + worstLoss(p)` bounds adding `p` from below:
 * when that bound already passes a limit, the exact figure passes too.
 */
export function worstLoss(position: Position): number {
  // pnlByOutcome's figures, [win, −risk, win/2, −risk/2, 0], made and compared in the same
  // order without the array and the money record: asked for every order and fill.
  const winWithoutCommission = position.amount * payout(position.odds);
  const win = fillWin(winWithoutCommission, position.commissionRate);
  const risk = fillRisk(position.amount, winWithoutCommission, position.commissionRate);
  let worst = 0;
  if (win < worst) worst = win;
  if (0 - risk < worst) worst = 0 - risk;
  if (win / 2 < worst) worst = win / 2;
  if (0 - risk / 2 < worst) worst = 0 - risk / 2;
  return worst;
}

/**
 * An order of ours as the worst case counts it while any of it may still fill: only where it
 * loses (contingent). `takerRate` is the commission it pays if it matches as a taker; 0 when
 * it can only be made (post, postArb, a remainder resting as maker). A taker matches at its
 * odds or better, and a better price wins more for the same stake, so the commission on a
 * loss, rate × min(stake, win) (feeds-and-semantics §4), can reach rate × stake whatever the
 * order's odds: such a loss is counted at stake × (1 + rate), which is what the stake loses at
 * even odds (where the win is the stake). A contingent position counts its loss only, so
 * nothing else depends on the odds it is given. The exchange simulator counts a new order
 * the same way (src/engine/accounts.ts, canAfford).
 */
export function restingPosition(selection: Selection, amount: number, odds: AmericanOdds, takerRate: number): Position {
  return takerRate > 0
    ? { selection, amount, odds: EVEN_ODDS, commissionRate: takerRate, contingent: true }
    : { selection, amount, odds, commissionRate: 0, contingent: true };
}

/** `groups.add(restingPosition(selection, amount, odds, takerRate))`, without making the position. */
export function addResting(
  groups: PnlGroups,
  selection: Selection,
  amount: number,
  odds: AmericanOdds,
  takerRate: number,
): void {
  if (takerRate > 0) groups.addMoney(selection, amount, EVEN_ODDS, takerRate, true);
  else groups.addMoney(selection, amount, odds, 0, true);
}

/** Exact worst case of `pnlAtScore` over all scores, as a number ≤ 0 (0 when nothing can lose). */
export function worstCaseLiability(positions: readonly Position[]): number {
  const groups = new PnlGroups();
  groups.addAll(positions);
  return worstCaseLiabilityOfGroups(groups);
}

/**
 * Exact worst case over every final score, with a score where it occurs (see
 * `score-regions.ts` for the search).
 */
export function worstCaseScore(positions: readonly Position[]): WorstCase {
  const groups = new PnlGroups();
  groups.addAll(positions);
  return worstCaseOfGroups(groups);
}

/**
 * `worstCaseScore` of the positions added to `groups`, in the order they were added. The
 * regions are built once per shape of groups, shared by every set of that shape.
 */
export function worstCaseOfGroups(groups: PnlGroups): WorstCase {
  const r = regionsOf(groups);
  const q = bestPair(r, groups.pnl);
  const best = pairValue(r, q);
  const d = q < 0 ? 0 : (r.pairD[q] as number);
  const s = q < 0 ? 0 : (r.pairS[q] as number);
  const score: Score = { home: (s + d) / 2 + 0, away: (s - d) / 2 + 0 };
  return { liability: Math.min(0, best) + 0, score };
}

/** `worstCaseOfGroups(groups).liability`, without making the score. */
export function worstCaseLiabilityOfGroups(groups: PnlGroups): number {
  const r = regionsOf(groups);
  return Math.min(0, pairValue(r, bestPair(r, groups.pnl))) + 0;
}

/** The P&L at pair `q` of `bestPair` (0 when there is none). */
function pairValue(r: ScoreRegions, q: number): number {
  return q < 0 ? 0 : (r.F[r.pairI[q] as number] as number) + (r.G[r.pairJ[q] as number] as number);
}

/** The regions depend only on which groups there are, in which order: built once per (interned) shape. */
function regionsOf(groups: PnlGroups): ScoreRegions {
  const shape = groups.shape;
  return (shape.regions ??= buildScoreRegions(shape));
}

/**
 * Fill `r.F` and `r.G` from `pnl` and return the index of the reachable pair with the
 * least F + G (the first of equals), or -1 when there is none. The caller re-adds F + G
 * of that pair: the same two numbers, so the same sum.
 */
function bestPair(r: ScoreRegions, pnl: readonly number[]): number {
  // F per d-region and G per s-region, each summed over its groups in group order.
  const nd = r.nd;
  const gm = r.marginGroups.length;
  const F = r.F;
  for (let i = 0; i < nd; i++) {
    let f = 0;
    for (let k = 0; k < gm; k++)
      f += pnl[(r.marginGroups[k] as number) * STRIDE + (r.dGrade[i * gm + k] as number)] as number;
    F[i] = f;
  }
  const ns = r.ns;
  const gt = r.totalGroups.length;
  const G = r.G;
  for (let j = 0; j < ns; j++) {
    let gsum = 0;
    for (let k = 0; k < gt; k++)
      gsum += pnl[(r.totalGroups[k] as number) * STRIDE + (r.sGrade[j * gt + k] as number)] as number;
    G[j] = gsum;
  }

  let found = -1;
  let best = 0;
  const pairI = r.pairI;
  const pairJ = r.pairJ;
  for (let q = 0; q < r.pairs; q++) {
    const val = (F[pairI[q] as number] as number) + (G[pairJ[q] as number] as number);
    if (found >= 0 && !(val < best)) continue;
    found = q;
    best = val;
  }
  return found;
}

import { BOUND_MARGIN, worstCaseLiability, worstCaseLiabilityOfGroups, worstLoss } from '../money/liability.ts';
import { PnlGroups } from '../money/pnl-groups.ts';
import type { Position } from '../money/position.ts';
import type { StrategyView } from '../market-model/types.ts';
import type { QuoteIntent } from './types.ts';

/**
 * Fitting intents under liability limits and the trading mode, shared by the strategies. Every verdict is the exact worstCaseLiability's
 * (≤ 0, over every final score); a lower bound only skips computing it where it cannot
 * change the verdict.
 */

/**
 * An intent as a position at its full size. Resting (`contingent`) counts it only at the
 * scores where it loses, which is the worst any partial fill of it can do; matched counts
 * it as one fill of the whole size. Our orders pay no commission: posts are makers and
 * postArb fills are commission-free.
 */
export function intentPosition(intent: QuoteIntent, contingent: boolean): Position {
  return { selection: intent.selection, amount: intent.size, odds: intent.odds, commissionRate: 0, contingent };
}

/** Sizes are money: whole cents, rounded down so a fitted size never grows past its fit. */
export function floorCents(x: number): number {
  return Math.floor(x * 100 + 1e-9) / 100;
}

/**
 * The largest size up to `size` for which `fits` holds, in whole cents when below `size`
 * (0 when none). `fits` must be monotone: true up to some size, false beyond, as it is for
 * a contingent stake, which only ever adds losses, so the worst case falls with its size.
 */
export function largestFit(size: number, fits: (size: number) => boolean): number {
  if (fits(size)) return size;
  let lo = 0;
  let hi = size;
  for (let i = 0; i < 48 && hi - lo > 1e-6; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  // hi is within a micro-unit of the exact fit: its whole cents usually still fit.
  let fit = floorCents(hi);
  if (!fits(fit)) fit = floorCents(lo);
  if (fit > 0 && !fits(fit)) fit = floorCents(fit - 0.01);
  return fit;
}

/**
 * Hard per-game limit. Walks `intents` in order (callers put the ones they want most
 * first) and keeps each at the largest size, in whole cents, for which positions plus
 * every kept intent, all resting at full size, have a worst case no worse than
 * −maxLiability — or, when the positions alone are already beyond that, no worse than the
 * positions alone (so reducing quotes survive a breach). Contingent counting makes the
 * bound hold for every combination of partial fills, hence also for all filled at once.
 * Intents that fit at less than `minSize` are dropped.
 */
export function fitUnderLimit(
  positions: readonly Position[],
  intents: readonly QuoteIntent[],
  maxLiability: number,
  minSize: number,
): QuoteIntent[] {
  if (intents.length === 0) return [];
  // The exact worst case of the positions, worked out only if some intent needs it.
  let start: number | null = null;
  // Lower bounds of the kept set's worst case (liability.ts, worstLoss): of the positions
  // (their exact figure once known), plus each kept intent's own worst loss. While they
  // clear the limit by a margin, an intent fits at full size with no exact figure.
  let positionsFloor = 0;
  for (const p of positions) positionsFloor += worstLoss(p);
  let keptLoss = 0;
  // The kept intents as positions, until the first exact check folds them into `exact`.
  const keptPositions: Position[] = [];
  const out: QuoteIntent[] = [];
  // Positions plus kept intents as P&L groups, made when the first exact check is due.
  let exact: { readonly base: PnlGroups; readonly scratch: PnlGroups } | null = null;
  for (const intent of intents) {
    // The exact check's bound is ≤ −maxLiability, so clearing −maxLiability clears it too.
    const floor = (start ?? positionsFloor) + keptLoss + worstLoss(intentPosition(intent, true));
    const limit = start === null ? -maxLiability : Math.min(-maxLiability, start);
    let size = intent.size;
    if (!(floor >= limit + BOUND_MARGIN)) {
      if (exact === null) {
        exact = { base: new PnlGroups(), scratch: new PnlGroups() };
        exact.base.addAll(positions);
        start = worstCaseLiabilityOfGroups(exact.base);
        exact.base.addAll(keptPositions);
      }
      const bound = Math.min(-maxLiability, start as number);
      const { base: b, scratch } = exact;
      // The worst case of positions + kept + the intent at size s, summed in that order
      // (so the bits of a fresh worstCaseLiability over the list): the search asks up to
      // some fifty sizes, and each copies the prepared sums instead of starting over.
      size = largestFit(intent.size, (s) => {
        scratch.copyFrom(b);
        scratch.addMoney(intent.selection, s, intent.odds, 0, true);
        return worstCaseLiabilityOfGroups(scratch) >= bound;
      });
    }
    if (!(size >= minSize) || size <= 0) continue;
    const kept = size === intent.size ? intent : { ...intent, size };
    const position = intentPosition(kept, true);
    if (exact !== null) exact.base.add(position);
    else keptPositions.push(position);
    out.push(kept);
    keptLoss += worstLoss(position);
  }
  return out;
}

/**
 * Reducing mode: keep an intent only if a fill of it lowers the worst-case liability of
 * the positions (matched at full size; the worst case is concave in the fill, so any
 * partial fill lowers it too) and, together with the intents already kept, does not
 * raise it above the starting point — so several reducing quotes cannot overshoot into
 * a new exposure when all fill.
 */
export function reducingOnly(positions: readonly Position[], intents: readonly QuoteIntent[]): QuoteIntent[] {
  const base = worstCaseLiability(positions);
  const acc: Position[] = [...positions];
  const out: QuoteIntent[] = [];
  for (const intent of intents) {
    const p = intentPosition(intent, false);
    // A bet on an unrelated market can only leave the worst case equal; the epsilon keeps
    // summation noise from passing that off as a reduction.
    if (!(worstCaseLiability([...positions, p]) > base + 1e-9)) continue;
    if (!(worstCaseLiability([...acc, p]) >= base)) continue;
    acc.push(p);
    out.push(intent);
  }
  return out;
}

/** The trading mode applied to a strategy's intents: halted quotes nothing, reducing only what reduces. */
export function applyMode(view: StrategyView, intents: readonly QuoteIntent[]): readonly QuoteIntent[] {
  switch (view.mode) {
    case 'halted':
      return [];
    case 'reducing':
      return reducingOnly(view.positions, intents);
    case 'active':
      return intents;
  }
}

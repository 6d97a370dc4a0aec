import { bookKeyOf, sideIndexOf } from '../markets/types.ts';
import { GRADE_LOSER, GRADE_WINNER, pnlByOutcome } from '../money/grading.ts';
import type { Position } from '../money/position.ts';

/**
 * Inventory of one book, in currency. `pnlIfSide[k]` is the P&L of the book's positions
 * when side k wins outright (each position graded winner or loser, so a quarter line's
 * half outcomes and pushes are treated as the full outcome: this is a skew signal, not
 * the liability, which always goes through worstCaseLiability).
 *
 * The exposure of side k is what we lose if side k loses, −pnlIfSide[1−k]; being long
 * side 0 means that exposure is the larger. `net` = exposure(0) − exposure(1)
 * = pnlIfSide[0] − pnlIfSide[1]: the number of unit-payoff binary contracts on side 0 we
 * effectively hold (a maker backing side 0 with stake A at odds o adds A × decimal(o)).
 * Positive: long side 0; negative: long side 1.
 */
export interface BookExposure {
  readonly pnlIfSide: readonly [number, number];
  readonly net: number;
}

export const NO_EXPOSURE: BookExposure = Object.freeze({ pnlIfSide: Object.freeze([0, 0]) as readonly [number, number], net: 0 });

/**
 * Every book's exposure in one pass over the positions (a strategy reads several books per
 * evaluation, and a game collects many fills); books without positions are absent.
 */
export function bookExposures(positions: readonly Position[]): ReadonlyMap<string, BookExposure> {
  const wins = new Map<string, [number, number]>();
  for (const p of positions) {
    const key = bookKeyOf(p.selection);
    let w = wins.get(key);
    if (w === undefined) wins.set(key, (w = [0, 0]));
    const v = pnlByOutcome(p);
    const onSide0 = sideIndexOf(p.selection) === 0;
    w[0] += v[onSide0 ? GRADE_WINNER : GRADE_LOSER];
    w[1] += v[onSide0 ? GRADE_LOSER : GRADE_WINNER];
  }
  const out = new Map<string, BookExposure>();
  for (const [key, [win0, win1]] of wins) out.set(key, { pnlIfSide: [win0, win1], net: win0 - win1 });
  return out;
}

export function bookExposure(positions: readonly Position[], key: string): BookExposure {
  return bookExposures(positions).get(key) ?? NO_EXPOSURE;
}

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

export const NO_EXPOSURE: BookExposure = Object.freeze({
  pnlIfSide: Object.freeze([0, 0]) as readonly [number, number],
  net: 0,
});

/** What bookExposures answers for no positions: shared, never written. */
const NO_EXPOSURES: ReadonlyMap<string, BookExposure> = new Map();

/**
 * Exposures already worked out, by positions array. The runtime hands every evaluation of
 * a (game, strategy) the same frozen array until the next fill, and a game collects many
 * fills, so the walk over them happens once per fill instead of once per evaluation. Only
 * frozen arrays are remembered: an array that can still change could not key its answer.
 */
const exposuresOf = new WeakMap<readonly Position[], ReadonlyMap<string, BookExposure>>();

/**
 * Every book's exposure in one pass over the positions (a strategy reads several books per
 * evaluation, and a game collects many fills); books without positions are absent. The
 * map and its entries may be shared between calls: read them, never write them.
 */
export function bookExposures(positions: readonly Position[]): ReadonlyMap<string, BookExposure> {
  if (positions.length === 0) return NO_EXPOSURES;
  if (!Object.isFrozen(positions)) return exposuresFrom(positions);
  let out = exposuresOf.get(positions);
  if (out === undefined) exposuresOf.set(positions, (out = exposuresFrom(positions)));
  return out;
}

function exposuresFrom(positions: readonly Position[]): ReadonlyMap<string, BookExposure> {
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
  for (const [key, w] of wins) out.set(key, Object.freeze({ pnlIfSide: Object.freeze(w), net: w[0] - w[1] }));
  return out;
}

export function bookExposure(positions: readonly Position[], key: string): BookExposure {
  return bookExposures(positions).get(key) ?? NO_EXPOSURE;
}

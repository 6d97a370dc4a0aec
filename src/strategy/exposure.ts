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
 * Positions arrays known to extend an earlier one: its exposures (those of the nearest
 * earlier array whose exposures were worked out) and how many positions those cover. The
 * exposures of such an array start from those sums and add only the positions after.
 */
const extensionOf = new WeakMap<
  readonly Position[],
  { readonly base: ReadonlyMap<string, BookExposure>; readonly from: number }
>();

/**
 * Say that frozen `next` holds the positions of frozen `prev` (the same objects, in the same
 * order) and then more: its exposures are then worked out from `prev`'s by adding the rest,
 * which sums the same terms in the same order as a pass over all of `next`. The fill ledger
 * says so of a game's positions after each fill.
 */
export function positionsExtend(next: readonly Position[], prev: readonly Position[]): void {
  if (!Object.isFrozen(next) || !Object.isFrozen(prev) || prev.length === 0) return;
  const known = exposuresOf.get(prev);
  if (known !== undefined) extensionOf.set(next, { base: known, from: prev.length });
  else {
    const earlier = extensionOf.get(prev);
    if (earlier !== undefined) extensionOf.set(next, earlier);
  }
}

/**
 * Every book's exposure in one pass over the positions (a strategy reads several books per
 * evaluation, and a game collects many fills); books without positions are absent. The
 * map and its entries may be shared between calls: read them, never write them.
 */
export function bookExposures(positions: readonly Position[]): ReadonlyMap<string, BookExposure> {
  if (positions.length === 0) return NO_EXPOSURES;
  if (!Object.isFrozen(positions)) return exposuresFrom(positions);
  let out = exposuresOf.get(positions);
  if (out === undefined) {
    const ext = extensionOf.get(positions);
    out = ext === undefined ? exposuresFrom(positions) : extendExposures(ext.base, positions, ext.from);
    exposuresOf.set(positions, out);
    extensionOf.delete(positions);
  }
  return out;
}

/**
 * `exposuresFrom(positions)` given `base`, the exposures of its first `from` positions: each
 * book's sums carry on from `base`'s with the positions after, in order (the same additions
 * in the same order, so the same figures), books keep the order they first appear in, and a
 * book no later position touches keeps `base`'s entry.
 */
function extendExposures(
  base: ReadonlyMap<string, BookExposure>,
  positions: readonly Position[],
  from: number,
): ReadonlyMap<string, BookExposure> {
  let wins: Map<string, [number, number]> | null = null;
  for (let n = from; n < positions.length; n++) {
    const p = positions[n]!;
    const key = bookKeyOf(p.selection);
    let w: [number, number] | undefined = (wins ??= new Map()).get(key);
    if (w === undefined) {
      const b = base.get(key)?.pnlIfSide;
      w = b === undefined ? [0, 0] : [b[0], b[1]];
      wins.set(key, w);
    }
    const v = pnlByOutcome(p);
    const onSide0 = sideIndexOf(p.selection) === 0;
    w[0] += v[onSide0 ? GRADE_WINNER : GRADE_LOSER];
    w[1] += v[onSide0 ? GRADE_LOSER : GRADE_WINNER];
  }
  if (wins === null) return base;
  const out = new Map(base);
  for (const [key, w] of wins) out.set(key, Object.freeze({ pnlIfSide: Object.freeze(w), net: w[0] - w[1] }));
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

import type { GradeOutcome, Score, Selection } from '../markets/types.ts';
import { fillMoney } from './fill.ts';
import type { Position } from './position.ts';

/**
 * Settlement of one selection at a final score, and the money each outcome moves.
 *
 * Everything here is a function of the margin d = home − away and the total
 * s = home + away, which is what lets `liability.ts` search all scores exactly.
 */

/** Outcome codes, index into `GRADE_OUTCOMES`. */
export const GRADE_WINNER = 0;
export const GRADE_LOSER = 1;
export const GRADE_HALF_WIN = 2;
export const GRADE_HALF_LOSS = 3;
export const GRADE_REFUNDED = 4;
export type GradeIndex = 0 | 1 | 2 | 3 | 4;

export const GRADE_OUTCOMES: readonly GradeOutcome[] = ['winner', 'loser', 'half-win', 'half-loss', 'refunded'];

/** A quarter (Asian) line: a multiple of 0.25 that is not a multiple of 0.5. */
export function isQuarterLine(line: number): boolean {
  const q = line * 4;
  // A small integer's low bit says what `q % 2` says: `%` on a double is a call into C,
  // and the worst-case search asks this for every selection on every region it builds.
  if ((q | 0) === q) return (q & 1) !== 0;
  return Number.isInteger(q) && q % 2 !== 0;
}

/**
 * Grade of a threshold bet whose "value" is `v` (positive: the backed side is ahead of
 * the line, zero: push, negative: behind). Quarter lines split the stake over v − 0.25
 * and v + 0.25.
 */
function gradeValue(v: number, quarter: boolean): GradeIndex {
  if (!quarter) return v > 0 ? GRADE_WINNER : v < 0 ? GRADE_LOSER : GRADE_REFUNDED;
  const lo = v - 0.25;
  const hi = v + 0.25;
  // Each half scores +1 / 0 / −1; the sum decides.
  const sum = (lo > 0 ? 1 : lo < 0 ? -1 : 0) + (hi > 0 ? 1 : hi < 0 ? -1 : 0);
  switch (sum) {
    case 2:
      return GRADE_WINNER;
    case 1:
      return GRADE_HALF_WIN;
    case -1:
      return GRADE_HALF_LOSS;
    case -2:
      return GRADE_LOSER;
    default:
      return GRADE_REFUNDED;
  }
}

/** Grade code of `selection` when the game ends with margin `d` (home − away) and total `s`. */
export function gradeIndexAt(selection: Selection, d: number, s: number): GradeIndex {
  switch (selection.type) {
    case 'moneyline': {
      const m = selection.team === 'home' ? d : -d;
      return m > 0 ? GRADE_WINNER : m < 0 ? GRADE_LOSER : GRADE_REFUNDED;
    }
    case 'spread': {
      const m = selection.team === 'home' ? d : -d;
      return gradeValue(m + selection.line, isQuarterLine(selection.line));
    }
    case 'total': {
      const v = selection.ou === 'over' ? s - selection.line : selection.line - s;
      return gradeValue(v, isQuarterLine(selection.line));
    }
    case 'moneyline1x2': {
      const happened = selection.outcome === 'home' ? d > 0 : selection.outcome === 'away' ? d < 0 : d === 0;
      return happened === selection.yes ? GRADE_WINNER : GRADE_LOSER;
    }
  }
}

/** Settlement outcome of a bet on `selection` at the final `score`. */
export function gradeSelection(selection: Selection, score: Score): GradeOutcome {
  const d = score.home - score.away;
  const s = score.home + score.away;
  return GRADE_OUTCOMES[gradeIndexAt(selection, d, s)] as GradeOutcome;
}

/** Whether `selection` is settled by the margin alone (else by the total alone). */
export function dependsOnMargin(selection: Selection): boolean {
  return selection.type !== 'total';
}

/**
 * Signed P&L of `position` under each outcome, indexed by grade code, at full precision:
 * [win, −risk, win/2, −risk/2, 0].
 */
export function pnlByOutcome(position: Position): [number, number, number, number, number] {
  const m = fillMoney(position.amount, position.odds, position.commissionRate);
  return [m.win, 0 - m.risk, m.win / 2, 0 - m.risk / 2, 0];
}

/** Realised P&L of `position` if it settles with `outcome` (full precision, no rounding). */
export function pnlOnOutcome(position: Position, outcome: GradeOutcome): number {
  const m = fillMoney(position.amount, position.odds, position.commissionRate);
  switch (outcome) {
    case 'winner':
      return m.win;
    case 'loser':
      return 0 - m.risk;
    case 'half-win':
      return m.win / 2;
    case 'half-loss':
      return 0 - m.risk / 2;
    case 'refunded':
      return 0;
  }
}

/** Commission charged on `position` if it settles with `outcome` (0 for makers). */
export function feeOnOutcome(position: Position, outcome: GradeOutcome): number {
  const m = fillMoney(position.amount, position.odds, position.commissionRate);
  switch (outcome) {
    case 'winner':
      return m.commissionOnWin;
    case 'loser':
      return m.commissionOnLoss;
    case 'half-win':
      return m.commissionOnWin / 2;
    case 'half-loss':
      return m.commissionOnLoss / 2;
    case 'refunded':
      return 0;
  }
}

import { feeOnOutcome, gradeSelection, pnlOnOutcome } from '../money/grading.ts';
import type { GradeOutcome, Score } from '../markets/types.ts';
import type { LedgerBet } from './bet-ledger.ts';
import type { GradeVersion } from './types.ts';

/** How a settlement decides outcomes: from a final score, or an admin refund. */
export type Verdict = { readonly kind: 'score'; readonly score: Score } | { readonly kind: 'refund' };

export function outcomeOf(bet: LedgerBet, verdict: Verdict): GradeOutcome {
  return verdict.kind === 'refund' ? 'refunded' : gradeSelection(bet.selection, verdict.score);
}

/**
 * The next grade version of a bet under `verdict`, or null when the bet's latest grade
 * already says the same (a regrade only re-publishes rows whose settlement changed).
 */
export function nextGrade(bet: LedgerBet, verdict: Verdict, seq: number, settledAt: number): GradeVersion | null {
  const outcome = outcomeOf(bet, verdict);
  const adminRefund = verdict.kind === 'refund';
  const prev = bet.grade;
  if (prev && prev.outcome === outcome && prev.adminRefund === adminRefund) return null;
  return {
    betId: bet.id,
    txID: bet.txID,
    userId: bet.userId,
    gameID: bet.gameID,
    version: prev ? prev.version + 1 : 1,
    seq,
    outcome,
    result: pnlOnOutcome(bet, outcome),
    fee: feeOnOutcome(bet, outcome),
    settledAt,
    adminRefund,
    score: verdict.kind === 'score' ? verdict.score : null,
  };
}

export function isValidScore(score: unknown): score is Score {
  if (score === null || typeof score !== 'object') return false;
  const { away, home } = score as Record<string, unknown>;
  return Number.isInteger(away) && Number.isInteger(home) && (away as number) >= 0 && (home as number) >= 0;
}

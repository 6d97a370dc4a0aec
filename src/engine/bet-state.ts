import type { FillMoney } from '../money/fill.ts';
import type { Position } from '../money/position.ts';
import type { Selection } from '../markets/types.ts';
import type { BetView, GradeVersion, WireSelection } from './types.ts';

/**
 * The engine's record of one user's side of one fill. It is its own liability position
 * (selection, amount, odds, commissionRate) and carries its money flat, so a fill costs
 * one object per side however long the bet lives.
 */
export interface BetState extends Position {
  readonly id: string;
  readonly txID: string;
  readonly userId: string;
  readonly orderId: string;
  readonly wagerRequestID: string;
  readonly gameId: string;
  readonly selection: Selection;
  readonly wire: WireSelection;
  readonly winWithoutCommission: number;
  readonly win: number;
  readonly risk: number;
  readonly commissionOnWin: number;
  readonly commissionOnLoss: number;
  readonly origin: 'offer' | 'wager';
  readonly isPostArb: boolean;
  readonly userReference: string | null;
  readonly createdAt: number;
  readonly matchedAt: number;
  grade: GradeVersion | null;
}

export function betViewOf(b: BetState): BetView {
  return {
    id: b.id,
    txID: b.txID,
    userId: b.userId,
    orderId: b.orderId,
    wagerRequestID: b.wagerRequestID,
    gameId: b.gameId,
    selection: b.selection,
    wire: b.wire,
    money: moneyOf(b),
    origin: b.origin,
    isPostArb: b.isPostArb,
    userReference: b.userReference,
    createdAt: b.createdAt,
    matchedAt: b.matchedAt,
    grade: b.grade,
  };
}

export function moneyOf(b: BetState): FillMoney {
  return {
    amount: b.amount,
    odds: b.odds,
    winWithoutCommission: b.winWithoutCommission,
    win: b.win,
    risk: b.risk,
    commissionOnWin: b.commissionOnWin,
    commissionOnLoss: b.commissionOnLoss,
  };
}

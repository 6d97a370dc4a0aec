import type { FillMoney } from '../money/fill.ts';
import type { Position } from '../money/position.ts';
import type { Selection } from '../markets/types.ts';
import type { BetView, GradeVersion, WireSelection } from './types.ts';

/** The engine's record of one user's side of one fill. */
export interface BetState {
  readonly id: string;
  readonly txID: string;
  readonly userId: string;
  readonly orderId: string;
  readonly wagerRequestID: string;
  readonly gameId: string;
  readonly selection: Selection;
  readonly wire: WireSelection;
  readonly money: FillMoney;
  readonly origin: 'offer' | 'wager';
  readonly isPostArb: boolean;
  readonly userReference: string | null;
  readonly createdAt: number;
  readonly matchedAt: number;
  /** The bet as a liability position (with the commission it pays). */
  readonly position: Position;
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
    money: b.money,
    origin: b.origin,
    isPostArb: b.isPostArb,
    userReference: b.userReference,
    createdAt: b.createdAt,
    matchedAt: b.matchedAt,
    grade: b.grade,
  };
}

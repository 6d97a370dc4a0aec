import type { AmericanOdds } from '../odds/american.ts';
import type { Selection } from '../markets/types.ts';
import type { CloseReason, OrderStatus, OrderType, OrderView, WireSelection } from './types.ts';

/** Amounts below this are float dust, not money. */
export const DUST = 1e-9;

/** The engine's mutable record of an order. Never handed out: callers get `viewOf`. */
export interface OrderState {
  readonly id: string;
  readonly wagerRequestID: string;
  readonly userId: string;
  readonly gameId: string;
  readonly selection: Selection;
  readonly wire: WireSelection;
  readonly bookKey: string;
  readonly odds: AmericanOdds;
  /** Price the book lists this order at for takers (inverse of `odds`), and its rank. */
  readonly listedOdds: AmericanOdds;
  readonly listedRank: number;
  /** Side of the book the order is listed on (the opposite of the side it backs). */
  readonly listedSide: 0 | 1;
  readonly orderType: OrderType;
  readonly bet: number;
  filled: number;
  remaining: number;
  status: OrderStatus;
  closeReason: CloseReason | null;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  gameStartExpiry: boolean;
  readonly isPostArb: boolean;
  readonly userReference: string | null;
  /** Time priority: smaller rested first. */
  readonly seq: number;
  /** When the order left `open` (0 while open); drives retention. */
  closedAt: number;
}

export function viewOf(o: OrderState): OrderView {
  return {
    id: o.id,
    wagerRequestID: o.wagerRequestID,
    userId: o.userId,
    gameId: o.gameId,
    selection: o.selection,
    wire: o.wire,
    bookKey: o.bookKey,
    odds: o.odds,
    orderType: o.orderType,
    bet: o.bet,
    filled: o.filled,
    remaining: o.remaining,
    status: o.status,
    closeReason: o.closeReason,
    createdAt: o.createdAt,
    expiresAt: o.expiresAt,
    gameStartExpiry: o.gameStartExpiry,
    isPostArb: o.isPostArb,
    userReference: o.userReference,
  };
}

import { invertOdds, oddsRank, type AmericanOdds } from '../odds/american.ts';
import type { GameExposure } from './accounts.ts';
import type { IdToken, IdTokens } from './ids.ts';
import type { PriceLevel } from './matching-book.ts';
import type { CloseReason, OrderStatus, OrderType, OrderView } from './types.ts';
import type { InternedSelection } from './wire.ts';

/** Amounts below this are float dust, not money. */
export const DUST = 1e-9;

/**
 * The engine's mutable record of an order. Never handed out: callers get `viewOf`.
 * Closed orders stay readable for the retention period, so what can be derived is not
 * stored.
 */
export interface OrderState {
  readonly id: IdToken;
  readonly wagerRequestID: IdToken;
  readonly userId: string;
  readonly gameID: string;
  /** Selection, wire spelling, book key and sides, interned per game. */
  readonly line: InternedSelection;
  readonly odds: AmericanOdds;
  readonly orderType: OrderType;
  /** Changes only when an edit lowers the volume of an unfilled order in place. */
  bet: number;
  filled: number;
  remaining: number;
  status: OrderStatus;
  closeReason: CloseReason | null;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  gameStartExpiry: boolean;
  /** Changes only through an edit. */
  userReference: string | null;
  /** Time priority: smaller rested first. */
  readonly seq: number;
  /**
   * While the order rests: its price level, its owner's exposure on the game and its index
   * in that exposure's resting list, so taking it off costs no lookups. Cleared when it
   * leaves the book: a closed order, still readable for a while, must not keep those alive.
   */
  level: PriceLevel | null;
  exposure: GameExposure | null;
  slot: number;
}

/** Compares by time priority: the order that rested first comes first. */
export function bySeq(a: OrderState, b: OrderState): number {
  return a.seq - b.seq;
}

/** Price the book lists the order at for takers: the inverse of its own odds. */
export function listedOddsOf(o: OrderState): AmericanOdds {
  return invertOdds(o.odds);
}

export function listedRankOf(o: OrderState): number {
  return oddsRank(invertOdds(o.odds));
}

export function isPostArb(o: OrderState): boolean {
  return o.orderType === 'postArb';
}

/** `id` may be passed when the caller already has the spelling. */
export function viewOf(o: OrderState, ids: IdTokens, id = ids.spell(o.id)): OrderView {
  const line = o.line;
  return {
    id,
    wagerRequestID: ids.spell(o.wagerRequestID),
    userId: o.userId,
    gameID: o.gameID,
    selection: line.selection,
    wire: line.wire,
    bookKey: line.bookKey,
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
    isPostArb: o.orderType === 'postArb',
    userReference: o.userReference,
  };
}

import { invertOdds, oddsRank, payout, type AmericanOdds } from '../odds/american.ts';
import type { GameExposure } from './accounts.ts';
import type { IdToken, IdTokens } from './ids.ts';
import type { PriceLevel } from './matching-book.ts';
import type { CloseReason, ListedOrder, OrderStatus, OrderType, OrderView } from './types.ts';
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
  /**
   * The view handed out last while open, and its listing: handed out again while the order
   * is as it was then (views are never changed, so one made earlier is the same value). A
   * side listed on every change of the book lists most of its orders unchanged. Cleared
   * when the order closes: a closed order kept for its retention holds no views.
   */
  view: OrderView | null;
  listed: ListedOrder | null;
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

/** The same number, telling 0 from -0 (a view made now would hold the one the order holds). */
const sameNumber = (a: number, b: number): boolean => a === b && (a !== 0 || 1 / a === 1 / b);

/**
 * `id` may be passed when the caller already has the spelling. The view made last is
 * handed out again while every field an order can change since is as it was (the others
 * are fixed for the order's life) and it has that spelling.
 */
export function viewOf(o: OrderState, ids: IdTokens, id?: string): OrderView {
  const last = o.view;
  if (
    last !== null &&
    last.status === o.status &&
    sameNumber(last.remaining, o.remaining) &&
    sameNumber(last.filled, o.filled) &&
    sameNumber(last.bet, o.bet) &&
    last.closeReason === o.closeReason &&
    last.gameStartExpiry === o.gameStartExpiry &&
    last.userReference === o.userReference &&
    (id === undefined || id === last.id)
  )
    return last;
  const line = o.line;
  const view: OrderView = {
    id: id ?? ids.spell(o.id),
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
  // A caller's spelling may differ from the id's own: only the own one is kept, and only
  // while the order is open (a closed one is kept for its retention, and read rarely).
  if (id === undefined && o.status === 'open') o.view = view;
  return view;
}

/** The order as its book lists it to takers: made again only with its view. */
export function listedOf(o: OrderState, ids: IdTokens): ListedOrder {
  const view = viewOf(o, ids);
  const last = o.listed;
  if (last !== null && last.order === view) return last;
  const listed: ListedOrder = { order: view, listedOdds: listedOddsOf(o), sumUntaken: o.remaining * payout(o.odds) };
  o.listed = listed;
  return listed;
}

import type { MarketType, Selection } from '../markets/types.ts';
import type { Position } from '../money/position.ts';

/**
 * The read side of the book model: immutable snapshots handed to strategies and the order
 * manager. Only the model's single writer builds them (src/market-model/market-model.ts).
 */

export interface Participants {
  readonly awayId: string;
  readonly homeId: string;
  readonly awayName: string;
  readonly homeName: string;
}

/** One resting order as the book lists it for takers (feeds-and-semantics §3). */
export interface ListedOffer {
  readonly id: string;
  /** American odds a taker gets (the maker's odds inverted). */
  readonly odds: number;
  /** The most a taker can still stake. */
  readonly sumUntaken: number;
  /** The maker's original risk. */
  readonly bet: number;
  readonly isPostArb: boolean;
  /** One of our own orders, recognised by order id. */
  readonly mine: boolean;
}

/** One side of one market line: what a taker backing `taker` can take, best price first, then oldest. */
export interface BookSide {
  readonly taker: Selection;
  readonly offers: readonly ListedOffer[];
  /**
   * The price feed's `epoch` of the last update of this side that carried one; null when
   * none has since the side was listed (from a REST snapshot, or by updates without one).
   */
  readonly epoch: number | null;
}

/** Both sides of one market line. Side 0: takers of home / over / yes; side 1: away / under / no. */
export interface MarketBook {
  /** bookKeyOf(selection): 'moneyline', 'spread:<home line>', 'total:<line>', 'moneyline1x2:<outcome>'. */
  readonly key: string;
  readonly type: MarketType;
  readonly sides: readonly [BookSide, BookSide];
}

export interface GameState {
  readonly id: string;
  readonly league: string;
  readonly sport: string;
  readonly parentGameID: string | null;
  /** Start time, ms since the epoch (NaN when unknown). */
  readonly start: number;
  readonly live: boolean;
  readonly ended: boolean;
  readonly participants: Participants;
  readonly mainHomeSpread: number | null;
  readonly mainTotal: number | null;
  readonly matchedVolume: number;
  readonly books: ReadonlyMap<string, MarketBook>;
  /** Model time of the last change to this game. */
  readonly updatedAt: number;
}

/** The per-order state machine of the order manager (src/orders). */
export type OwnOrderStatus =
  | 'pending-place'
  | 'resting'
  | 'partly-filled'
  | 'pending-cancel'
  | 'cancelled'
  | 'filled'
  | 'expired'
  | 'rejected'
  | 'unknown';

/** One of our orders, in our own (maker) view. */
export interface OwnOrder {
  /** Our id, also inside the userReference; stable from before the exchange knows the order. */
  readonly clientId: string;
  readonly userReference: string;
  /** The exchange's order id, once known. */
  readonly orderID: string | null;
  /** The strategy instance that asked for it (null: found at start-up and not ours to route). */
  readonly strategyId: string | null;
  /** The intent key it serves within its strategy and game. */
  readonly intentKey: string | null;
  readonly gameID: string;
  /** What we back. */
  readonly selection: Selection;
  /** Our American odds. */
  readonly odds: number;
  /** Our stake (risk) as placed. */
  readonly bet: number;
  /** Risk matched so far. */
  readonly filled: number;
  /** Risk still resting. */
  readonly remaining: number;
  readonly status: OwnOrderStatus;
  readonly isPostArb: boolean;
  /**
   * Sent as limit, fillAndKill or fillOrKill: what it matches on arrival is a taker's fill,
   * which pays commission (post never matches; postArb pays no taker fee). Absent: it can
   * only be made (post, postArb, and orders adopted from an earlier run, found resting).
   */
  readonly mayTake?: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  /**
   * Closed only because a REST view of the account did not list it (or a lookup found no
   * trace), not on the exchange's word: the exchange may still show it (a live delay, a
   * slow request), so positive evidence of it (the user feed, a REST listing) brings it
   * back. Cleared by any status set on evidence.
   */
  readonly closedByAbsence?: true;
}

/** One of our fills (a bet), in our own view; money as the exchange sent it. */
export interface OwnFill {
  readonly txID: string;
  readonly orderID: string;
  readonly gameID: string;
  readonly selection: Selection;
  /** Our American odds on the fill. */
  readonly odds: number;
  /** Stake without commission. */
  readonly amount: number;
  /** What we lose if it loses (with commission for a taker). */
  readonly risk: number;
  /** What we win if it wins (net of commission). */
  readonly win: number;
  readonly origin: 'offer' | 'wager';
  readonly isPostArb: boolean;
  readonly strategyId: string | null;
  readonly at: number;
}

/** active: quoting; reducing: only orders that lower worst-case liability; halted: cancels only. */
export type TradingMode = 'active' | 'reducing' | 'halted';

/** Feed-derived activity of one game, for strategies that model taker arrivals. */
export interface GameActivity {
  /** Taker fills seen on the game per minute, exponentially smoothed. */
  readonly takerArrivalsPerMinute: number;
  /** Matched volume per minute, exponentially smoothed. */
  readonly volumePerMinute: number;
}

/** The rules of the risk gate (`orders/risk-gate.ts`), by the id a refusal names. */
export type RiskRule =
  | 'invalid-order'
  | 'self-match'
  | 'halted'
  | 'reducing'
  | 'max-order-size'
  | 'max-orders-per-game'
  | 'game-liability'
  | 'total-liability';

/** An order of this strategy refused recently, by the risk checks or the exchange. */
export type Refusal =
  | (RefusalTerms & { readonly source: 'risk'; readonly reason: RiskRule })
  /** `reason`: the exchange's errorType. */
  | (RefusalTerms & { readonly source: 'exchange'; readonly reason: string });

interface RefusalTerms {
  readonly intentKey: string;
  readonly detail: string;
  readonly at: number;
}

/**
 * What a strategy sees of one game on each evaluation. Read its fields; do not spread it:
 * the own-book fields are worked out on first read (getters), and `{ ...view }` leaves
 * them out. A strategy that hands a changed view to another uses `viewWith`.
 */
export interface StrategyView {
  readonly now: number;
  readonly game: GameState;
  /** This strategy instance's live orders on the game (not yet terminal). */
  readonly orders: readonly OwnOrder[];
  /** This strategy instance's fills on the game. */
  readonly fills: readonly OwnFill[];
  /** This strategy's matched positions on the game, for liability and skew. */
  readonly positions: readonly Position[];
  /** Worst-case loss of `positions` over every score (≤ 0). */
  readonly liability: number;
  /** Worst-case loss of the whole account on the game, matched plus resting (≤ 0). */
  readonly accountLiability: number;
  readonly mode: TradingMode;
  /** Our taker commission rate (makers and postArb pay none). */
  readonly commissionRate: number;
  readonly activity: GameActivity;
  /**
   * Fair probabilities from a configured feed, when there is one: bookKey → probability
   * that side 0 (home / over / yes) wins. Strategies fall back to the book's consensus.
   */
  readonly fair: ReadonlyMap<string, number> | null;
  /** This strategy's orders on the game refused in the last minute, newest last. */
  readonly refusals: readonly Refusal[];
}

/**
 * Which orders are ours, asked game by game: `ofGame` gives the test for the game's orders,
 * or null when none of them can be ours (no order of ours on that game is known by its
 * exchange id), so a reader of a side of such a game asks nothing about each order.
 */
export interface OwnOrderIDs {
  ofGame(gameID: string): ((orderID: string) => boolean) | null;
}

import type { AmericanOdds } from '../odds/american.ts';
import type { FillMoney } from '../money/fill.ts';
import type { GradeOutcome, MarketType, Score, Selection } from '../markets/types.ts';

export const ORDER_TYPES = ['limit', 'post', 'postArb', 'fillAndKill', 'fillOrKill'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** errorType values of a failed place entry (exchange-api §7.3). */
export type PlaceErrorType = 'validation_error' | 'rejected_order_type_rules' | 'rejected_liability' | 'system_error';

export interface EngineParticipant {
  readonly id: string;
  readonly longName: string;
  readonly shortName: string;
  readonly rotationNumber?: string;
}

export interface EngineGame {
  readonly id: string;
  readonly parentGameID: string | null;
  readonly league: string;
  readonly sport: string;
  readonly eventName?: string;
  readonly tournamentName: string | null;
  readonly periodName: string;
  readonly isSpecials: boolean;
  /** Away first, then home. */
  readonly participants: readonly [EngineParticipant, EngineParticipant];
  /** Scheduled start, ms since the epoch. */
  readonly start: number;
  readonly live: boolean;
  readonly ended: boolean;
  /** Set once pre-game orders were expired (start time reached or game went live). */
  readonly started: boolean;
  readonly markets: readonly MarketType[];
  readonly score: Score | null;
}

export interface NewGame {
  readonly id: string;
  readonly parentGameID?: string | null;
  readonly league: string;
  readonly sport: string;
  readonly eventName?: string;
  readonly tournamentName?: string | null;
  readonly periodName?: string;
  readonly isSpecials?: boolean;
  readonly participants: readonly [EngineParticipant, EngineParticipant];
  readonly start: number;
  readonly live?: boolean;
  /** Defaults: soccer → moneyline1x2, spread, total; every other sport → moneyline, spread, total. */
  readonly markets?: readonly MarketType[];
}

export interface NewUser {
  readonly id: string;
  readonly balance: number;
  readonly creditLimit?: number;
  /** Taker commission rate (0.01 = 1%). */
  readonly commissionRate?: number;
}

export interface AccountView {
  readonly id: string;
  readonly balance: number;
  readonly creditLimit: number;
  readonly commissionRate: number;
  /** Σ over unsettled games of the worst-case loss counting resting orders (≤ 0). */
  readonly exposure: number;
}

/** Place input as it arrives on the wire; the engine validates every field itself. */
export interface PlaceInput {
  readonly gameID?: unknown;
  readonly type?: unknown;
  readonly side?: unknown;
  readonly market?: unknown;
  readonly odds?: unknown;
  readonly bet?: unknown;
  readonly number?: unknown;
  readonly orderType?: unknown;
  readonly expirationMinutes?: unknown;
  readonly userReference?: unknown;
}

/** The wire spelling of a selection on a given game. */
export interface WireSelection {
  readonly type: MarketType;
  /** Participant id, `over`/`under`, or `yes`/`no`. */
  readonly side: string;
  /** moneyline1x2 only: participant id or `draw`. */
  readonly market?: string;
  /** Spread or total value; null for moneylines. */
  readonly number: number | null;
}

export type OrderStatus = 'open' | 'filled' | 'cancelled' | 'expired';
export type CloseReason = 'user' | 'heartbeat' | 'expiry' | 'gameStart' | 'gameEnded' | 'fillAndKill' | 'fillOrKill';

/** Read-only view of an order. Amounts are risk in the order's own (maker) view. */
export interface OrderView {
  readonly id: string;
  readonly wagerRequestID: string;
  readonly userId: string;
  readonly gameID: string;
  readonly selection: Selection;
  readonly wire: WireSelection;
  readonly bookKey: string;
  /** Own odds (maker view). */
  readonly odds: AmericanOdds;
  readonly orderType: OrderType;
  /** Original stake. */
  readonly bet: number;
  /** Stake matched so far. */
  readonly filled: number;
  /**
   * Stake still resting while open. A cancelled or expired order keeps the amount it had
   * at that moment (cancel results report it); a filled order, or the killed remainder of
   * a fillAndKill / fillOrKill, has 0.
   */
  readonly remaining: number;
  readonly status: OrderStatus;
  readonly closeReason: CloseReason | null;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly gameStartExpiry: boolean;
  readonly isPostArb: boolean;
  readonly userReference: string | null;
}

/** A resting order as the book lists it to takers (feeds-and-semantics §3). */
export interface ListedOrder {
  readonly order: OrderView;
  /** Odds a taker receives: the inverse of the maker's own odds. */
  readonly listedOdds: AmericanOdds;
  /** Most a taker can stake against it: the maker's remaining potential win. */
  readonly sumUntaken: number;
}

/** One side of one fill. */
export interface FillSide {
  readonly userId: string;
  readonly orderID: string;
  readonly wagerRequestID: string;
  readonly selection: Selection;
  readonly wire: WireSelection;
  readonly money: FillMoney;
  readonly userReference: string | null;
  readonly orderCreatedAt: number;
}

export interface Fill {
  readonly txID: string;
  readonly gameID: string;
  readonly bookKey: string;
  readonly at: number;
  readonly isPostArb: boolean;
  /** The side that took liquidity (origin `wager`). Pays commission unless postArb. */
  readonly taker: FillSide;
  /** The resting side (origin `offer`). Pays no commission. */
  readonly maker: FillSide;
  /** The maker order's state right after this fill. */
  readonly makerOrderAfter: OrderView;
}

export interface MatchedFillResult {
  readonly amount: number;
  readonly odds: AmericanOdds;
  readonly number: number | null;
  readonly type: MarketType;
  readonly side: string;
  readonly market?: string;
  /** Order id of the matched offer on the other side. */
  readonly orderID: string;
  readonly txID: string;
  readonly wagerRequestID: string;
  readonly userReference?: string;
  readonly risk: number;
  readonly win: number;
  readonly winWithoutCommission: number;
}

export interface UnmatchedResult {
  readonly orderID: string;
  readonly wagerRequestID: string;
  readonly offered: number;
  readonly odds: AmericanOdds;
  readonly type: MarketType;
  readonly side: string;
  readonly market?: string;
  readonly number: number | null;
  readonly userReference?: string;
}

export interface PlaceSuccess {
  readonly status: 'ok';
  readonly matched: readonly MatchedFillResult[];
  readonly unmatched: UnmatchedResult | null;
  /** Set when the outcome is an edit's: what became of the edited order. */
  readonly edit?: EditSummary;
}

/**
 * An edit's effect on the order it named. `amended`: the order was unfilled and keeps its
 * id, now on the new terms (the place result's fills and remainder are its own).
 * `replaced`: it was partly filled, so it was cancelled and a new order placed for the
 * whole new volume. `original` is the edited order as it was just before the edit
 * (amended) or as it was cancelled (replaced).
 */
export interface EditSummary {
  readonly mode: 'amended' | 'replaced';
  readonly original: OrderView;
  /**
   * Amended only: whether the order kept its time priority (`kept`) or went to the back of
   * its price level (`back`), for a model of the queue that follows the engine.
   */
  readonly queue?: 'kept' | 'back';
}

export interface PlaceFailure {
  readonly status: 'error';
  readonly error: string;
  readonly errorType: PlaceErrorType;
}

/** A crossing order on a live game, waiting out its league's delay. */
export interface PlaceDelayed {
  readonly status: 'delayed';
  readonly ticket: number;
  readonly executeAt: number;
}

export type PlaceEntry = PlaceSuccess | PlaceFailure | PlaceDelayed;

/**
 * An edit request as it arrives on the wire (the exchange's editOrder body); the engine
 * validates every field itself. `orderOdds` and `orderVolume` left out or null keep the
 * order's; `orderType` and `userReference` likewise; `expiryChange` (minutes, a number or
 * a numeric string) sets a new expiry counted from the edit.
 */
export interface EditInput {
  readonly sessionID?: unknown;
  readonly orderOdds?: unknown;
  readonly orderVolume?: unknown;
  readonly orderType?: unknown;
  readonly userReference?: unknown;
  readonly expiryChange?: unknown;
  /** `true`: refuse the edit when nothing rests that the order could take (v4 editOrder). */
  readonly blockIfNoOtherSideOrders?: unknown;
}

/** Why an edit named no order it could change; rule and liability refusals are place failures. */
export type EditFailureCode = 'invalid_id' | 'not_found' | 'not_yours' | 'not_open';

export interface EditFailure extends PlaceFailure {
  /** Set when the named order could not be edited at all. */
  readonly code?: EditFailureCode;
}

export type EditSuccess = PlaceSuccess & { readonly edit: EditSummary };
export type EditEntry = EditSuccess | EditFailure | PlaceDelayed;
export type PlaceOutcome = PlaceSuccess | PlaceFailure;

export type CancelFailureCode = 'invalid_id' | 'not_found' | 'not_yours' | 'not_cancellable';

export interface CancelSuccess {
  readonly success: true;
  readonly order: OrderView;
}

export interface CancelFailure {
  readonly success: false;
  readonly code: CancelFailureCode;
  readonly reason: string;
  /** The order, when it exists and is the caller's (for example already filled). */
  readonly order?: OrderView;
}

export type CancelOutcome = CancelSuccess | CancelFailure;

export interface CancelFilter {
  readonly gameID?: string;
  readonly type?: MarketType;
  readonly side?: string;
  readonly market?: string;
}

/** A matched bet from one user's side of a fill. */
export interface BetView {
  /** Bet id. */
  readonly id: string;
  readonly txID: string;
  readonly userId: string;
  /** The user's order this bet came from. */
  readonly orderID: string;
  readonly wagerRequestID: string;
  readonly gameID: string;
  readonly selection: Selection;
  readonly wire: WireSelection;
  readonly money: FillMoney;
  readonly origin: 'offer' | 'wager';
  readonly isPostArb: boolean;
  readonly userReference: string | null;
  readonly createdAt: number;
  readonly matchedAt: number;
  readonly grade: GradeVersion | null;
}

/** One settlement of a bet. A refund or regrade appends a newer version of the same txID. */
export interface GradeVersion {
  readonly betId: string;
  readonly txID: string;
  readonly userId: string;
  readonly gameID: string;
  readonly version: number;
  /** Position in the engine's global settlement log (0-based); the cursor order. */
  readonly seq: number;
  readonly outcome: GradeOutcome;
  /** Signed P&L of the bet, full precision. */
  readonly result: number;
  readonly fee: number;
  readonly settledAt: number;
  readonly adminRefund: boolean;
  readonly score: Score | null;
}

export type GameChange = 'created' | 'updated' | 'started' | 'ended' | 'regraded' | 'refunded';

export type EngineEvent =
  | { readonly kind: 'orderPlaced'; readonly order: OrderView }
  | { readonly kind: 'orderCancelled'; readonly order: OrderView }
  | { readonly kind: 'orderExpired'; readonly order: OrderView }
  | { readonly kind: 'fill'; readonly fill: Fill }
  | { readonly kind: 'bookChanged'; readonly gameID: string; readonly bookKey: string; readonly side: 0 | 1 }
  | { readonly kind: 'gameChanged'; readonly game: EngineGame; readonly change: GameChange }
  | { readonly kind: 'betGraded'; readonly bet: BetView; readonly grade: GradeVersion }
  | {
      readonly kind: 'delayedExecuted';
      readonly ticket: number;
      readonly userId: string;
      readonly outcome: PlaceOutcome;
    }
  | { readonly kind: 'balanceChanged'; readonly userId: string; readonly balance: number };

export type EngineEventListener = (event: EngineEvent) => void;

export type GameErrorCode =
  'invalid_id' | 'duplicate_game' | 'game_not_found' | 'game_ended' | 'invalid_game' | 'game_not_ended';
export type UserErrorCode = 'duplicate_user' | 'invalid_user' | 'user_not_found';

export interface EngineError<C extends string = string> {
  readonly code: C;
  readonly message: string;
}

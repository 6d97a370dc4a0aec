import type { LinesmithError } from '../../shared/errors.ts';
import type { MatchedBet } from '../schemas/bets.ts';
import type { PlacedFill, RestingOrder, UnmatchedOrder } from '../schemas/orders.ts';

export type { MatchedBet, PlacedFill, RestingOrder, UnmatchedOrder };

export type OrderTypeName = 'limit' | 'post' | 'postArb' | 'fillAndKill' | 'fillOrKill';

/** One order to place, as exchange-api §4.5 spells it. */
export interface PlaceOrderInput {
  readonly gameID: string;
  readonly type: 'moneyline' | 'spread' | 'total' | 'moneyline1x2';
  /** Participant id, or `over`/`under`, or `yes`/`no` for moneyline1x2. */
  readonly side: string;
  /** Participant id or `draw`, for moneyline1x2. */
  readonly market?: string;
  readonly odds: number;
  readonly bet: number;
  readonly number?: number;
  readonly orderType?: OrderTypeName;
  readonly expirationMinutes?: number;
  /**
   * The client's own id of the order. The REST client fills one in when absent: it is how a
   * place whose answer was lost is looked up instead of being sent twice.
   */
  readonly userReference?: string;
}

/**
 * The outcome of one order of a batch, positional with the input, whichever gateway
 * (REST or the orders socket) carried it.
 * - `accepted`: the exchange answered; `matched` holds the fills, `resting` the remainder.
 * - `rejected`: the exchange refused this entry with an `errorType` (exchange-api §7.3).
 * - `failed`: the whole request was refused before anything ran (4xx, 429, authentication),
 *   or was withdrawn before it was sent: not placed.
 * - `recovered`: the answer was lost; the order was found by its userReference among the
 *   open orders and matched bets. `bets` are REST reads (2-decimal money).
 * - `absent`: the answer was lost and no trace was found by userReference, also after the
 *   grace period (longer than any live delay): not placed, or rejected. Safe to decide afresh.
 * - `unknown`: the answer was lost and the lookup failed too. The order may rest; reconcile
 *   before placing anything like it again.
 */
export type PlaceEntry =
  | {
      readonly status: 'accepted';
      readonly userReference: string | null;
      readonly matched: readonly PlacedFill[];
      readonly resting: RestingOrder | null;
    }
  | {
      readonly status: 'rejected';
      readonly userReference: string | null;
      readonly errorType: string;
      readonly error: string;
    }
  | { readonly status: 'failed'; readonly userReference: string | null; readonly error: LinesmithError }
  | {
      readonly status: 'recovered';
      readonly userReference: string;
      readonly resting: UnmatchedOrder | null;
      readonly bets: readonly MatchedBet[];
    }
  | { readonly status: 'absent'; readonly userReference: string; readonly reason: string }
  | { readonly status: 'unknown'; readonly userReference: string; readonly error: LinesmithError };

/** The outcome of one cancel, positional with the input ids. */
export type CancelEntry =
  | {
      readonly ok: true;
      readonly orderID: string;
      readonly odds: number | null;
      readonly filled: number;
      readonly offered: number;
      readonly remaining: number;
      readonly gameID: string | null;
      readonly userReference: string | null;
      readonly description: string | null;
    }
  /** `outcomeUnknown`: the request failed in flight; the order may or may not be cancelled. */
  | { readonly ok: false; readonly orderID: string | null; readonly reason: string; readonly outcomeUnknown?: true };

/** The cancelled original of an accepted edit, or one order of a cancel answer. */
export type CancelledOrder = Extract<CancelEntry, { ok: true }>;

/**
 * One edit of a resting order (exchange openapi `POST /session/editOrder`): new odds and the
 * whole new volume. On an unfilled order the exchange amends it in place (same order id); on
 * a partly filled one it cancels it and places a new order for all of `bet` (the fills so far
 * are not netted). Whichever it finds when the edit runs: an order hit while the edit is on
 * its way is replaced.
 */
export interface EditOrderInput {
  /** The exchange's id of the order to edit. */
  readonly orderID: string;
  readonly odds: number;
  /** The whole new volume (risk). */
  readonly bet: number;
  readonly orderType: OrderTypeName;
  /** The reference the order carries after the edit (the replacement's, when it is replaced). */
  readonly userReference: string;
  /** A new expiry, counted from the edit; absent keeps the order's. */
  readonly expirationMinutes?: number;
}

/**
 * The outcome of one edit.
 * - `accepted`: the edit ran; `original` is the order as it was before (amended) or as it was
 *   cancelled (replaced: a new order id in `resting`), `matched`/`resting` the new terms'
 *   place result.
 * - `rejected`: the exchange refused it with an `errorType`; whether the original is
 *   untouched depends on why (see `editLeavesOriginal`).
 * - `failed`: refused before anything ran (4xx, 429, authentication), or withdrawn before it
 *   was sent: the original is untouched.
 * - `unknown`: the answer was lost: the original may still rest as it was, or be amended or
 *   replaced.
 */
export type EditEntry =
  | {
      readonly status: 'accepted';
      readonly original: CancelledOrder;
      readonly matched: readonly PlacedFill[];
      readonly resting: RestingOrder | null;
    }
  | { readonly status: 'rejected'; readonly errorType: string; readonly error: string }
  | { readonly status: 'failed'; readonly error: LinesmithError }
  | { readonly status: 'unknown'; readonly error: LinesmithError };

/**
 * Refusals the exchange makes from the new terms alone (order-type rules, the account's
 * liability), before it touches the order: the original rests on as it was. Any other
 * refusal may mean the order is gone (filled, cancelled, expired).
 */
const REFUSED_ON_TERMS: ReadonlySet<string> = new Set(['rejected_order_type_rules', 'rejected_liability']);

export function editLeavesOriginal(errorType: string): boolean {
  return REFUSED_ON_TERMS.has(errorType);
}

export interface PlaceOptions {
  /**
   * Withdraws the orders while they still wait to be sent (the request budget, a login,
   * the orders socket not open yet): they are then not sent, and come back `failed` with
   * RequestAbortedError (REST) or the call throws RequestNotSentError (socket). A request
   * already sent is never pulled back.
   */
  readonly signal?: AbortSignal;
}

/**
 * What the order manager needs from a venue, implemented over REST and over the orders
 * socket alike.
 */
export interface OrderGateway {
  place(orders: readonly PlaceOrderInput[], options?: PlaceOptions): Promise<PlaceEntry[]>;
  cancel(orderIDs: readonly string[]): Promise<CancelEntry[]>;
  /**
   * Optional: edit one resting order in one request instead of a cancel and a place. A venue
   * without it is sent cancels and places. A rejection comes back as an entry; a throw is an
   * answer lost (or, with a NotSent error, a request that never left).
   */
  edit?(order: EditOrderInput, options?: PlaceOptions): Promise<EditEntry>;
  /**
   * Optional: cancel every open order of the account in one request (REST cancelAllOrders,
   * the orders socket's cancelAll); the results of the orders it cancelled. A throw: the
   * request failed, and may or may not have run.
   */
  cancelAllOfAccount?(): Promise<CancelEntry[]>;
  /** Optional: the same for one game (REST cancelAllOrdersForGame, the orders socket's cancelAllByGame). */
  cancelAllOfGame?(gameID: string): Promise<CancelEntry[]>;
  /** Arm the dead man's switch: every open order is cancelled if no heartbeat follows within `timeoutSec`. */
  heartbeat(timeoutSec: number): Promise<void>;
}

import { cancelEntryOf } from '../orders/normalise.ts';
import type { CancelEntry, OrderTypeName } from '../orders/types.ts';
import type { EditOrderResult } from '../schemas/edit.ts';
import type { PlacedFill, RestingOrder, WireCancelResult } from '../schemas/orders.ts';

/** An edit of one order (feeds-and-semantics §9). Fields left out (or null) keep the order's. */
export interface EditOrderInput {
  readonly orderID: string;
  readonly odds?: number | null;
  readonly volume?: number | null;
  readonly orderType?: OrderTypeName;
  readonly userReference?: string;
  /** A new expiry, minutes from the edit. */
  readonly expiryMinutes?: number;
  /** v4 only: refuse the edit while nothing rests that the order could take. */
  readonly blockIfNoOtherSideOrders?: boolean;
}

/**
 * What became of an edit. `edited`: the new terms' place result, and `cancelled`, the
 * original's terms as withdrawn (an unfilled order keeps its id: `unmatched.orderID` is the
 * edited order's; a partly filled one was replaced by a new order). `refused`: the exchange
 * refused it (HTTP status, reason, and errorType where the v4 endpoint names one); nothing
 * changed. `failed`: the request failed before or in flight; `outcomeUnknown` when it may
 * have been carried out (look the order up).
 */
export type EditEntry =
  | {
      readonly status: 'edited';
      readonly orderID: string;
      readonly cancelled: CancelEntry | null;
      readonly matched: readonly PlacedFill[];
      readonly unmatched: RestingOrder | null;
    }
  | {
      readonly status: 'refused';
      readonly orderID: string;
      readonly httpStatus: number;
      readonly reason: string;
      readonly errorType: string | null;
    }
  | { readonly status: 'failed'; readonly orderID: string; readonly reason: string; readonly outcomeUnknown: boolean };

/** The wire body of editOrder. */
export function editBodyOf(edit: EditOrderInput): Record<string, unknown> {
  return {
    sessionID: edit.orderID,
    orderOdds: edit.odds ?? null,
    orderVolume: edit.volume ?? null,
    ...(edit.orderType !== undefined ? { orderType: edit.orderType } : {}),
    ...(edit.userReference !== undefined ? { userReference: edit.userReference } : {}),
    ...(edit.expiryMinutes !== undefined ? { expiryChange: String(edit.expiryMinutes) } : {}),
    ...(edit.blockIfNoOtherSideOrders !== undefined ? { blockIfNoOtherSideOrders: edit.blockIfNoOtherSideOrders } : {}),
  };
}

export function editedEntryOf(orderID: string, res: EditOrderResult): EditEntry {
  const cancelled =
    res.cancelled && 'success' in res.cancelled ? cancelEntryOf(res.cancelled as WireCancelResult, orderID) : null;
  const unmatched = res.unmatched && 'orderID' in res.unmatched ? (res.unmatched as RestingOrder) : null;
  return { status: 'edited', orderID, cancelled, matched: res.matched, unmatched };
}

/**
 * A cancel by scope (all orders, a game, a league, references): the cancel results, or
 * the failure of the whole request (`outcomeUnknown` when it may have been carried out).
 */
export type ScopedCancel =
  | { readonly ok: true; readonly entries: readonly CancelEntry[] }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly httpStatus: number | null;
      readonly outcomeUnknown: boolean;
    };

import type { RestingOrder, WireCancelResult, WirePlaceEntry } from '../schemas/orders.ts';
import type { CancelEntry, PlaceEntry } from './types.ts';

/** One wire place entry (REST or socket spelling) as a PlaceEntry. */
export function placeEntryOf(wire: WirePlaceEntry, userReference: string | null): PlaceEntry {
  if ('error' in wire) {
    return {
      status: 'rejected',
      userReference,
      errorType: wire.errorType ?? wire.error_type ?? 'unknown',
      error: wire.error,
    };
  }
  const u = wire.unmatched;
  const resting = u && 'orderID' in u ? (u as RestingOrder) : null;
  return { status: 'accepted', userReference, matched: wire.matched, resting };
}

/** One wire cancel result (REST `sessionID` or socket `orderID`) as a CancelEntry. */
export function cancelEntryOf(wire: WireCancelResult, requestedId: string | null): CancelEntry {
  const orderID = wire.sessionID ?? wire.orderID ?? requestedId;
  if (!wire.success)
    return { ok: false, orderID: orderID ?? null, reason: wire.reason ?? wire.description ?? 'cancel failed' };
  return {
    ok: true,
    orderID: orderID ?? '',
    odds: wire.odds ?? null,
    filled: wire.filled ?? 0,
    offered: wire.offered ?? 0,
    remaining: wire.remaining ?? 0,
    gameID: wire.gameID ?? null,
    userReference: wire.userReference ?? null,
    description: wire.description ?? null,
  };
}

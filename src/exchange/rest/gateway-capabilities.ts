import { LinesmithError } from '../../shared/errors.ts';
import type { CancelEntry, CancelledOrder, EditEntry, EditOrderInput } from '../orders/types.ts';
import type { EditEntry as RestEditEntry, EditOrderInput as RestEditInput, ScopedCancel } from './edit-entry.ts';

/**
 * The REST client's edit and scoped cancels as the order manager's gateway capabilities
 * (OrderGateway.edit, cancelAllOfAccount, cancelAllOfGame): the same requests, their answers
 * in the gateway's terms.
 */

/** The wire edit of a gateway edit: the whole new volume, the new odds, type and reference. */
export function restEditOf(order: EditOrderInput): RestEditInput {
  return {
    orderID: order.orderID,
    odds: order.odds,
    volume: order.bet,
    orderType: order.orderType,
    userReference: order.userReference,
    ...(order.expirationMinutes !== undefined ? { expiryMinutes: order.expirationMinutes } : {}),
  };
}

/** An edit the exchange refused or that failed, as the error the gateway's entry carries. */
export class EditFailedError extends LinesmithError {
  override readonly code = 'LS_ERR_EDIT_FAILED';
}

/**
 * A REST edit's outcome as the gateway's: `edited` is accepted (an answer without the
 * original's summary says nothing of its fills: none are awaited for it, the user feed and
 * REST still book them); `refused` is rejected with its errorType (`http_<status>` where the
 * endpoint names none, which the order manager reads as "the original may be gone");
 * `failed` is failed when the request never ran, unknown when it may have.
 */
export function gatewayEditOf(e: RestEditEntry): EditEntry {
  switch (e.status) {
    case 'edited': {
      const original: CancelledOrder =
        e.cancelled !== null && e.cancelled.ok
          ? e.cancelled
          : {
              ok: true,
              orderID: e.orderID,
              odds: null,
              filled: 0,
              offered: 0,
              remaining: 0,
              gameID: null,
              userReference: null,
              description: null,
            };
      return { status: 'accepted', original, matched: e.matched, resting: e.unmatched };
    }
    case 'refused':
      return { status: 'rejected', errorType: e.errorType ?? `http_${e.httpStatus}`, error: e.reason };
    case 'failed':
      return e.outcomeUnknown
        ? { status: 'unknown', error: new EditFailedError(`editOrder: outcome unknown: ${e.reason}`) }
        : { status: 'failed', error: new EditFailedError(`editOrder: not carried out: ${e.reason}`) };
  }
}

/** The cancel results of a scoped cancel; a failed request throws (the order manager then takes every order it was sent for as unknown). */
export function cancelEntriesOf(r: ScopedCancel, what: string): CancelEntry[] {
  if (!r.ok) throw new LinesmithError(`${what}: ${r.outcomeUnknown ? 'outcome unknown' : 'refused'}: ${r.reason}`);
  return [...r.entries];
}

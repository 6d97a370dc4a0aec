import type { OwnOrder, OwnOrderStatus } from '../market-model/types.ts';
import { LinesmithError } from '../shared/errors.ts';

/** Amounts an event may correct along with the status it moves an order to. */
export interface OrderAmounts {
  readonly orderID?: string;
  readonly filled?: number;
  readonly remaining?: number;
}

/**
 * What can happen to one of our orders. Each kind names the word it stands on (our own
 * request, the exchange's answer, the user feed, a REST view) by what it says, not by where
 * it came from: the same fact from two sources is one event.
 */
export type OrderEvent =
  /** We asked the exchange to cancel it (a cancel, a sweep, or the edit that replaces it). */
  | { readonly kind: 'cancel-sent' }
  /** It never became an order: never sent, refused by the request layer, or rejected by the exchange. */
  | { readonly kind: 'refused'; readonly amounts?: OrderAmounts }
  /** It rests with nothing matched. */
  | { readonly kind: 'rests'; readonly amounts?: OrderAmounts }
  /** It rests with part of it matched. */
  | { readonly kind: 'rests-partly-filled'; readonly amounts?: OrderAmounts }
  /** A fill left some of it resting; a cancel already asked for stays asked for. */
  | { readonly kind: 'partly-filled'; readonly amounts?: OrderAmounts }
  /** Nothing of it rests any more: all of it matched. */
  | { readonly kind: 'filled'; readonly amounts?: OrderAmounts }
  /** Nothing of it rests any more: the rest was cancelled (by us, by the exchange, or nothing rested). */
  | { readonly kind: 'cancelled'; readonly amounts?: OrderAmounts }
  /** An answer was lost or refused without saying why: the exchange may or may not hold it. */
  | { readonly kind: 'outcome-unknown' }
  /** A REST view did not list it and bets of it exist: filled, by inference, which evidence may overturn. */
  | { readonly kind: 'missing-with-bets'; readonly amounts?: OrderAmounts }
  /** A REST view did not list it and no bet of it exists: cancelled, by inference, which evidence may overturn. */
  | { readonly kind: 'missing'; readonly amounts?: OrderAmounts };

export type OrderEventKind = OrderEvent['kind'];

export const ORDER_EVENT_KINDS: readonly OrderEventKind[] = [
  'cancel-sent',
  'refused',
  'rests',
  'rests-partly-filled',
  'partly-filled',
  'filled',
  'cancelled',
  'outcome-unknown',
  'missing-with-bets',
  'missing',
];

/**
 * The rows of the lifecycle: every status, and `closed-as-missing` for a cancelled or filled
 * order closed only by inference (`closedByAbsence`), which evidence may reopen.
 */
export type LifecycleState = OwnOrderStatus | 'closed-as-missing';

export const LIFECYCLE_STATES: readonly LifecycleState[] = [
  'pending-place',
  'resting',
  'partly-filled',
  'pending-cancel',
  'unknown',
  'cancelled',
  'filled',
  'expired',
  'rejected',
  'closed-as-missing',
];

/**
 * A cell of the table: the status the order moves to; `stays` for a late word on an order
 * the exchange closed (its amounts may still be corrected, its status not); `illegal` for an
 * event that cannot happen to an order in that state.
 */
export type TransitionCell = OwnOrderStatus | 'stays' | 'illegal';

/** Where each event takes an order whose status is still open, or closed only by inference. */
const OPEN: Readonly<Record<OrderEventKind, OwnOrderStatus>> = {
  'cancel-sent': 'pending-cancel',
  refused: 'rejected',
  rests: 'resting',
  'rests-partly-filled': 'partly-filled',
  'partly-filled': 'partly-filled',
  filled: 'filled',
  cancelled: 'cancelled',
  'outcome-unknown': 'unknown',
  'missing-with-bets': 'filled',
  missing: 'cancelled',
};

/** A closed order keeps its status whatever arrives late; asking to cancel it is a bug of ours. */
const CLOSED: Readonly<Record<OrderEventKind, TransitionCell>> = {
  'cancel-sent': 'illegal',
  refused: 'stays',
  rests: 'stays',
  'rests-partly-filled': 'stays',
  'partly-filled': 'stays',
  filled: 'stays',
  cancelled: 'stays',
  'outcome-unknown': 'stays',
  'missing-with-bets': 'stays',
  missing: 'stays',
};

/**
 * status × event → status. A cancel goes only to an order resting at a known id; only a
 * place still unanswered (or unknown) can be refused; a fill while a cancel is on its way
 * leaves the cancel asked for. Evidence of an open order (an answer, the user feed, a REST
 * view) otherwise stands as it comes: the sources race, and the newest word wins.
 */
export const TRANSITIONS: Readonly<Record<LifecycleState, Readonly<Record<OrderEventKind, TransitionCell>>>> = {
  'pending-place': { ...OPEN, 'cancel-sent': 'illegal' },
  resting: { ...OPEN, refused: 'illegal' },
  'partly-filled': { ...OPEN, refused: 'illegal' },
  'pending-cancel': { ...OPEN, 'cancel-sent': 'illegal', refused: 'illegal', 'partly-filled': 'pending-cancel' },
  unknown: { ...OPEN, 'cancel-sent': 'illegal' },
  cancelled: CLOSED,
  filled: CLOSED,
  expired: CLOSED,
  rejected: CLOSED,
  // Closed by inference only: any evidence of the order stands, live again if it says so.
  'closed-as-missing': { ...OPEN, 'cancel-sent': 'illegal', refused: 'illegal' },
};

/** An event the lifecycle table has no move for: a bug of ours, logged and counted, never applied. */
export class IllegalTransitionError extends LinesmithError {
  override readonly code = 'LS_ERR_ILLEGAL_TRANSITION';
  constructor(
    readonly clientId: string,
    readonly from: LifecycleState,
    readonly event: OrderEventKind,
    readonly reason: string,
  ) {
    super(`order ${clientId}: ${event} is not a transition of ${from} (${reason})`);
  }
}

export function lifecycleStateOf(o: Pick<OwnOrder, 'status' | 'closedByAbsence'>): LifecycleState {
  return o.closedByAbsence ? 'closed-as-missing' : o.status;
}

/** The cell of the table for this order and event. */
export function transitionOf(o: Pick<OwnOrder, 'status' | 'closedByAbsence'>, kind: OrderEventKind): TransitionCell {
  return TRANSITIONS[lifecycleStateOf(o)][kind];
}

/** Events that close an order by inference only. */
export function closesByAbsence(kind: OrderEventKind): boolean {
  return kind === 'missing' || kind === 'missing-with-bets';
}

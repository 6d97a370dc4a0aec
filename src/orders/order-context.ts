import type { Logger } from 'pino';
import type { MarketModel } from '../market-model/market-model.ts';
import type { OrderGateway } from '../exchange/orders/types.ts';
import type { Clock } from '../shared/clock.ts';
import { LinesmithError } from '../shared/errors.ts';
import type { IntentCooldowns } from './intent-cooldowns.ts';
import type { GatewayResult, OrderManagerNotice } from './order-messages.ts';
import type { OwnBook } from './own-book.ts';

/** The order manager's counters, one object the parts add to and the runtime reads. */
export function orderManagerStats() {
  return {
    placesSent: 0,
    cancelsSent: 0,
    placeRequests: 0,
    cancelRequests: 0,
    /** Edit requests (one order each): a re-pricing sent as one edit instead of a cancel and a place. */
    editRequests: 0,
    /** Cancel requests of every order of the account or of one game (one request each); also counted in cancelRequests. */
    sweepRequests: 0,
    riskRejected: 0,
    exchangeRejected: 0,
    postArb: 0,
    repriced: 0,
    unknown: 0,
    /** Reconciliation: orders of an earlier run adopted (at a REST reconciliation or from the user feed). */
    adopted: 0,
    /** Reconciliation: our live orders the exchange no longer listed, closed as filled or cancelled. */
    reconcileClosed: 0,
    /** Reconciliation: open orders found that linesmith did not place (counted at each reconciliation). */
    foreignFound: 0,
    /** Reconciliation: of those, how many we asked the exchange to cancel. */
    foreignCancelled: 0,
    /** Orders of ours (by reference) found open but unreadable (a total whose side a lookup could not give): cancelled. */
    unreadableCancelled: 0,
  };
}

export type OrderManagerStats = ReturnType<typeof orderManagerStats>;

/**
 * What the order manager's parts (the intent cycle, the execution events, the reconciliation)
 * share: the one own book every order state change goes through (by the lifecycle table), the
 * venue's gateway, the model of the market, the way answers and notices leave, the counters
 * and the cooldowns. One object, so each part reads the same state and none owns another's.
 */
export interface OrderContext {
  readonly own: OwnBook;
  readonly market: MarketModel;
  readonly gateway: OrderGateway;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Answers go back through the runtime's loop, never straight into state. */
  readonly deliver: (result: GatewayResult) => void;
  readonly notify: (notice: OrderManagerNotice) => void;
  readonly commissionRate: () => number;
  readonly stats: OrderManagerStats;
  readonly cooldowns: IntentCooldowns;
}

/** An error as a log line or an order's reason: a coded error with its code. */
export const errorText = (e: unknown): string =>
  e instanceof LinesmithError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);

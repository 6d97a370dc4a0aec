import type { ExchangeClient } from '../exchange/client.ts';
import type { MatchedBet, UnmatchedOrder } from '../exchange/orders/types.ts';
import type { Venue } from '../runtime/venue.ts';
import { BotCrashedError, HeartbeatHeldBackError } from './errors.ts';

/** What the soak learns from, and does to, one bot's line to the exchange. */
export interface SoakVenueControl {
  /** The runtime's view of the exchange. */
  readonly venue: Venue;
  /** The first open-order and matched-bet lists the bot read (its start-up reconciliation). */
  readonly startup: { unmatched: readonly UnmatchedOrder[] | null; bets: readonly MatchedBet[] | null };
  /** Heartbeats the bot tried to send while they were suppressed. */
  readonly suppressedHeartbeats: () => number;
  /** While true the bot's heartbeats never leave the process (each fails as not sent, as on a dead link). */
  suppressHeartbeats(on: boolean): void;
  /** From now on nothing the bot sends leaves the process: it crashed. */
  sever(): void;
}

/**
 * The ExchangeClient as the runtime's Venue, with two levers for the soak: heartbeats can
 * be held back (the bot "stops heartbeating" and the exchange's dead man's switch fires),
 * and the whole line can be severed (a crash: whatever the dead runtime still tries to send
 * is refused locally). It also keeps the bot's first REST reads of its open orders and
 * bets, which is what "the orders the restart found" means.
 */
export function soakVenue(exchange: ExchangeClient): SoakVenueControl {
  const rest = exchange.rest;
  let severed = false;
  let suppress = false;
  let suppressed = 0;
  const startup: { unmatched: readonly UnmatchedOrder[] | null; bets: readonly MatchedBet[] | null } = {
    unmatched: null,
    bets: null,
  };
  const guard = <T>(what: string, call: () => Promise<T>): Promise<T> =>
    severed ? Promise.reject(new BotCrashedError(what)) : call();
  const venue: Venue = {
    rest: {
      login: () => guard('login', () => rest.login()),
      getMe: () => guard('getMe', () => rest.getMe()),
      getOrderbook: (filter) => guard('getOrderbook', () => rest.getOrderbook(filter)),
      getUnmatched: () =>
        guard('getUnmatched', async () => {
          const u = await rest.getUnmatched();
          startup.unmatched ??= u;
          return u;
        }),
      getMatchedBets: () =>
        guard('getMatchedBets', async () => {
          const b = await rest.getMatchedBets();
          startup.bets ??= b;
          return b;
        }),
      gradedWalker: (options) => rest.gradedWalker(options),
      // The options carry the order manager's signal: a kill or halt withdraws a place still waiting to go.
      place: (orders, options) => guard('place', () => rest.place(orders, options)),
      lookupOrder: (orderID) => guard('lookupOrder', () => rest.lookupOrder(orderID)),
      cancel: (ids) => guard('cancel', () => rest.cancel(ids)),
      heartbeat: (timeoutSec) =>
        guard('heartbeat', () => {
          if (!suppress) return rest.heartbeat(timeoutSec);
          suppressed++;
          return Promise.reject(new HeartbeatHeldBackError());
        }),
    },
    orders: exchange.orders,
    priceFeed: exchange.priceFeed,
    userFeed: exchange.userFeed,
    states$: exchange.states$,
  };
  return {
    venue,
    startup,
    suppressedHeartbeats: () => suppressed,
    suppressHeartbeats: (on) => {
      suppress = on;
    },
    sever: () => {
      severed = true;
    },
  };
}

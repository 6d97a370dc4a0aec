import { Observable } from 'rxjs';
import type { OrderGateway } from '../exchange/orders/types.ts';
import type { Venue } from '../runtime/venue.ts';
import type { RuntimeProbe } from './probe.ts';

/** Places and cancels pass through unchanged; the probe notes the moment each is handed over. */
function timedGateway(g: OrderGateway, probe: RuntimeProbe): OrderGateway {
  return {
    place: (orders, options) => {
      probe.ordersSent();
      return g.place(orders, options);
    },
    cancel: (ids) => {
      probe.ordersSent();
      return g.cancel(ids);
    },
    heartbeat: (timeoutSec) => g.heartbeat(timeoutSec),
    // The optional capabilities pass through as the venue has them: a missing one stays missing.
    ...(g.edit
      ? {
          edit: (
            order: Parameters<NonNullable<OrderGateway['edit']>>[0],
            options?: Parameters<NonNullable<OrderGateway['edit']>>[1],
          ) => {
            probe.ordersSent();
            return g.edit!(order, options);
          },
        }
      : {}),
    ...(g.cancelAllOfAccount
      ? {
          cancelAllOfAccount: () => {
            probe.ordersSent();
            return g.cancelAllOfAccount!();
          },
        }
      : {}),
    ...(g.cancelAllOfGame
      ? {
          cancelAllOfGame: (gameID: string) => {
            probe.ordersSent();
            return g.cancelAllOfGame!(gameID);
          },
        }
      : {}),
  };
}

/** Each value is announced to the probe before its subscriber sees it (and, with `after`, once the subscriber returned). */
function watched<T>(source: Observable<T>, before: (value: T) => void, after?: () => void): Observable<T> {
  return new Observable<T>((subscriber) =>
    source.subscribe({
      next: (value) => {
        before(value);
        try {
          subscriber.next(value);
        } finally {
          after?.();
        }
      },
      error: (err: unknown) => subscriber.error(err),
      complete: () => subscriber.complete(),
    }),
  );
}

/**
 * The same venue with measurement points: price and user events are timed as they enter
 * the runtime (its loop runs synchronously inside the subscriber), places and cancels as
 * they leave it. Nothing is changed, delayed or reordered, and the runtime does not know.
 */
export function instrumentVenue(venue: Venue, probe: RuntimeProbe): Venue {
  const { rest, orders, priceFeed, userFeed } = venue;
  return {
    rest: {
      ...timedGateway(rest, probe),
      login: () => rest.login(),
      getMe: () => rest.getMe(),
      getOrderbook: (filter) => rest.getOrderbook(filter),
      getUnmatched: () => rest.getUnmatched(),
      getMatchedBets: () => rest.getMatchedBets(),
      gradedWalker: (options) => rest.gradedWalker(options),
      ...(rest.lookupOrder ? { lookupOrder: (orderID: string) => rest.lookupOrder!(orderID) } : {}),
    },
    orders: { ...timedGateway(orders, probe), start: () => orders.start() },
    priceFeed: {
      events$: watched(
        priceFeed.events$,
        (e) => probe.priceIn(e),
        () => probe.priceDone(),
      ),
      subscribe: (selection, options) => priceFeed.subscribe(selection, options),
      start: () => priceFeed.start(),
    },
    userFeed: {
      events$: watched(userFeed.events$, () => probe.userIn()),
      recovering$: userFeed.recovering$,
      start: () => userFeed.start(),
    },
    states$: venue.states$,
  };
}

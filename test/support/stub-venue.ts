import { asyncScheduler, BehaviorSubject, NEVER, of, Subject } from 'rxjs';
import type { AccountSnapshot, ConnectionStates } from '../../src/exchange/client.ts';
import type { OrderGateway } from '../../src/exchange/orders/types.ts';
import { GradedWalker } from '../../src/exchange/rest/graded-walker.ts';
import type { OrderbookGame } from '../../src/exchange/schemas/exchange.ts';
import type { PriceFeedEvent } from '../../src/exchange/schemas/price-feed.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import type { UserFeedEvent } from '../../src/exchange/socket/user-feed-events.ts';
import type { Venue } from '../../src/runtime/venue.ts';
import { silentLogger } from '../../src/shared/logger.ts';

/**
 * A Runtime's exchange without a network, for tests and benchmarks (bench/ imports this
 * too): games as getOrderbook (v2) lists them, and a venue that answers at once.
 */

export interface Team {
  readonly id: string;
  readonly longName: string;
  readonly shortName: string;
}

/** One offer on a moneyline: `size` backs `team` at `odds`, none of it taken yet. */
export interface MoneylineOffer {
  readonly id: string;
  readonly team: 'home' | 'away';
  readonly odds: number;
  readonly size: number;
}

/** A pre-game NBA game with offers on its moneyline only; every other book is empty. */
export function moneylineGame(g: {
  readonly id: string;
  readonly start: string;
  readonly away: Team;
  readonly home: Team;
  readonly offers: readonly MoneylineOffer[];
}): OrderbookGame {
  const offers = (team: 'home' | 'away') =>
    g.offers
      .filter((o) => o.team === team)
      .map((o) => ({
        id: o.id,
        type: 'moneyline',
        sumUntaken: o.size,
        odds: o.odds,
        bet: o.size,
        gameID: g.id,
        participantID: g[team].id,
      }));
  return {
    id: g.id,
    league: 'NBA',
    sport: 'basketball',
    live: false,
    ended: false,
    start: g.start,
    participants: [
      { ...g.away, homeAway: 'away' },
      { ...g.home, homeAway: 'home' },
    ],
    homeMoneylines: offers('home'),
    awayMoneylines: offers('away'),
    homeSpreads: [],
    awaySpreads: [],
    over: [],
    under: [],
    homeMoneylines1x2: [],
    awayMoneylines1x2: [],
    draw1x2: [],
  } as OrderbookGame;
}

const OPEN: SocketState = { status: 'open', attempt: 0, lastError: null, since: 0, connection: 1, retryInMs: null };

/** A gateway that accepts every call and answers none of its orders. */
const idleGateway: OrderGateway = { place: async () => [], cancel: async () => [], heartbeat: async () => {} };

/**
 * A venue whose REST calls answer at once: a login, an account at 1% commission, `games` as
 * the order book, no open orders, bets or graded rows. Places and cancels go to `gateway`
 * (over REST and the orders socket alike). Every socket is open; the price feed carries what
 * the caller pushes into `prices`, the user feed nothing.
 */
export function stubVenue(o: { readonly games: readonly OrderbookGame[]; readonly gateway?: OrderGateway }): {
  venue: Venue;
  prices: Subject<PriceFeedEvent>;
} {
  const gateway = o.gateway ?? idleGateway;
  const prices = new Subject<PriceFeedEvent>();
  const venue: Venue = {
    rest: {
      ...gateway,
      login: async () => ({}),
      getMe: async () => ({ id: 'u', username: 'stub', displayBalance: 1e9, commissionCharged: 0.01 }),
      getOrderbook: async () => [...o.games],
      getUnmatched: async () => [],
      getMatchedBets: async () => [],
      gradedWalker: () =>
        new GradedWalker(
          async () => ({ graded: [], hasMore: false, cursor: 'c', settledThrough: new Date(0).toISOString() }),
          { scheduler: asyncScheduler, logger: silentLogger(), pollMs: 3_600_000 },
        ),
    },
    orders: { ...gateway, start: () => undefined },
    priceFeed: { events$: prices, subscribe: () => undefined, start: () => undefined },
    userFeed: {
      events$: NEVER as unknown as Subject<UserFeedEvent<AccountSnapshot>>,
      recovering$: of(false),
      start: () => undefined,
    },
    states$: new BehaviorSubject<ConnectionStates>({ price: OPEN, user: OPEN, orders: OPEN }),
  };
  return { venue, prices };
}

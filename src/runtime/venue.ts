import type { Observable } from 'rxjs';
import type { AccountSnapshot, ConnectionStates } from '../exchange/client.ts';
import type { MatchedBet, OrderGateway, UnmatchedOrder } from '../exchange/orders/types.ts';
import type { GradedWalker } from '../exchange/rest/graded-walker.ts';
import type { OrderbookGame } from '../exchange/schemas/exchange.ts';
import type { LookupOrder } from '../exchange/schemas/orders.ts';
import type { PriceFeedEvent } from '../exchange/schemas/price-feed.ts';
import type { Me } from '../exchange/schemas/user.ts';
import type { PriceSelection } from '../exchange/socket/price-subscriptions.ts';
import type { UserFeedEvent } from '../exchange/socket/user-feed-events.ts';

/**
 * Everything the runtime needs from an exchange. ExchangeClient is one (live, and paper
 * against the simulator); a backtest's simulated venue or a benchmark harness is another.
 * The runtime never learns which.
 *
 * The boundary is typed: requests go out as the gateway's inputs, and answers and events
 * come back as domain values (gateway entries, classified user-feed events, price-feed
 * events). ExchangeClient is the wire adapter that parses and classifies the exchange's
 * payloads into them; the simulated venue builds them from its engine replica directly.
 */
export interface Venue {
  readonly rest: OrderGateway & {
    login(): Promise<unknown>;
    getMe(): Promise<Me>;
    getOrderbook(filter: { league: string } | { gameID: string }): Promise<OrderbookGame[]>;
    getUnmatched(): Promise<UnmatchedOrder[]>;
    getMatchedBets(): Promise<MatchedBet[]>;
    gradedWalker(options: { since?: string }): GradedWalker;
    /**
     * One order as the exchange has it (exchange-api §4.9). Start-up reads the side of each
     * total it adopts here (see totalSidesOf); a venue without it adopts no totals.
     */
    lookupOrder?(orderID: string): Promise<LookupOrder>;
  };
  readonly orders: OrderGateway & { start(): unknown };
  readonly priceFeed: {
    readonly events$: Observable<PriceFeedEvent>;
    subscribe(selection: PriceSelection, options?: { readonly replace?: boolean }): void;
    start(): unknown;
  };
  readonly userFeed: {
    readonly events$: Observable<UserFeedEvent<AccountSnapshot>>;
    /** True while the feed may be missing messages (a replay or a reconciliation is under way): the runtime does not quote meanwhile. */
    readonly recovering$: Observable<boolean>;
    start(): unknown;
  };
  readonly states$: Observable<ConnectionStates>;
}

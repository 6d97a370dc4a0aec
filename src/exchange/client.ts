import type { Logger } from 'pino';
import { combineLatest, map, type Observable, type SchedulerLike } from 'rxjs';
import { systemClock, type Clock } from '../shared/clock.ts';
import type { CredentialsProvider } from './auth/credentials.ts';
import type { TokenStore } from './auth/token-store.ts';
import type { ExchangeUrls } from './http/urls.ts';
import type { MatchedBet, UnmatchedOrder } from './orders/types.ts';
import { ExchangeRestClient, type RestClientOptions } from './rest/rest-client.ts';
import type { RequestBudget } from './rest/request-budget.ts';
import type { SocketState, SocketTuning } from './socket/managed-socket.ts';
import { OrdersSocketClient } from './socket/orders-socket-client.ts';
import { PriceFeedClient } from './socket/price-feed-client.ts';
import { UserFeedClient } from './socket/user-feed-client.ts';
import { openOrdersThenBets } from './rest/open-orders-then-bets.ts';

/** What the user feed's reconciliation reads when its replay cache expired: the REST truth. */
export interface AccountSnapshot {
  readonly unmatched: readonly UnmatchedOrder[];
  readonly matchedBets: readonly MatchedBet[];
  /** Clock time the snapshot was requested: anything of ours that changed since is newer than it. */
  readonly asOf?: number;
}

export interface ExchangeClientOptions {
  readonly baseUrl?: string;
  readonly urls?: ExchangeUrls;
  readonly credentials: CredentialsProvider;
  readonly tokenStore?: TokenStore | null;
  readonly budget?: RequestBudget;
  readonly clock?: Clock;
  readonly scheduler?: SchedulerLike;
  readonly logger?: Logger;
  /** The user feed's persisted cursor, so a restarted process replays what it missed. */
  readonly userFeedCursor?: string | null;
  /** Everything else of the REST client. */
  readonly rest?: Partial<Omit<RestClientOptions, 'baseUrl' | 'urls' | 'credentials'>>;
  /** Ping, backoff and timeouts of the three sockets. */
  readonly sockets?: Omit<SocketTuning, 'scheduler' | 'clock' | 'logger'>;
  readonly ordersRequestTimeoutMs?: number;
}

/** Where each connection stands, for the runtime to pull quotes when a feed is down. */
export interface ConnectionStates {
  readonly price: SocketState;
  readonly user: SocketState;
  readonly orders: SocketState;
}

/**
 * The whole exchange, wired: one REST client owning the token, the price feed, the user
 * feed (reconciling through REST when its replay cache expired), and the orders socket
 * (recovering lost places through REST, with the same userReference generator). Sockets
 * connect on `start()`.
 */
export class ExchangeClient {
  readonly rest: ExchangeRestClient;
  readonly priceFeed: PriceFeedClient;
  readonly userFeed: UserFeedClient<AccountSnapshot>;
  readonly orders: OrdersSocketClient;
  readonly states$: Observable<ConnectionStates>;

  constructor(options: ExchangeClientOptions) {
    const shared = {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.scheduler ? { scheduler: options.scheduler } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    };
    this.rest = new ExchangeRestClient({
      ...options.rest,
      ...shared,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.urls ? { urls: options.urls } : {}),
      credentials: options.credentials,
      tokenStore: options.tokenStore ?? null,
      ...(options.budget ? { budget: options.budget } : {}),
    });
    const tokens = this.rest.session;
    const now = (): number => (options.clock ?? options.scheduler ?? systemClock).now();
    const tuning = { ...options.sockets, ...shared };
    this.priceFeed = new PriceFeedClient({ ...tuning, streamingUrl: this.rest.urls.streaming, tokens });
    this.userFeed = new UserFeedClient<AccountSnapshot>({
      ...tuning,
      streamingUrl: this.rest.urls.streaming,
      tokens,
      cursor: options.userFeedCursor ?? null,
      reconcile: async () => {
        const asOf = now();
        // Open orders before bets, never side by side: see openOrdersThenBets.
        const { unmatched, bets: matchedBets } = await openOrdersThenBets(this.rest);
        return { unmatched, matchedBets, asOf };
      },
    });
    this.orders = new OrdersSocketClient({
      ...tuning,
      ordersUrl: this.rest.urls.orders,
      tokens,
      references: this.rest.references,
      recoverPlace: (orders, cause) => this.rest.recoverPlace(orders, cause),
      ...(options.ordersRequestTimeoutMs !== undefined ? { requestTimeoutMs: options.ordersRequestTimeoutMs } : {}),
    });
    this.states$ = combineLatest([this.priceFeed.state$, this.userFeed.state$, this.orders.state$]).pipe(
      map(([price, user, orders]) => ({ price, user, orders })),
    );
  }

  /** Log in (fails fast on bad credentials), then open the three sockets. */
  async start(): Promise<void> {
    await this.rest.login();
    this.priceFeed.start();
    this.userFeed.start();
    this.orders.start();
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.priceFeed.close(), this.userFeed.close(), this.orders.close()]);
    await this.rest.close();
  }
}

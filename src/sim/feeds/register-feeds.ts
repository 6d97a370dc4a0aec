import type { RegisterDeps } from '../register.ts';
import { FeedHub } from './connections.ts';
import { OrdersSocket } from './orders-socket.ts';
import { PriceFeed } from './price-feed.ts';
import { UserFeed } from './user-feed.ts';

export const PRICE_FEED_PATH = '/price-stream';
export const USER_FEED_PATH = '/v2/user';
export const ORDERS_SOCKET_PATH = '/orders/ws';
export const USER_FEED_REPLAY_PATH = '/v2/user/messages';

/**
 * Mount the three sockets (price feed, user feed, orders) and the user-feed replay route.
 * They share one hub for liveness and the socket faults; everything closes with the
 * simulator.
 */
export function registerFeeds(deps: RegisterDeps): void {
  const { ctx, router, sockets } = deps;
  const hub = new FeedHub(ctx);
  const price = new PriceFeed(ctx, hub);
  const user = new UserFeed(ctx, hub);
  const orders = new OrdersSocket(ctx, hub);
  sockets.set(PRICE_FEED_PATH, (ws, s) => price.attach(ws, s.user));
  sockets.set(USER_FEED_PATH, (ws, s) => user.attach(ws, s.user));
  sockets.set(ORDERS_SOCKET_PATH, (ws, s) => orders.attach(ws, s.user));
  router.add('GET', USER_FEED_REPLAY_PATH, 'feed', (req) => user.replay(req));
  ctx.hooks.onClose.push(() => {
    price.close();
    user.close();
    hub.close();
  });
}

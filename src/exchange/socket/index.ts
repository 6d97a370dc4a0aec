export { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from '../../shared/backoff.ts';
export {
  ManagedSocket,
  type ManagedSocketOptions,
  type SocketState,
  type SocketStats,
  type SocketStatus,
  type SocketTuning,
} from './managed-socket.ts';
export { compareMessageIds, MessageCursor, parseMessageId, type MessageId } from './message-id.ts';
export {
  OrdersSocketClient,
  ORDERS_SOCKET_PATH,
  type CancelAllByGameFilter,
  type OrdersSocketClientOptions,
  type OrdersSocketStats,
  type RecoverPlace,
} from './orders-socket-client.ts';
export { RequestNotSentError } from './pending-requests.ts';
export {
  PriceFeedClient,
  PRICE_FEED_PATH,
  type PriceFeedClientOptions,
  type PriceFeedStats,
} from './price-feed-client.ts';
export { createPriceFrameParser, type PriceFrameOutcome, type PriceParseMode } from './price-parse.ts';
export { PriceSubscriptions, type PriceSelection, type PriceSubscriptionSnapshot } from './price-subscriptions.ts';
export { UserFeedClient, USER_FEED_PATH, type UserFeedClientOptions, type UserFeedStats } from './user-feed-client.ts';
export {
  classifyMessage,
  type MessageSource,
  type UserFeedEvent,
  type UserFeedGapWarning,
  type UserFeedMessageEvent,
  type UserFeedReconcileEvent,
} from './user-feed-events.ts';
export { fetchReplay, USER_FEED_REPLAY_PATH } from './user-feed-replay.ts';

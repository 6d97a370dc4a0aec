import type { FeedMatched, FeedUnmatched, UserFeedMessage } from '../schemas/user-feed.ts';

/** Where a processed message came from: the socket, or `GET /v2/user/messages`. */
export type MessageSource = 'live' | 'replay';

interface FromMessage {
  readonly messageID: string;
  readonly message: UserFeedMessage;
  readonly source: MessageSource;
}

/** One user-feed message, classified (feeds-and-semantics §5). */
export type UserFeedMessageEvent =
  | (FromMessage & { readonly type: 'orderPlaced'; readonly order: FeedUnmatched })
  | (FromMessage & { readonly type: 'orderCancelled'; readonly order: FeedUnmatched })
  /** You took liquidity (`origin` `wager`). */
  | (FromMessage & { readonly type: 'takerFill'; readonly fill: FeedMatched })
  /** Your resting order was hit; `partial` while `remaining > 0`. */
  | (FromMessage & {
      readonly type: 'makerFill';
      readonly fill: FeedMatched;
      readonly order: FeedUnmatched;
      readonly partial: boolean;
    })
  /** Fits none of the contract's cases; passed on rather than dropped. */
  | (FromMessage & { readonly type: 'unclassified' });

/**
 * Why the feed could not guarantee completeness: the replay cache no longer reached back
 * to the cursor, or there was no cursor to replay from. REST reconciliation follows.
 */
export interface UserFeedGapWarning {
  readonly type: 'gapWarning';
  readonly reason: 'cache_expired' | 'no_cursor';
  /** The cursor the replay was asked from (null for no_cursor). */
  readonly cursor: string | null;
  /** How many messages the expired replay still had (processed before this warning). */
  readonly availableMessages: number;
}

export type UserFeedReconcileEvent<R> =
  | { readonly type: 'reconciled'; readonly reason: UserFeedGapWarning['reason']; readonly result: R }
  /** The client tries again after `retryInMs` (it keeps trying until one succeeds or it is closed). */
  | {
      readonly type: 'reconcileFailed';
      readonly reason: UserFeedGapWarning['reason'];
      readonly error: Error;
      readonly retryInMs: number;
    };

export type UserFeedEvent<R = unknown> = UserFeedMessageEvent | UserFeedGapWarning | UserFeedReconcileEvent<R>;

/**
 * Each event is spelled out whole rather than spread from a common base: a backtest
 * classifies every message of ours, and a spread costs more than a literal.
 */
export function classifyMessage(message: UserFeedMessage, source: MessageSource): UserFeedMessageEvent {
  const { matched, unmatched, messageID } = message;
  if (matched && unmatched)
    return {
      messageID,
      message,
      source,
      type: 'makerFill',
      fill: matched,
      order: unmatched,
      partial: unmatched.remaining > 0,
    };
  if (matched) return { messageID, message, source, type: 'takerFill', fill: matched };
  if (unmatched) {
    if (unmatched.offered === 0) return { messageID, message, source, type: 'orderCancelled', order: unmatched };
    if (unmatched.filled === 0 && unmatched.offered > 0)
      return { messageID, message, source, type: 'orderPlaced', order: unmatched };
  }
  return { messageID, message, source, type: 'unclassified' };
}

import { z } from 'zod';
import { Id, IsoString, Odds, opt } from './common.ts';

/**
 * User feed envelopes (feeds-and-semantics §5) and the replay answer of
 * `GET /v2/user/messages`. Money fields are required: a fill is booked from `risk` and
 * `win` as sent, never one derived from the other.
 */

/** What both halves of an envelope say about the order: its ids, price and side, in the receiver's view. */
const orderFields = {
  orderID: Id,
  wagerRequestID: opt(z.string()),
  odds: Odds,
  type: z.string(),
  side: z.string(),
  number: opt(z.number()),
  market: opt(z.string()),
  userReference: opt(z.string()),
  isPostArb: opt(z.boolean()),
};

/** A fill from the receiver's perspective. */
export const FeedMatched = z.object({
  txID: Id,
  ...orderFields,
  /** Stake without commission. */
  amount: z.number(),
  /** With commission on a loss, for a taker. */
  risk: z.number(),
  /** Net of commission, for a taker. */
  win: z.number(),
});
export type FeedMatched = z.output<typeof FeedMatched>;

/**
 * A resting order, maker view. `filled` is this event's matched risk on a fill and the
 * cumulative matched risk on a cancel; `remaining` is running state.
 */
export const FeedUnmatched = z.object({
  ...orderFields,
  filled: z.number(),
  offered: z.number(),
  remaining: z.number(),
});
export type FeedUnmatched = z.output<typeof FeedUnmatched>;

/** `"<unix-ms>-<seq>"`, compared numerically part by part. */
export const MESSAGE_ID_PATTERN = /^\d{1,16}-\d{1,16}$/;

export const UserFeedMessage = z.object({
  matched: FeedMatched.nullish(),
  unmatched: FeedUnmatched.nullish(),
  origin: opt(z.string()),
  gameID: opt(z.string()),
  parentGameID: opt(z.string()),
  eventName: opt(z.string()),
  league: opt(z.string()),
  sport: opt(z.string()),
  live: opt(z.boolean()),
  start: opt(IsoString),
  awayRotationNumber: opt(z.string()),
  platform: opt(z.string()),
  createdAt: opt(IsoString),
  messageID: z.string().regex(MESSAGE_ID_PATTERN),
});
export type UserFeedMessage = z.output<typeof UserFeedMessage>;

/**
 * The replay answer. Messages are checked one by one afterwards, so one bad entry costs
 * that entry, not the whole gap.
 */
export const UserFeedReplay = z.discriminatedUnion('status', [
  z.object({ status: z.literal('success'), messages: z.array(z.unknown()) }),
  z.object({ status: z.literal('cache_expired'), availableMessages: z.array(z.unknown()) }),
]);
export type UserFeedReplay = z.output<typeof UserFeedReplay>;

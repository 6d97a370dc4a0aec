import { z } from 'zod';
import { BookOrder, bookFields } from './book-order.ts';
import { Id, opt } from './common.ts';
import { Game } from './game.ts';

export { BookOrder };

/**
 * Price feed payloads (feeds-and-semantics §2). Only what a consumer cannot do without is
 * required; everything else a real server might omit or null is optional, so one missing
 * label never costs a whole side update. No transforms anywhere: the fast parser in
 * `socket/price-parse.ts` returns the parsed JSON itself, which is only sound while input
 * and output types are the same.
 */


/** `["orderUpdate", …]`: `sideOrders` is the full current list of that side and line; empty = emptied. */
export const OrderUpdate = z.object({
  epoch: z.number(),
  gameID: Id,
  parentGameID: opt(z.string()),
  sport: z.string(),
  league: z.string(),
  live: opt(z.boolean()),
  type: z.string(),
  /** Empty string for moneyline1x2, null for totals. */
  participantID: opt(z.string()),
  /** moneyline1x2: a participant id or `draw`; with `side` `yes`/`no`. */
  market: opt(z.string()),
  side: opt(z.string()),
  OU: opt(z.string()),
  total: opt(z.number()),
  spread: opt(z.number()),
  mainHomeSpread: opt(z.number()),
  mainAwaySpread: opt(z.number()),
  mainTotal: opt(z.number()),
  sideOrders: z.array(BookOrder),
});
export type OrderUpdate = z.output<typeof OrderUpdate>;

const sideList = opt(z.array(BookOrder));

/**
 * `["gameUpdate", …]`: the full game with its per-market collections. `messageType` is any
 * string: unknown values must be ignored, not rejected.
 */
export const GameUpdate = Game.extend({ ...bookFields(sideList), messageType: z.string() });
export type GameUpdate = z.output<typeof GameUpdate>;

export const MatchedVolumeUpdate = z.object({
  gameID: Id,
  parentGameID: opt(z.string()),
  league: opt(z.string()),
  sport: opt(z.string()),
  matchedVolume: z.number(),
});
export type MatchedVolumeUpdate = z.output<typeof MatchedVolumeUpdate>;

/** The messageType values the contract names; anything else is carried as null. */
export type GameMessageType = 'marketOpen' | 'marketClosed';

export type PriceFeedEvent =
  | { readonly type: 'orderUpdate'; readonly payload: OrderUpdate }
  | { readonly type: 'gameUpdate'; readonly payload: GameUpdate; readonly messageType: GameMessageType | null }
  | { readonly type: 'matchedVolumeUpdate'; readonly payload: MatchedVolumeUpdate };

/** Client frames that narrow the broadcast (feeds §2). */
export interface PriceSubscribeFrame {
  readonly type: 'subscribe';
  readonly gameIDs: readonly string[];
  readonly leagueIDs: readonly string[];
  readonly sportIDs: readonly string[];
  readonly replace: boolean;
}
export interface PriceUnsubscribeFrame {
  readonly type: 'unsubscribe';
  readonly gameIDs: readonly string[];
  readonly leagueIDs: readonly string[];
  readonly sportIDs: readonly string[];
}
export type PriceClientFrame = PriceSubscribeFrame | PriceUnsubscribeFrame | { readonly type: 'subscribeAll' };

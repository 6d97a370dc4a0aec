import { z } from 'zod';
import {
  BOOK_COLLECTIONS,
  BookCollectionWire,
  BookOrder,
  bookFields,
  ordersOf,
  type BookCollection,
} from './book-order.ts';
import { Id, opt } from './common.ts';
import { Game } from './game.ts';

export { BookOrder };

/**
 * Price feed payloads (feeds-and-semantics §2). Only what a consumer cannot do without is
 * required; everything else a real server might omit or null is optional, so one missing
 * label never costs a whole side update. No transforms anywhere: the fast parser in
 * `socket/price-parse.ts` returns the parsed JSON itself, which is only sound while input
 * and output types are the same. Where the wire has two forms (a gameUpdate's collections),
 * the schema accepts both and a named function normalises after the check.
 */

/** `["orderUpdate", …]`: `sideOrders` is the full current list of that side and line; empty = emptied. */
export const OrderUpdate = z.object({
  /**
   * Increases, semantics otherwise unpublished (feeds §8): used only to drop an update older
   * than the last applied on its side. May be missing (or null); such an update is never dropped.
   */
  epoch: opt(z.number()),
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

/**
 * `["gameUpdate", …]`: the full game with its per-market collections, each a flat list or an
 * object keyed by the line (feeds §8), either form for any collection. `messageType` is any
 * string: unknown values must be ignored, not rejected. This is the wire check; the event
 * carries the game after `normaliseGameUpdate`, with every collection a flat list.
 */
export const GameUpdate = Game.extend({ ...bookFields(opt(BookCollectionWire)), messageType: z.string() });
/** A gameUpdate payload as the wire sent it (validated, not yet normalised). */
export type GameUpdateWire = z.output<typeof GameUpdate>;
/** A gameUpdate in the one internal form: every collection a flat list (empty when missing). */
export type GameUpdate = Omit<GameUpdateWire, BookCollection> & { readonly [K in BookCollection]: BookOrder[] };

/**
 * The internal form of a validated gameUpdate: every collection flattened (missing or null:
 * empty). A new object, so the parsed JSON is not changed under anyone holding it (a frame
 * log, a recording); a payload already flat keeps its lists.
 */
export function normaliseGameUpdate(w: GameUpdateWire): GameUpdate {
  const out: Record<string, unknown> = { ...w };
  for (const k of BOOK_COLLECTIONS) out[k] = ordersOf(w[k]);
  return out as GameUpdate;
}

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

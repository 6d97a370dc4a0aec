import { z } from 'zod';
import { Id, IsoString, Odds, opt } from './common.ts';

/**
 * An order as a book lists it (exchange-api §2.3, feeds §2 `sideOrders`, v2 orderbook):
 * taker's odds, maker's `bet`, what a taker can still stake. The same entity on REST and on
 * the price feed. No transforms: the price feed's fast parser hands the parsed JSON on as is.
 */
export const BookOrder = z.object({
  id: Id,
  type: opt(z.string()),
  sumUntaken: z.number(),
  odds: Odds,
  bet: z.number(),
  gameID: opt(z.string()),
  takenRatio: opt(z.number()),
  participantID: opt(z.string()),
  market: opt(z.string()),
  side: opt(z.string()),
  OU: opt(z.string()),
  total: opt(z.number()),
  spread: opt(z.number()),
  gameStartExpiry: opt(z.boolean()),
  expiry: opt(IsoString),
  createdAt: opt(IsoString),
  isPostArb: opt(z.boolean()),
  createdBy: opt(z.string()),
  mockOrder: opt(z.boolean()),
});
export type BookOrder = z.output<typeof BookOrder>;

/** A game's per-market collections, named by the side a taker backs (feeds §7). */
export const BOOK_COLLECTIONS = ['homeMoneylines', 'awayMoneylines', 'homeSpreads', 'awaySpreads', 'over', 'under', 'homeMoneylines1x2', 'awayMoneylines1x2', 'draw1x2'] as const;
export type BookCollection = (typeof BOOK_COLLECTIONS)[number];

/**
 * The fields a game carries with its book: the nine collections, each `list`, then the
 * main lines, open interest and matched volume. The v2 orderbook and the price feed's
 * gameUpdate share them; only how a missing collection reads differs.
 */
export function bookFields<T extends z.ZodType>(list: T) {
  const collections = Object.fromEntries(BOOK_COLLECTIONS.map((k) => [k, list])) as Record<BookCollection, T>;
  return {
    ...collections,
    mainHomeSpread: opt(z.number()),
    mainAwaySpread: opt(z.number()),
    mainTotal: opt(z.number()),
    openInterest: opt(z.number()),
    matchedVolume: opt(z.number()),
  };
}

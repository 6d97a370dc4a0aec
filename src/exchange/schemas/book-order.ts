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

/**
 * One collection of a game as the wire sends it: a flat list (v2 orderbook), or an object
 * keyed by the line, `{}` when nothing rests (v1 orderbook, exchange-api §2.9; the price
 * feed's gameUpdate, feeds §8). Any collection may come in either form. No transform: the
 * price feed checks gameUpdate with a compiled validator that keeps the input as is, so
 * the flattening is a separate, explicit step (`ordersOf`).
 */
export const BookCollectionWire = z.union([z.array(BookOrder), z.record(z.string(), z.array(BookOrder))]);
export type BookCollectionWire = z.output<typeof BookCollectionWire>;

/**
 * The orders of a collection in its one internal form, a flat list: a keyed collection's
 * lists one after the other. Each order carries its own line (`spread`, `total`), which is
 * what the book keys on, so the key adds nothing and the order across keys does not matter.
 */
export function ordersOf(c: BookCollectionWire | null | undefined): BookOrder[] {
  if (c == null) return [];
  if (Array.isArray(c)) return c;
  const out: BookOrder[] = [];
  // A validated keyed collection can still hold a key the check never read: "__proto__",
  // an own key after JSON.parse, is skipped by zod's record check and left in the input.
  for (const [key, list] of Object.entries(c))
    if (key !== '__proto__' && Array.isArray(list)) for (const o of list) out.push(o);
  return out;
}

/** A collection read over REST: either wire form (missing or null: empty), flattened on parse. */
export const FlatBookCollection = BookCollectionWire.nullish().transform(ordersOf);

/** A game's per-market collections, named by the side a taker backs (feeds §7). */
export const BOOK_COLLECTIONS = [
  'homeMoneylines',
  'awayMoneylines',
  'homeSpreads',
  'awaySpreads',
  'over',
  'under',
  'homeMoneylines1x2',
  'awayMoneylines1x2',
  'draw1x2',
] as const;
export type BookCollection = (typeof BOOK_COLLECTIONS)[number];

/**
 * The fields a game carries with its book: the nine collections, each `list`, then the
 * main lines, open interest and matched volume. The v2 orderbook and the price feed's
 * gameUpdate share them; only how a collection is read differs (flattened on parse over
 * REST, validated as is and flattened after on the price feed).
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
